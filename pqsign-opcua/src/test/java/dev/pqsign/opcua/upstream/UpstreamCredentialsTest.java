package dev.pqsign.opcua.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UpstreamCredentialsTest {
    private static final String SECRET = "s3cret pass=word";

    @TempDir
    Path dir;

    private Path file(String content, String mode) throws Exception {
        Path f = dir.resolve("upstream.cred");
        Files.deleteIfExists(f);
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(mode));
        return f;
    }

    @Test
    void read_ownerOnlyFile_userAndPasswordWithSpacesAndEquals_crlfToo() throws Exception {
        for (String content : List.of(
                "user=plc-reader\npassword=" + SECRET + "\n", "user=plc-reader\r\npassword=" + SECRET + "\r\n")) {
            for (String mode : List.of("rw-------", "r--------")) {
                UpstreamCredentials c = UpstreamCredentials.read(file(content, mode));
                assertEquals("plc-reader", c.user());
                assertArrayEquals(SECRET.getBytes(StandardCharsets.UTF_8), c.password());
                assertFalse(c.toString().contains(SECRET));
            }
        }
    }

    @Test
    void read_fileThatGroupOrOthersMayAccess_refusedNamingTheFileAndTheFix() throws Exception {
        for (String mode : List.of("rw-r--r--", "rw-r-----", "rw----r--", "rw--w----", "rw------x")) {
            Path f = file("user=plc-reader\npassword=" + SECRET + "\n", mode);
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> UpstreamCredentials.read(f));
            String m = e.getMessage();
            assertTrue(m.startsWith(f.toString()), m);
            assertTrue(m.endsWith("chmod 600 " + f), m);
            assertTrue(m.contains(mode), m);
            assertFalse(m.contains(SECRET) || m.contains("\n"), m);
        }
    }

    @Test
    void read_notTwoLines_refusedWithoutShowingTheContent() throws Exception {
        for (String content : List.of(
                "password=" + SECRET + "\n",
                "user=a\npassword=" + SECRET + "\n\n",
                "user=a\npassword=" + SECRET + "\nmore",
                "user=a\npassword=",
                "user=\npassword=" + SECRET,
                "user=a")) {
            Path f = file(content, "rw-------");
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> UpstreamCredentials.read(f));
            assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        }
    }

    @Test
    void destroy_zeroesThePassword_andLaterUseIsRefused() throws Exception {
        UpstreamCredentials c = UpstreamCredentials.read(file("user=a\npassword=" + SECRET, "rw-------"));
        byte[] copy = c.password();
        copy[0] = 0; // a caller wiping its copy leaves the held password intact
        assertArrayEquals(SECRET.getBytes(StandardCharsets.UTF_8), c.password());
        assertFalse(c.isDestroyed());
        c.destroy();
        assertTrue(c.isDestroyed());
        assertThrows(IllegalStateException.class, c::password);
    }
}
