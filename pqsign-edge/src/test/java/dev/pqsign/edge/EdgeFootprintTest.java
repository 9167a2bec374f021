package dev.pqsign.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 5's footprint, behind {@code -Plong}: the edge distribution's launcher, with its
 * JVM options (heap 48 MB), runs a sensor at 10 Hz inside a 128 MiB memory limit (memory and swap,
 * a real cgroup: {@link MemoryLimit}) while a real {@code pqsign operator} verifies every reading,
 * for {@code -Dpqsign.edge.soak=PT1H} (default {@code PT150S}). The sensor's key directory is of
 * {@code -Dpqsign.edge.soak.params} (default the study's set 1, so the sensor rolls over to a new key
 * every ~1,016 readings, about every 100 s). Passes if the sensor is never OOM-killed, keeps 10 Hz,
 * writes nothing to stderr, stops within 15 s of SIGTERM, and the operator accepts every reading
 * and follows every handover. Time to the endpoint line and memory are measured and printed (and
 * kept under target/edge-footprint/), not asserted: the machine is shared.
 */
class EdgeFootprintTest {
    private static final long LIMIT = 128L << 20;
    private static final double RATE = 10;
    private static final Pattern PUBLISHED =
            Pattern.compile("sensor stopped \\(stopped\\): (\\d+) readings published, last index (\\d+)");

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

    @Test
    @Timeout(value = 3, unit = TimeUnit.HOURS)
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sensorAt10Hz_heap48m_in128MiB_operatorAcceptsEveryReading() throws Exception {
        Duration soak = Duration.parse(System.getProperty("pqsign.edge.soak", "PT150S"));
        String set = System.getProperty("pqsign.edge.soak.params", "XMSSMT-SHA2_10/2_256");
        Optional<MemoryLimit> made =
                MemoryLimit.create("pqsign-edge-" + ProcessHandle.current().pid(), LIMIT);
        Assumptions.assumeTrue(
                made.isPresent(),
                "no way to set a memory limit here (neither systemd-run nor a writable cgroup v1 memory"
                        + " controller; ulimit -v limits address space, which a JVM reserves far beyond its use)");
        try (MemoryLimit limit = made.get()) {
            soak(limit, soak, set);
        }
    }

