package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard output that cannot be written is a failure (issue 16, item 5): the real {@code pqsign}
 * main in a child JVM with its stdout on /dev/full (every write: ENOSPC) exits 1 with one line.
 */
class StdoutFailureProcessTest {
    @TempDir
    Path dir;

    private record Run(int exit, String err) {}

    private Run pqsignToDevFull(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(PqsignCli.class.getName());
        cmd.addAll(List.of(args));
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(new File("/dev/full"))
                .redirectError(err.toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "pqsign " + String.join(" ", args) + " did not finish");
        return new Run(p.exitValue(), Files.readString(err));
    }

    private static void assertFailedOneLine(Run r) {
        assertEquals(1, r.exit(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("pqsign: standard output: write failed"), r.err());
        assertFalse(OutputSafetyCliTest.CLASS_NAME.matcher(r.err()).find(), r.err());
    }

    @Test
    void kat_stdoutFull_exit1() throws Exception {
        assertFailedOneLine(pqsignToDevFull("kat", "HAETAE-2"));
    }

    @Test
    void paramsAndInspectAndHelp_stdoutFull_exit1() throws Exception {
        assertFailedOneLine(pqsignToDevFull("params"));
        Path pub = Files.write(dir.resolve("key.pub"), new byte[] {
            0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
            27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,
            54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
        });
        assertFailedOneLine(pqsignToDevFull("inspect", pub.toString()));
        assertFailedOneLine(pqsignToDevFull("sign", "--help"));
    }
}
