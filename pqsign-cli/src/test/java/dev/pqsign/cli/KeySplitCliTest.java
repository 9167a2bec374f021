package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.xmss.XmssKeyState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pqsign key split}: files, ranges, signing with every part, refusals and exit codes. */
class KeySplitCliTest {
    @TempDir
    Path dir;

    private Path keyDir;
    private Path state;

    @BeforeEach
    void keygen() {
        keyDir = dir.resolve("k");
        var r = CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", keyDir.toString());
        assertEquals(0, r.exit(), r.toString());
        state = keyDir.resolve("key.state");
    }

    private long signIndex(Path key, Path msg, Path sig) {
        var r = CliRunner.run("sign", "--key", key.toString(), "--in", msg.toString(), "--out", sig.toString());
        assertEquals(0, r.exit(), r.toString());
        var m = java.util.regex.Pattern.compile("index (\\d+)").matcher(r.out());
        assertTrue(m.find(), r.out());
        return Long.parseLong(m.group(1));
    }

    @Test
    void split_threeParts_rangesOnDiskAndEveryPartSignsVerifiableUniqueIndices() throws Exception {
        Path msg = Files.writeString(dir.resolve("m.txt"), "rpm=1500.25");
        assertEquals(0, signIndex(state, msg, dir.resolve("first.sig")));
        Path out = dir.resolve("parts");
        var r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", "3", "--out", out.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("part 1: indices [1, 342), 341 signatures"), r.out());
        assertTrue(r.out().contains("part 2: indices [342, 683), 341 signatures"), r.out());
        assertTrue(r.out().contains("part 3: indices [683, 1024), 341 signatures"), r.out());
        assertArrayEquals(Files.readAllBytes(keyDir.resolve("key.pub")), Files.readAllBytes(out.resolve("key.pub")));
        assertEquals(
                "rw-r--r--",
                java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(out.resolve("key.pub"))));
        assertEquals(
                "rw-------",
                java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(out.resolve("part-2.state"))));

        r = CliRunner.run("inspect", state.toString());
        assertTrue(r.out().contains("next 1, end 342"), r.out());
        r = CliRunner.run("inspect", out.resolve("part-3.state").toString());
        assertTrue(r.out().contains("next 683, end 1024") && r.out().contains("341 signatures"), r.out());

        Set<Long> used = new HashSet<>();
        Path[] keys = {state, out.resolve("part-2.state"), out.resolve("part-3.state")};
        long[] expectedFirst = {1, 342, 683};
        for (int i = 0; i < keys.length; i++) {
            for (int k = 0; k < 2; k++) {
                Path sig = dir.resolve("p" + i + "-" + k + ".sig");
                long idx = signIndex(keys[i], msg, sig);
                assertEquals(expectedFirst[i] + k, idx);
                assertTrue(used.add(idx));
                r = CliRunner.run(
                        "verify",
                        "--pub",
                        out.resolve("key.pub").toString(),
                        "--in",
                        msg.toString(),
                        "--sig",
                        sig.toString());
                assertEquals(0, r.exit(), r.toString());
            }
        }
    }

    @Test
    void split_ofAPart_andIntoTheKeysOwnDirectory_works() throws Exception {
        Path out = dir.resolve("parts");
        assertEquals(
                0,
                CliRunner.run("key", "split", "--key", state.toString(), "--parts", "2", "--out", out.toString())
                        .exit());
        // key.pub in the key's own directory is the same key: accepted, not rewritten.
        var r = CliRunner.run(
                "key",
                "split",
                "--key",
                out.resolve("part-2.state").toString(),
                "--parts",
                "4",
                "--out",
                keyDir.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("part 1: indices [512, 640)"), r.out());
        assertTrue(r.out().contains("part 4: indices [896, 1024)"), r.out());
        assertEquals(
                640,
                XmssKeyState.decode(Files.readAllBytes(out.resolve("part-2.state")))
                        .endIndex());
        assertEquals(
                896,
                XmssKeyState.decode(Files.readAllBytes(keyDir.resolve("part-4.state")))
                        .nextIndex());
    }

    @Test
    void split_badPartCounts_exit2AndNothingChanged() throws Exception {
        byte[] before = Files.readAllBytes(state);
        Path out = dir.resolve("parts");
        for (String n : new String[] {"1", "0", "-2", "1025"}) {
            var r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", n, "--out", out.toString());
            assertEquals(2, r.exit(), n + ": " + r);
            assertFalse(r.err().contains("Exception"), r.err());
        }
        var r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", "1025", "--out", out.toString());
        assertTrue(r.err().contains("1024 remaining") && r.err().contains("key.state"), r.err());
        assertFalse(Files.exists(out), "the refused split left its new --out directory behind");
        r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", "x", "--out", out.toString());
        assertEquals(2, r.exit(), r.toString());
        assertEquals(1024, XmssKeyState.decode(Files.readAllBytes(state)).endIndex());
        assertArrayEquals(before, Files.readAllBytes(state));
        assertFalse(Files.exists(out.resolve("part-2.state")));
    }

    @Test
    void split_existingOutputOrForeignPublicKey_exit2AndNothingChanged() throws Exception {
        byte[] before = Files.readAllBytes(state);
        Path out = Files.createDirectory(dir.resolve("parts"));
        Files.writeString(out.resolve("part-3.state"), "not mine");
        var r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", "3", "--out", out.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("part-3.state") && r.err().contains("already exists"), r.err());
        assertArrayEquals(before, Files.readAllBytes(state));
        assertFalse(Files.exists(out.resolve("part-2.state")));
        assertEquals("not mine", Files.readString(out.resolve("part-3.state")));

        Path other = dir.resolve("other");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", other.toString())
                        .exit());
        r = CliRunner.run("key", "split", "--key", state.toString(), "--parts", "2", "--out", other.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("different public key"), r.err());
        assertArrayEquals(before, Files.readAllBytes(state));
    }

    @Test
    void split_exhaustedKey_exit1_andNonXmssOrMissingKey_exit2() throws Exception {
        KeyStates.exhaust(state);
        var r = CliRunner.run(
                "key",
                "split",
                "--key",
                state.toString(),
                "--parts",
                "2",
                "--out",
                dir.resolve("p").toString());
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("exhausted") && r.err().contains("key.state"), r.err());
        assertFalse(Files.exists(dir.resolve("p").resolve("part-2.state")));

        r = CliRunner.run(
                "key",
                "split",
                "--key",
                dir.resolve("missing.state").toString(),
                "--parts",
                "2",
                "--out",
                dir.resolve("p").toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("missing.state"), r.err());

        Path h = dir.resolve("h");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", h.toString())
                        .exit());
        r = CliRunner.run(
                "key",
                "split",
                "--key",
                h.resolve("key.sk").toString(),
                "--parts",
                "2",
                "--out",
                dir.resolve("p").toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("not an XMSS or HSS key state"), r.err());

        r = CliRunner.run("key");
        assertEquals(2, r.exit(), r.toString());
        r = CliRunner.run("key", "split", "--help");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("--parts") && r.out().contains("never a copy"), r.out());
    }
}
