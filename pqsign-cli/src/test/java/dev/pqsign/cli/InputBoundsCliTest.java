package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.xmss.XmssKeyState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * No hangs on outside input (issue 16, item 3): numeric options bounded before use, FIFOs and
 * devices refused before they are opened, size limits enforced while reading. The timeouts only
 * turn a hang into a failure (they run in a separate thread, which a blocked read cannot stop);
 * they measure nothing.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class InputBoundsCliTest {
    @TempDir
    Path dir;

    private Path state;
    private Path msg;

    @BeforeEach
    void keygen() throws Exception {
        Path key = dir.resolve("k");
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", key.toString())
                        .exit());
        state = key.resolve("key.state");
        msg = Files.writeString(dir.resolve("m.txt"), "m");
    }

    private Path fifo(String name) throws Exception {
        Path p = dir.resolve(name);
        assertEquals(
                0,
                new ProcessBuilder("mkfifo", p.toString()).inheritIO().start().waitFor());
        return p;
    }

    @Test
    void keySplit_hugePartCounts_refusedBeforeAnyLoop() throws Exception {
        byte[] before = Files.readAllBytes(state);
        for (String n : List.of("2147483647", "10000000", "10001")) {
            var r = CliRunner.run(
                    "key",
                    "split",
                    "--key",
                    state.toString(),
                    "--parts",
                    n,
                    "--out",
                    dir.resolve("parts").toString());
            assertEquals(2, r.exit(), n + ": " + r);
            assertTrue(r.err().contains("--parts must be between 2 and 10000"), r.err());
        }
        assertArrayEquals(before, Files.readAllBytes(state));
    }

    @Test
    void numericOptions_outOfRange_refused() throws Exception {
        String[][] calls = {
            {
                "sign",
                "--key",
                state.toString(),
                "--in",
                msg.toString(),
                "--out",
                dir.resolve("a.sig").toString(),
                "--batch",
                "0"
            },
            {
                "sign",
                "--key",
                state.toString(),
                "--in",
                msg.toString(),
                "--out",
                dir.resolve("a.sig").toString(),
                "--batch",
                "-5"
            },
            {
                "sign",
                "--key",
                state.toString(),
                "--in",
                msg.toString(),
                "--out",
                dir.resolve("a.sig").toString(),
                "--batch",
                "2147483647"
            },
            {
                "sign",
                "--key",
                state.toString(),
                "--in",
                msg.toString(),
                "--out",
                dir.resolve("a.sig").toString(),
                "--lock-timeout",
                "-1"
            },
            {
                "key",
                "split",
                "--key",
                state.toString(),
                "--parts",
                "2",
                "--out",
                dir.resolve("p").toString(),
                "--lock-timeout",
                "-1"
            },
            {"keygen", "--params", "XMSS-SHA2_10_256", "--out", dir.resolve("t").toString(), "--threads", "0"},
            {"keygen", "--params", "XMSS-SHA2_10_256", "--out", dir.resolve("t").toString(), "--threads", "100000"},
            {
                "cert",
                "self-signed",
                "--key",
                state.toString(),
                "--subject",
                "CN=x",
                "--out",
                dir.resolve("x.pem").toString(),
                "--lock-timeout",
                "99999999"
            },
        };
        for (String[] c : calls) {
            var r = CliRunner.run(c);
            assertEquals(2, r.exit(), String.join(" ", c) + ": " + r);
            assertTrue(r.err().contains("must be between"), r.err());
        }
        assertTrue(Files.notExists(dir.resolve("a.sig")) && Files.notExists(dir.resolve("t")));
        assertEquals(0, XmssKeyState.decode(Files.readAllBytes(state)).nextIndex());
    }

    /**
     * Issue 31, item 8: Java's number parsers take other scripts' digits, exponents, NaN and
     * Infinity; options take ASCII digits only, and the sensor's and operator's numbers have
     * ranges. Each is refused with one line naming the option, before the key is touched.
     */
    @Test
    void numbersOutsidePlainAsciiOrTheirRange_refusedOneLine() throws Exception {
        String k = state.toString();
        String pub = state.resolveSibling("key.pub").toString();
        String url = "opc.tcp://127.0.0.1:1/pqsign";
        String op = dir.resolve("op").toString();
        String[][] calls = {
            {"--history", "sensor", "--key", k, "--history", "\u0663", "--readings", "1"},
            {"--readings", "sensor", "--key", k, "--readings", "\uff11"},
            {"--rate", "sensor", "--key", k, "--rate", "1e20", "--readings", "1"},
            {"--rate", "sensor", "--key", k, "--rate", "1e-9", "--readings", "1"},
            {"--rate", "sensor", "--key", k, "--rate", "NaN", "--readings", "1"},
            {"--rate", "sensor", "--key", k, "--rate", "Infinity", "--readings", "1"},
            {"--rate", "sensor", "--key", k, "--rate", "0x10", "--readings", "1"},
            {"--rate", "sensor", "--key", k, "--rate", "200000", "--readings", "1"},
            {"--rate", "sensor", "--key", k, "--rate", "0.0001", "--readings", "1"},
            {"--batch", "sensor", "--key", k, "--batch", "0", "--readings", "1"},
            {"--batch", "sensor", "--key", k, "--batch", "70000", "--readings", "1"},
            {"--lock-timeout", "sensor", "--key", k, "--lock-timeout", "99999999", "--readings", "1"},
            {"--port", "sensor", "--key", k, "--port", "+80", "--readings", "1"},
            {"--publishing-ms", "operator", "--url", url, "--pub", pub, "--data-dir", op, "--publishing-ms", "1e20"},
            {"--publishing-ms", "operator", "--url", url, "--pub", pub, "--data-dir", op, "--publishing-ms", "100000"},
            {"--publishing-ms", "operator", "--url", url, "--pub", pub, "--data-dir", op, "--publishing-ms", "0.5"},
            {"--warn-remaining", "operator", "--url", url, "--pub", pub, "--data-dir", op, "--warn-remaining", "-1"},
            {"--warn-seconds", "operator", "--url", url, "--pub", pub, "--data-dir", op, "--warn-seconds", "-1"},
            {"--connect-timeout", "operator", "--url", url, "--pub", pub, "--data-dir", op, "--connect-timeout", "99999"
            },
            {
                "--readings",
                "operator",
                "--url",
                url,
                "--pub",
                pub,
                "--data-dir",
                op,
                "--readings",
                "99999999999999999999"
            },
        };
        for (String[] row : calls) { // the option at fault, then the call
            String[] c = java.util.Arrays.copyOfRange(row, 1, row.length);
            var r = CliRunner.run(c);
            String call = String.join(" ", c);
            assertEquals(2, r.exit(), call + ": " + r);
            assertEquals(1, r.err().strip().lines().count(), call + ": " + r);
            assertTrue(r.err().contains(row[0]), call + ": names the option: " + r.err());
        }
        assertEquals(0, XmssKeyState.decode(Files.readAllBytes(state)).nextIndex());
    }

    @Test
    void fifoWithoutWriter_refusedInsteadOfBlocking() throws Exception {
        Path f = fifo("pipe");
        String[][] calls = {
            {"inspect", f.toString()},
            {"verify", "--pub", f.toString(), "--in", msg.toString(), "--sig", msg.toString()},
            {"verify", "--pub", dir.resolve("k/key.pub").toString(), "--in", f.toString(), "--sig", msg.toString()},
            {
                "sign",
                "--key",
                f.toString(),
                "--in",
                msg.toString(),
                "--out",
                dir.resolve("s.sig").toString()
            },
            {
                "sign",
                "--key",
                state.toString(),
                "--in",
                f.toString(),
                "--out",
                dir.resolve("s.sig").toString()
            },
            {"cert", "verify", "--cert", f.toString(), "--trust", f.toString()},
            {
                "key",
                "split",
                "--key",
                f.toString(),
                "--parts",
                "2",
                "--out",
                dir.resolve("p").toString()
            },
        };
        for (String[] c : calls) {
            var r = CliRunner.run(c);
            assertEquals(2, r.exit(), String.join(" ", c) + ": " + r);
            assertTrue(r.err().contains(f + ": ") && r.err().contains("not a regular file"), r.err());
        }
    }

    @Test
    void endlessDevice_refusedWithoutReadingIt() {
        for (String dev : List.of("/dev/urandom", "/dev/zero")) {
            var r = CliRunner.run("inspect", dev);
            assertEquals(2, r.exit(), r.toString());
            assertTrue(r.err().contains("not a regular file"), r.err());
            r = CliRunner.run(
                    "verify", "--pub", dir.resolve("k/key.pub").toString(), "--in", dev, "--sig", msg.toString());
            assertEquals(2, r.exit(), r.toString());
        }
    }

    @Test
    void oversizedKeyFile_refusedAtTheLimit() throws Exception {
        Path big = dir.resolve("big.pub");
        Files.write(big, new byte[(1 << 20) + 1]);
        var r = CliRunner.run("inspect", big.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("larger than 1048576"), r.err());
    }
}
