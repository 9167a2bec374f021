package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.Mounts;
import dev.pqsign.xmss.XmssKeyState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where outputs may go (issue 16, items 2, 4 and 6): never onto an input or a key, never through a
 * link or onto a special file, every check before an index is burned, key directories whole or not
 * at all, and crash leftovers removed by the next run. Full and read-only file systems are real
 * tmpfs mounts (skipped where this process may not mount).
 */
class OutputSafetyCliTest {
    /** A Java exception class name in a message, e.g. java.nio.file.FileSystemException or IOException. */
    static final Pattern CLASS_NAME = Pattern.compile("java\\.[a-z]+\\.|[A-Z][A-Za-z]*Exception");

    @TempDir
    Path dir;

    @RegisterExtension
    final Mounts mounts = new Mounts();

    private Path key;
    private Path state;
    private Path msg;

    @BeforeEach
    void keygen() throws IOException {
        key = dir.resolve("k");
        var r = CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", key.toString());
        assertEquals(0, r.exit(), r.toString());
        state = key.resolve("key.state");
        msg = Files.writeString(dir.resolve("m.txt"), "rpm=1500.25");
    }

    private long nextIndex() throws IOException {
        return XmssKeyState.decode(Files.readAllBytes(state)).nextIndex();
    }

    private CliRunner.Result sign(String... outArgs) {
        String[] args = Stream.concat(
                        Stream.of("sign", "--key", state.toString(), "--in", msg.toString()), Stream.of(outArgs))
                .toArray(String[]::new);
        return CliRunner.run(args);
    }

