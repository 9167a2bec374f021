package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real sensor process with a small heap ({@code -Xmx48m}) signs thousands of readings as fast as
 * it can without running out of memory: its history keeps the records in its file, not on the heap,
 * rewrites that file by streaming it, and is bounded in bytes as well as in count and age.
 */
class SensorMemoryProcessTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";
    private static final List<String> SMALL_HEAP = List.of("-Xmx48m");
    private static final Pattern HELD = Pattern.compile("history: (\\d+) readings held");

    @TempDir
    Path dir;

    private ChildProcesses processes;

    @BeforeEach
    void processes() {
        processes = new ChildProcesses(dir);
    }

    @AfterEach
    void killLeftovers() {
        processes.killAll();
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    /** Runs {@code pqsign sensor} with a 48 MiB heap to its end; returns its standard output. */
    private String sensor(String name, long readings, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--rate",
                "0",
                "--batch",
                "64",
                "--summary",
                "--readings",
                Long.toString(readings),
                "--data-dir",
                p("sensor-data")));
        args.addAll(List.of(more));
        Process sensor = processes.pqsignWith(name, SMALL_HEAP, args.toArray(String[]::new));
        assertTrue(sensor.waitFor(10, TimeUnit.MINUTES), "sensor did not stop; " + processes.describe(name));
        String err = Files.readString(dir.resolve(name + ".err"));
        assertFalse(err.contains("OutOfMemoryError"), processes.describe(name));
        assertEquals(0, sensor.exitValue(), processes.describe(name));
        String out = processes.out(name);
        assertTrue(
                out.contains("sensor stopped (" + readings + " readings): " + readings + " readings published"),
                processes.describe(name));
        return out;
    }

    private static int held(String out) {
        Matcher m = HELD.matcher(out);
        assertTrue(m.find(), out);
        return Integer.parseInt(m.group(1));
    }

    private void keygen() {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
    }

    @Test
    @Timeout(900)
    void smallHeap_thousandsOfReadingsWithTheDefaultHistory_noOutOfMemory_historyKeptAndBounded() throws Exception {
        keygen();
        sensor("first", 3000);
        assertEquals(3000, held(sensor("count", 1)));
        // A restart with a smaller history keeps 200 of them, rewrites the file (streamed) and
        // rewrites it again after another 1,500 readings; the file holds at most twice the entries
        // kept + 1,000, and a restart with the default history reads them all back.
        assertEquals(200, held(sensor("smaller", 1500, "--history", "200")));
        int back = held(sensor("again", 1));
        assertTrue(back > 200 && back <= 2 * 200 + 1000, back + " readings back");
        // A byte bound: about 9.4 KB per reading of this set, so 1 MB holds about a hundred.
        String out = sensor("bytes", 1, "--history-bytes", "1000000");
        int inBytes = held(out);
        assertTrue(inBytes > 50 && inBytes <= 1_000_000 / 9_000, inBytes + " readings in 1 MB");
        Matcher m = Pattern.compile("readings held \\((\\d+) bytes\\)").matcher(out);
        assertTrue(m.find(), out);
        assertTrue(Long.parseLong(m.group(1)) <= 1_000_000, out);
    }

    @Test
    @Timeout(3600)
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void smallHeap_moreReadingsThanTheDefaultHistoryHolds_fileRewrittenWhileSigning() throws Exception {
        keygen();
        // the default history (10,000) is rewritten after 21,000 appends
        sensor("long", 25_000);
        assertEquals(10_000, held(sensor("after", 1)));
    }
}
