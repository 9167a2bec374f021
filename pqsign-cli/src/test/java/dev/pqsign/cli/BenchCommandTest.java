package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    @Test
    void benchHelp_listsTheOptions() {
        CliRunner.Result r = CliRunner.run("bench", "--help");
        assertEquals(0, r.exit(), r.toString());
        for (String opt :
                new String[] {"--quick", "--json", "--out-dir", "--schemes", "--no-opcua", "--no-hash-counts"}) {
            assertTrue(r.out().contains(opt), opt + "\n" + r);
        }
    }

    @Test
    void bench_unknownScheme_isAUsageError() {
        CliRunner.Result r = CliRunner.run("bench", "--quick", "--schemes", "RSA-2048");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("unknown scheme 'RSA-2048'"), r.toString());
    }

    @Test
    void bench_jsonUnwritable_refusedBeforeMeasuring(@TempDir Path dir) {
        CliRunner.Result r = CliRunner.run(
                "bench",
                "--quick",
                "--schemes",
                "ML-DSA-44",
                "--no-hash-counts",
                "--no-opcua",
                "--json",
                dir.toString());
        assertEquals(2, r.exit(), r.toString());
        assertEquals(
                "pqsign: " + dir + ": is a directory; give a file name\n",
                r.err(),
                "refused before any" + " measurement was logged");
    }

    @Test
    void benchQuick_oneScheme_writesJsonAndReport(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("out/bench.json");
        CliRunner.Result r = CliRunner.run(
                "bench",
                "--quick",
                "--schemes",
                "ML-DSA-44",
                "--no-hash-counts",
                "--no-opcua",
                "--json",
                json.toString(),
                "--out-dir",
                dir.resolve("report").toString());
        assertEquals(0, r.exit(), r.toString());
        String j = Files.readString(json);
        assertTrue(j.startsWith("{") && j.contains("\"results\":[") && j.contains("\"scheme\":\"ML-DSA-44\""), j);
        assertTrue(j.contains("\"command\":\"pqsign bench --quick --schemes ML-DSA-44"), j);
        assertTrue(Files.readString(dir.resolve("report/report.md")).contains("ML-DSA-44"));
        assertTrue(Files.exists(dir.resolve("report/time-sign.svg")));
        assertTrue(r.out().contains("ML-DSA-44"), r.toString());
    }
}