    private static void assertOneLine(CliRunner.Result r) {
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().startsWith("pqsign: "), r.err());
        assertFalse(CLASS_NAME.matcher(r.err()).find(), "no Java class names: " + r.err());
    }

    private static void mkfifo(Path p) throws Exception {
        assertEquals(
                0,
                new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor());
    }

    @Test
    void sign_outIsTheKeyState_refusedAndKeyIntact() throws Exception {
        byte[] before = Files.readAllBytes(state);
        var r = sign("--out", state.toString());
        assertEquals(2, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains("input"), r.err());
        assertArrayEquals(before, Files.readAllBytes(state));

        r = sign("--out", key.resolve("..").resolve("k").resolve("key.state").toString());
        assertEquals(2, r.exit(), "the same file through '..': " + r);
        assertArrayEquals(before, Files.readAllBytes(state));

        Path link = Files.createLink(dir.resolve("hard.state"), state);
        r = sign("--out", link.toString());
        assertEquals(2, r.exit(), "the same file through a hard link: " + r);
        assertArrayEquals(before, Files.readAllBytes(state));
    }

    @Test
    void sign_outIsTheMessageOrKeyPub_refused() throws Exception {
        byte[] pub = Files.readAllBytes(key.resolve("key.pub"));
        var r = sign("--out", msg.toString());
        assertEquals(2, r.exit(), r.toString());
        assertEquals("rpm=1500.25", Files.readString(msg));
        r = sign("--out", key.resolve("key.pub").toString());
        assertEquals(2, r.exit(), r.toString());
        assertArrayEquals(pub, Files.readAllBytes(key.resolve("key.pub")));
        assertEquals(0, nextIndex(), "no index burned for refused outputs");
    }

    @Test
    void sign_outHoldsAnotherPrivateKey_refused() throws Exception {
        Path other = dir.resolve("h");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", other.toString())
                        .exit());
        Path copy = Files.copy(other.resolve("key.sk"), dir.resolve("elsewhere.sk"));
        byte[] before = Files.readAllBytes(copy);
        var r = sign("--out", copy.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("private key"), r.err());
        assertArrayEquals(before, Files.readAllBytes(copy));
    }

    @Test
    void certSelfSigned_outIsKeyStateOrKeyPub_refusedNoIndexBurned() throws Exception {
        byte[] st = Files.readAllBytes(state);
        byte[] pub = Files.readAllBytes(key.resolve("key.pub"));
        for (Path out : List.of(state, key.resolve("key.pub"))) {
            var r = CliRunner.run(
                    "cert", "self-signed", "--key", state.toString(), "--subject", "CN=Root", "--out", out.toString());
            assertEquals(2, r.exit(), r.toString());
            assertOneLine(r);
        }
        assertArrayEquals(st, Files.readAllBytes(state));
        assertArrayEquals(pub, Files.readAllBytes(key.resolve("key.pub")));
    }

    @Test
    void certSelfSigned_daysOutOfRange_refusedBeforeIndexBurned() throws Exception {
        for (String days : List.of("3000000", "0", "-1", "36526")) {
            var r = CliRunner.run(
                    "cert",
                    "self-signed",
                    "--key",
                    state.toString(),
                    "--subject",
                    "CN=Root",
                    "--days",
                    days,
                    "--out",
                    dir.resolve("root.pem").toString());
            assertEquals(2, r.exit(), days + ": " + r);
            assertOneLine(r);
            assertTrue(r.err().contains("--days"), r.err());
        }
        assertEquals(0, nextIndex());
        assertFalse(Files.exists(dir.resolve("root.pem")));
    }

    @Test
    void certSelfSigned_toStdout_writesPem() throws Exception {
        var r = CliRunner.run("cert", "self-signed", "--key", state.toString(), "--subject", "CN=Root", "--out", "-");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().startsWith("-----BEGIN CERTIFICATE-----"), r.out());
        assertFalse(Files.exists(Path.of("-")), "'-' is stdout, not a file");
    }

    @Test
    void keygen_intoKeyDirectoryOfOtherScheme_refusedKeyIntact() throws Exception {
        byte[] pub = Files.readAllBytes(key.resolve("key.pub"));
        var r = CliRunner.run("keygen", "--params", "HAETAE-2", "--out", key.toString());
        assertEquals(2, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains("already holds a key"), r.err());
        assertArrayEquals(pub, Files.readAllBytes(key.resolve("key.pub")));
        assertFalse(Files.exists(key.resolve("key.sk")));

        Path h = dir.resolve("h");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", h.toString())
                        .exit());
        byte[] hpub = Files.readAllBytes(h.resolve("key.pub"));
        r = CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", h.toString());
        assertEquals(2, r.exit(), r.toString());
        assertArrayEquals(hpub, Files.readAllBytes(h.resolve("key.pub")));
        assertFalse(Files.exists(h.resolve("key.state")));
    }

    @Test
    void keygen_outIsFileOrNonEmptyDirectory_refusedWithReason() throws Exception {
        var r = CliRunner.run("keygen", "--params", "HAETAE-2", "--out", msg.toString());
        assertEquals(2, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains(msg + ": exists and is not a directory"), r.err());

        Path busy = Files.createDirectory(dir.resolve("busy"));
        Files.writeString(busy.resolve("notes.txt"), "mine");
        r = CliRunner.run("keygen", "--params", "HAETAE-2", "--out", busy.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("not empty"), r.err());

        Path empty = Files.createDirectory(dir.resolve("empty"));
        r = CliRunner.run("keygen", "--params", "HAETAE-2", "--out", empty.toString());
        assertEquals(0, r.exit(), "an existing empty directory becomes the key directory: " + r);
        assertTrue(Files.isRegularFile(empty.resolve("key.sk")) && Files.isRegularFile(empty.resolve("key.pub")));
    }

    @Test
    void sign_twoInputsWithSameName_refusedBeforeIndexBurned() throws Exception {
        Path a = Files.createDirectories(dir.resolve("d1")).resolve("r.txt");
        Path b = Files.createDirectories(dir.resolve("d2")).resolve("r.txt");
        Files.writeString(a, "a");
        Files.writeString(b, "b");
        Path out = dir.resolve("out");
        var r = CliRunner.run(
                "sign", "--key", state.toString(), "--in", a.toString(), b.toString(), "--out-dir", out.toString());
        assertEquals(2, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains("named twice"), r.err());
        assertEquals(0, nextIndex());

        r = CliRunner.run(
                "sign", "--key", state.toString(), "--in", a.toString(), a.toString(), "--out-dir", out.toString());
        assertEquals(2, r.exit(), "one file twice: " + r);
        assertEquals(0, nextIndex());
    }

    @Test
    void sign_missingDirectoryOrDirectoryAsOut_refusedBeforeIndexBurned() throws Exception {
        var r = sign("--out", dir.resolve("nowhere").resolve("m.sig").toString());
        assertEquals(2, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains("does not exist"), r.err());
        Path d = Files.createDirectory(dir.resolve("sigdir"));
        r = sign("--out", d.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("is a directory"), r.err());
        assertEquals(0, nextIndex());
    }

    @Test
    void sign_outIsSymlinkOrFifo_refusedAndLeftAsIs() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "keep me");
        Path link = Files.createSymbolicLink(dir.resolve("link.sig"), victim);
        var r = sign("--out", link.toString());
        assertEquals(2, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains("symbolic link"), r.err());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("keep me", Files.readString(victim));

        Path fifo = dir.resolve("fifo.sig");
        mkfifo(fifo);
        r = sign("--out", fifo.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("not a regular file"), r.err());
        assertFalse(Files.isRegularFile(fifo, LinkOption.NOFOLLOW_LINKS), "the FIFO is still a FIFO");
        assertEquals(0, nextIndex());
    }

    @Test
    void sign_staleTempFilesOfACrash_removedByNextRun() throws Exception {
        Path out = Files.createDirectory(dir.resolve("sigs"));
        Path stale = Files.writeString(out.resolve(".m.txt.sig.tmp-0123456789abcdef"), "half a signature");
        Path unrelated = Files.writeString(out.resolve(".m.txt.sig.tmp-notours"), "not a temp name");
        var r = CliRunner.run("sign", "--key", state.toString(), "--in", msg.toString(), "--out-dir", out.toString());
        assertEquals(0, r.exit(), r.toString());
        assertFalse(Files.exists(stale), "stale temporary file removed");
        assertTrue(Files.exists(unrelated), "only exact temporary names are touched");
        assertTrue(Files.isRegularFile(out.resolve("m.txt.sig")));
    }

    @Test
    void keygen_staleStagingDirectoryOfACrash_removedByNextRun() throws Exception {
        Path stale = Files.createDirectory(dir.resolve(".fresh.tmp-0123456789abcdef"));
        Files.writeString(stale.resolve("key.state"), "half a key");
        var r = CliRunner.run(
                "keygen", "--params", "HAETAE-2", "--out", dir.resolve("fresh").toString());
        assertEquals(0, r.exit(), r.toString());
        assertFalse(Files.exists(stale), "stale staging directory removed");
        assertTrue(Files.isRegularFile(dir.resolve("fresh").resolve("key.sk")));
    }

    @Test
    void sign_readOnlyFileSystem_exit1BeforeIndexBurned() throws Exception {
        Path ro = Files.createDirectory(dir.resolve("ro"));
        mounts.mount(ro, "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs");
        var r = sign("--out", ro.resolve("m.sig").toString());
        assertEquals(1, r.exit(), "the operation failed, the input was fine: " + r);
        assertOneLine(r);
        assertTrue(r.err().contains("Read-only file system"), r.err());
        assertEquals(0, nextIndex(), "checked before an index was burned");
    }

    @Test
    void sign_fullDisk_exit1OneLineSaysSignatureLost() throws Exception {
        Path full = Files.createDirectory(dir.resolve("full"));
        mounts.mount(full, "-t", "tmpfs", "-o", "size=4k", "tmpfs");
        Files.write(full.resolve("filler"), new byte[4096]);
        var r = sign("--out", full.resolve("m.sig").toString());
        assertEquals(1, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains("No space left on device") && r.err().contains("lost"), r.err());
        assertFalse(Files.exists(full.resolve("m.sig")));
        try (Stream<Path> s = Files.list(full)) {
            assertEquals(List.of(full.resolve("filler")), s.toList(), "no temporary file left");
        }
    }

    @Test
    void keygen_fullDisk_noHalfKeyDirectory() throws Exception {
        Path full = Files.createDirectory(dir.resolve("full"));
        mounts.mount(full, "-t", "tmpfs", "-o", "size=4k", "tmpfs");
        Path k = full.resolve("k");
        var r = CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", k.toString());
        assertEquals(1, r.exit(), r.toString());
        assertOneLine(r);
        assertTrue(r.err().contains(k.toString()) && r.err().contains("no key was created"), r.err());
        try (Stream<Path> s = Files.list(full)) {
            assertEquals(List.of(), s.toList(), "neither half a key directory nor a staging directory is left");
        }
    }
}