    private void soak(MemoryLimit limit, Duration soak, String set) throws Exception {
        assertEquals(0, processes.runEdge("keygen", "keygen", "--params", set, "--out", p("k")));
        int port = EdgeProcesses.freePort();
        long t0 = System.nanoTime();
        Process sensor = processes.edge(
                "sensor",
                limit.wrapper(),
                Map.of(),
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                Integer.toString(port),
                "--rate",
                Double.toString(RATE),
                "--summary",
                "--data-dir",
                p("sensor-data"));
        processes.endpoint("sensor", sensor);
        double startSeconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(limit.bytes(), limit.effectiveLimit(), "the kernel's limit");

        Process operator = processes.plant(
                "operator",
                "operator",
                "--port",
                Integer.toString(port),
                "--pub",
                p("k/key.pub"),
                "--params",
                set,
                "--data-dir",
                p("operator-data"),
                "--jsonl",
                p("verdicts.jsonl"),
                "--connect-timeout",
                "60");

        List<String> samples = new ArrayList<>();
        samples.add("seconds,usage_bytes,anonymous_bytes,sensor_rss_bytes");
        Instant end = Instant.now().plus(soak);
        long sensorRssMax = 0;
        while (Instant.now().isBefore(end)) {
            assertTrue(sensor.isAlive(), "sensor ended; " + processes.describe("sensor") + limit.describe());
            long rss = rss(sensor.pid());
            sensorRssMax = Math.max(sensorRssMax, rss);
            samples.add(String.format(
                    Locale.ROOT,
                    "%.0f,%d,%d,%d",
                    (System.nanoTime() - t0) / 1e9,
                    limit.usage(),
                    limit.anonymous(),
                    rss));
            Thread.sleep(Math.min(
                    10_000, Math.max(1, Duration.between(Instant.now(), end).toMillis())));
        }
        long peak = limit.peak();
        long reached = limit.limitReached();
        long oomKills = limit.oomKills();

        long t1 = System.nanoTime();
        sensor.destroy(); // SIGTERM, as systemd stops it
        assertTrue(sensor.waitFor(15, TimeUnit.SECONDS), "not stopped within 15 s; " + processes.describe("sensor"));
        double stopSeconds = (System.nanoTime() - t1) / 1e9;
        assertEquals(0, sensor.exitValue(), processes.describe("sensor"));
        assertEquals(0, oomKills, "OOM kills; " + limit.describe());
        assertEquals("", processes.err("sensor"), processes.describe("sensor"));
        Matcher m = PUBLISHED.matcher(processes.out("sensor"));
        assertTrue(m.find(), processes.describe("sensor"));
        long published = Long.parseLong(m.group(1));
        double seconds = soak.toMillis() / 1000.0;
        assertTrue(published >= 0.9 * RATE * seconds, published + " readings in " + seconds + " s");

        Verdicts v = awaitVerdicts(operator, published);
        operator.destroy();
        assertTrue(operator.waitFor(60, TimeUnit.SECONDS), processes.describe("operator"));
        assertEquals(0, operator.exitValue(), "nothing rejected or missing; " + processes.describe("operator"));
        assertEquals(published, v.accepted, "every reading accepted; other verdicts: " + v.other);
        assertEquals(List.of(), v.other);

        String summary = String.format(
                Locale.ROOT,
                "edge footprint: %s, %s, %.0f s at %.0f Hz: start to endpoint %.2f s, %d readings published and"
                        + " accepted, %d handovers followed; cgroup peak %.1f MiB (limit reached %d times, OOM kills %d),"
                        + " sensor RSS max %.1f MiB; stopped by SIGTERM in %.2f s",
                limit,
                set,
                seconds,
                RATE,
                startSeconds,
                published,
                v.handovers,
                peak / 1048576.0,
                reached,
                oomKills,
                sensorRssMax / 1048576.0,
                stopSeconds);
        System.out.println(summary);
        Path kept = Path.of("target", "edge-footprint", Long.toString(System.currentTimeMillis()));
        Files.createDirectories(kept);
        Files.writeString(kept.resolve("summary.txt"), summary + "\n");
        Files.write(kept.resolve("memory.csv"), samples);
    }

    /** Verdict counts from the operator's JSON Lines. */
    private static final class Verdicts {
        long accepted;
        long handovers;
        final List<String> other = new ArrayList<>();
    }

    private static final Pattern VERDICT = Pattern.compile("\"verdict\":\"([A-Z_]+)\"");
    private static final Pattern EVENT = Pattern.compile("\"event\":\"([A-Z_]+)\"");

    /** Waits (at most two minutes) until the operator has judged {@code published} readings. */
    private Verdicts awaitVerdicts(Process operator, long published) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        Verdicts v;
        do {
            Thread.sleep(500);
            v = verdicts();
        } while (v.accepted + v.other.size() < published && System.nanoTime() < deadline && operator.isAlive());
        return v;
    }

    private Verdicts verdicts() throws IOException {
        Verdicts v = new Verdicts();
        Path f = dir.resolve("verdicts.jsonl");
        if (!Files.exists(f)) {
            return v;
        }
        for (String line : Files.readAllLines(f)) {
            Matcher verdict = VERDICT.matcher(line);
            Matcher event = EVENT.matcher(line);
            if (verdict.find()) {
                if (verdict.group(1).equals("ACCEPTED")) {
                    v.accepted++;
                } else {
                    v.other.add(line);
                }
            } else if (event.find() && event.group(1).equals("HANDOVER")) {
                assertTrue(line.contains("\"outcome\":\"FOLLOWED\""), line);
                v.handovers++;
            } else if (event.find(0) && event.group(1).equals("KEY_ALARM")) {
                v.other.add(line);
            }
        }
        return v;
    }

    /** Resident set size of process {@code pid} in bytes (VmRSS), 0 once it has ended. */
    private static long rss(long pid) throws IOException {
        Path status = Path.of("/proc/" + pid + "/status");
        if (!Files.exists(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
            }
        }
        return 0;
    }
}
