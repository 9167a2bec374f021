package dev.pqsign.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge sensor as a plant runs it, with the launcher's small-device JVM options: a key directory
 * of the study's set 1 (so the sensor prepares its next key right after its first signature), a real
 * {@code pqsign operator} verifying every reading over loopback, SIGTERM as systemd stops it, and a
 * restart that continues the key and the history.
 */
class EdgeSensorProcessTest {
    private static final String SET = "XMSSMT-SHA2_10/2_256";
    private static final Pattern VERDICT = Pattern.compile("\"verdict\":\"([A-Z_]+)\"");
    private static final Pattern INDEX = Pattern.compile("\"index\":(\\d+)");

    @TempDir
    Path dir;

    private EdgeProcesses processes;

    @BeforeEach
    void processes() {
        processes = new EdgeProcesses(dir);
    }

    @AfterEach
    void killLeftovers() {
        processes.killAll();
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private Process sensor(String name) throws Exception {
        return processes.edge(
                name,
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--rate",
                "20",
                "--data-dir",
                p("sensor-data"));
    }

    /** The full CLI's operator on {@code url}, verifying {@code readings} readings into verdicts.jsonl. */
    private void operate(String name, String url, int readings) throws Exception {
        Process operator = processes.plant(
                name,
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--readings",
                Integer.toString(readings),
                "--data-dir",
                p("operator-data"),
                "--jsonl",
                p("verdicts.jsonl"),
                // a loaded 2-core machine may take longer than the default 10 s to connect
                "--connect-timeout",
                "60");
        assertTrue(operator.waitFor(120, TimeUnit.SECONDS), processes.describe(name));
        // exit 0: nothing rejected, missing or reused
        assertEquals(0, operator.exitValue(), processes.describe(name));
    }

    /** Stops the sensor as systemd does (SIGTERM) and checks it ended cleanly; returns its last index. */
    private long stop(String name, Process sensor) throws Exception {
        sensor.destroy(); // SIGTERM
        assertTrue(
                sensor.waitFor(15, TimeUnit.SECONDS), "not stopped within TimeoutStopSec; " + processes.describe(name));
        assertEquals(0, sensor.exitValue(), processes.describe(name));
        assertEquals("", processes.err(name), processes.describe(name));
        Matcher m = Pattern.compile("sensor stopped \\(stopped\\): \\d+ readings published, last index (\\d+)")
                .matcher(processes.out(name));
        assertTrue(m.find(), processes.describe(name));
        return Long.parseLong(m.group(1));
    }

    @Test
    @Timeout(300)
    void keyDirectory_operatorAcceptsEveryReading_sigtermStopsCleanly_restartContinues() throws Exception {
        assertEquals(0, processes.runEdge("keygen", "keygen", "--params", SET, "--out", p("k")));

        Process first = sensor("sensor-1");
        operate("operator-1", processes.endpoint("sensor-1", first), 30);
        long last = stop("sensor-1", first);
        assertTrue(
                Files.isDirectory(dir.resolve("k/generations")),
                "next key prepared; " + processes.describe("sensor-1"));

        // the restarted sensor continues after the last burned index; the operator, resuming its
        // replay state, backfills from the sensor's history what it missed and accepts the rest
        Process second = sensor("sensor-2");
        String url = processes.endpoint("sensor-2", second);
        assertTrue(processes.out("sensor-2").contains("history: "), processes.describe("sensor-2"));
        operate("operator-2", url, 20);
        assertTrue(stop("sensor-2", second) > last);

        List<String> lines = Files.readAllLines(dir.resolve("verdicts.jsonl"));
        long accepted = 0;
        long previous = -1;
        for (String line : lines) {
            Matcher v = VERDICT.matcher(line);
            if (!v.find()) {
                continue; // key-state events carry no verdict
            }
            assertEquals("ACCEPTED", v.group(1), line);
            Matcher i = INDEX.matcher(line);
            assertTrue(i.find(), line);
            long index = Long.parseLong(i.group(1));
            assertTrue(index > previous, "indices increase: " + line);
            previous = index;
            accepted++;
        }
        assertTrue(accepted >= 50, accepted + " accepted");
    }
}
