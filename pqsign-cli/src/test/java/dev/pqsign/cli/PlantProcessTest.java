package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.SimulatedSpeedSensor;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14's proofs with real processes on loopback: a sensor and an operator as child JVMs, a
 * named pipe, SIGKILL, a restored key state; verdicts read back from the operator's JSON Lines.
 */
class PlantProcessTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Kept when a test fails: the children's output and the operator's JSON Lines, for the post-mortem. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
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

    /** {@code pqsign sensor} signing ten simulated readings a second with its history under sensor-data. */
    private Process sensorAt10Hz(String name, String port) throws IOException {
        return processes.pqsign(
                name,
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                port,
                "--rate",
                "10",
                "--data-dir",
                p("sensor-data"));
    }

    /**
     * For a failed assertion: the children's output and the verdicts in {@code jsonl}, one short line
     * each (without the signatures); the directory with the full files is kept.
     */
    private String report(String jsonl, String... children) {
        StringBuilder sb = new StringBuilder("files kept in ").append(dir).append('\n');
        try {
            for (String child : children) {
                sb.append(processes.describe(child)).append('\n');
            }
            sb.append(jsonl).append(":\n");
            for (JsonNode n : verdicts(jsonl)) {
                sb.append(n.get("index"))
                        .append(' ')
                        .append(n.get("verdict").asText())
                        .append(n.has("from_index") ? " " + n.get("from_index") + ".." + n.get("to_index") : "")
                        .append(" received ")
                        .append(n.get("received_at").asText())
                        .append(" source ")
                        .append(n.get("source_time"))
                        .append(" seq ")
                        .append(n.get("sequence"))
                        .append('\n');
            }
        } catch (IOException | RuntimeException e) {
            sb.append("(cannot read: ").append(e).append(')');
        }
        return sb.toString();
    }

    private List<JsonNode> verdicts(String file) throws IOException {
        List<JsonNode> list = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve(file))) {
            list.add(JSON.readTree(line));
        }
        return list;
    }

    private static long count(List<JsonNode> v, String verdict) {
        return v.stream().filter(n -> n.get("verdict").asText().equals(verdict)).count();
    }

    @Test
    @Timeout(300)
    void burstThroughNamedPipe_2000Lines_allAcceptedNoGap_exit0() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Path fifo = dir.resolve("readings.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Process sensor = processes.pqsign(
                "sensor",
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--source",
                fifo.toString(),
                "--summary",
                "--data-dir",
                p("sensor-data"));
        String url = processes.endpoint("sensor", sensor);
        Process operator = processes.pqsign(
                "operator",
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--readings",
                "2000",
                "--jsonl",
                p("burst.jsonl"),
                "--data-dir",
                p("op"));
        processes.await("operator", operator, out -> out.contains("subscribed to"));
        try (OutputStream pipe = Files.newOutputStream(fifo)) {
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < 2000; i++) {
                lines.append(String.format("%d.%02d,burst-%04d%n", 1400 + i % 200, i % 100, i));
            }
            pipe.write(lines.toString().getBytes(StandardCharsets.US_ASCII)); // as fast as the pipe takes it
        }
        assertTrue(operator.waitFor(240, TimeUnit.SECONDS), processes.describe("operator"));
        assertEquals(0, operator.exitValue(), processes.describe("operator"));
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor"));
        assertEquals(0, sensor.exitValue(), processes.describe("sensor"));
        List<JsonNode> v = verdicts("burst.jsonl");
        assertEquals(2000, count(v, "ACCEPTED"), processes.describe("operator"));
        assertEquals(0, count(v, "GAP"), processes.describe("operator"));
        for (int i = 0; i < 2000; i++) {
            assertEquals(i, v.get(i).get("index").asLong());
        }
        assertTrue(
                processes.out("operator").contains("summary: 2000 readings, ACCEPTED 2000, BAD_SIGNATURE 0"),
                processes.describe("operator"));
    }

    @Test
    @Timeout(300)
    void restoredOldKeyState_signsAgain_operatorReportsIndexReuseWithEvidence() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Path backup = dir.resolve("k-backup");
        copyDirectory(dir.resolve("k"), backup);

        Process sensor = processes.pqsign(
                "sensor1",
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--source",
                "stdin",
                "--data-dir",
                p("sensor-data"));
        String url = processes.endpoint("sensor1", sensor);
        Process operator = processes.pqsign(
                "operator1",
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--readings",
                "3",
                "--jsonl",
                p("run1.jsonl"),
                "--data-dir",
                p("op"));
        processes.await("operator1", operator, out -> out.contains("subscribed to"));
        try (OutputStream in = sensor.getOutputStream()) {
            for (int i = 0; i < 3; i++) {
                in.write(("1500.0" + i + ",genuine\n").getBytes(StandardCharsets.US_ASCII));
                in.flush();
                int n = i + 1;
                processes.await(
                        "operator1",
                        operator,
                        out -> out.lines().filter(l -> l.startsWith("ACCEPTED")).count() >= n);
            }
        }
        assertTrue(operator.waitFor(60, TimeUnit.SECONDS), processes.describe("operator1"));
        assertEquals(0, operator.exitValue(), processes.describe("operator1"));
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor1"));

        // The old copy of the key state comes back (a restored backup): it signs index 0 again.
        Process clone = processes.pqsign(
                "sensor2",
                "sensor",
                "--key",
                backup.resolve("key.state").toString(),
                "--port",
                "0",
                "--source",
                "stdin",
                "--data-dir",
                p("sensor-data"));
        String url2 = processes.endpoint("sensor2", clone);
        Process operator2 = processes.pqsign(
                "operator2",
                "operator",
                "--url",
                url2,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--readings",
                "1",
                "--jsonl",
                p("run2.jsonl"),
                "--data-dir",
                p("op"));
        processes.await("operator2", operator2, out -> out.contains("subscribed to"));
        try (OutputStream in = clone.getOutputStream()) {
            in.write("1400.00,from-the-restored-state\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            assertTrue(operator2.waitFor(120, TimeUnit.SECONDS), processes.describe("operator2"));
        }
        assertEquals(1, operator2.exitValue(), processes.describe("operator2"));
        List<JsonNode> v = verdicts("run2.jsonl");
        assertEquals(1, v.size(), v.toString());
        assertEquals("INDEX_REUSE", v.get(0).get("verdict").asText());
        assertEquals(0, v.get(0).get("index").asLong());
        List<Path> evidence;
        try (Stream<Path> s = Files.list(dir.resolve("op").resolve("evidence"))) {
            evidence = s.sorted().toList();
        }
        assertEquals(2, evidence.size(), evidence.toString());
        assertTrue(evidence.get(0).getFileName().toString().endsWith("-0-1-first.pqsr"), evidence.toString());
        assertTrue(
                Files.readString(evidence.get(0), StandardCharsets.ISO_8859_1).contains("1500.00,genuine"));
        assertTrue(
                Files.readString(evidence.get(1), StandardCharsets.ISO_8859_1).contains("from-the-restored-state"));
    }

    private static List<Long> indices(List<JsonNode> v, String verdict) {
        return v.stream()
                .filter(n -> n.get("verdict").asText().equals(verdict))
                .map(n -> n.get("index").asLong())
                .toList();
    }

    private static long acceptedLines(String out) {
        return out.lines().filter(l -> l.startsWith("ACCEPTED")).count();
    }

    @Test
    @Timeout(300)
    void operatorKilledMidStream_restartedWithSameDataDir_backfillsEveryIndexExactlyOnce() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Process sensor = sensorAt10Hz("sensor", "0");
        String url = processes.endpoint("sensor", sensor);
        String[] op = {"operator", "--url", url, "--pub", p("k/key.pub"), "--params", SET, "--data-dir", p("op")};
        Process operator1 = processes.pqsign("operator1", concat(op, "--jsonl", p("run1.jsonl")));
        processes.await("operator1", operator1, out -> acceptedLines(out) >= 20);
        operator1.destroyForcibly(); // SIGKILL mid-stream
        assertTrue(operator1.waitFor(30, TimeUnit.SECONDS));
        Thread.sleep(4000); // the sensor goes on publishing at 10 Hz meanwhile
        Process operator2 = processes.pqsign("operator2", concat(op, "--jsonl", p("run2.jsonl")));
        long lastOfRun1 = indices(verdicts("run1.jsonl"), "ACCEPTED").stream()
                .mapToLong(Long::longValue)
                .max()
                .orElseThrow();
        processes.await(
                "operator2",
                operator2,
                out -> out.lines().anyMatch(l -> l.startsWith("ACCEPTED index=" + (lastOfRun1 + 60) + " ")));
        operator2.destroy();
        assertTrue(operator2.waitFor(60, TimeUnit.SECONDS), processes.describe("operator2"));
        assertEquals(0, operator2.exitValue(), processes.describe("operator2"));
        sensor.destroy();
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor"));

        List<JsonNode> all = new ArrayList<>(verdicts("run1.jsonl"));
        List<JsonNode> run2 = verdicts("run2.jsonl");
        all.addAll(run2);
        assertEquals(0, count(all, "REJECTED") + count(all, "GAP") + count(all, "INDEX_REUSE"), all.toString());
        assertTrue(count(all, "DUPLICATE") <= 1, all.toString());
        List<Long> accepted = indices(all, "ACCEPTED");
        long first = accepted.get(0);
        long last = accepted.get(accepted.size() - 1);
        assertEquals(last - first + 1, accepted.size(), "every index exactly once: " + accepted);
        for (int i = 0; i < accepted.size(); i++) {
            assertEquals(first + i, accepted.get(i));
        }
        assertTrue(indices(run2, "ACCEPTED").get(0) == lastOfRun1 + 1, "run 2 starts right after run 1");
        assertTrue(
                Files.readString(dir.resolve("operator2.out"))
                                .lines()
                                .filter(l -> l.startsWith("ACCEPTED"))
                                .count()
                        >= 60,
                processes.describe("operator2"));
    }

    @Test
    @Timeout(300)
    void sensorKilledAndRestarted_indexContinues_operatorResumes_noLossTheHistoryHolds() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Process sensor1 = sensorAt10Hz("sensor1", "0");
        String url = processes.endpoint("sensor1", sensor1);
        String port = url.replaceAll(".*:(\\d+)/.*", "$1");
        Process operator = processes.pqsign(
                "operator",
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--data-dir",
                p("op"),
                "--jsonl",
                p("run.jsonl"));
        processes.await("operator", operator, out -> acceptedLines(out) >= 10);
        sensor1.destroyForcibly();
        assertTrue(sensor1.waitFor(30, TimeUnit.SECONDS));
        Process sensor2 = sensorAt10Hz("sensor2", port);
        processes.endpoint("sensor2", sensor2);
        long restarted = System.nanoTime();
        long firstOfSensor2 = Long.parseLong(firstIndex(sensor2));
        processes.await(
                "operator",
                operator,
                out -> out.lines().anyMatch(l -> l.startsWith("ACCEPTED index=" + firstOfSensor2 + " ")));
        double resumeSeconds = (System.nanoTime() - restarted) / 1e9;
        processes.await(
                "operator",
                operator,
                out -> out.lines().anyMatch(l -> l.startsWith("ACCEPTED index=" + (firstOfSensor2 + 20) + " ")));
        operator.destroy();
        assertTrue(operator.waitFor(60, TimeUnit.SECONDS), processes.describe("operator"));
        sensor2.destroy();
        assertTrue(sensor2.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor2"));

        Supplier<String> report = () -> report("run.jsonl", "sensor1", "sensor2", "operator");
        List<JsonNode> v = verdicts("run.jsonl");
        assertEquals(0, count(v, "REJECTED") + count(v, "INDEX_REUSE"), report);
        // Whatever a sensor published is accepted; a GAP may only cover indices no sensor published
        // (reserved ahead by the killed process, never signed).
        List<Long> published = new ArrayList<>();
        for (String name : List.of("sensor1", "sensor2")) {
            Matcher m = Pattern.compile("(?m)^index=(\\d+) ").matcher(processes.out(name));
            while (m.find()) {
                published.add(Long.parseLong(m.group(1)));
            }
        }
        List<Long> accepted = indices(v, "ACCEPTED");
        for (JsonNode g : v) {
            if (g.get("verdict").asText().equals("GAP")) {
                for (long i = g.get("from_index").asLong();
                        i <= g.get("to_index").asLong();
                        i++) {
                    long missing = i;
                    assertTrue(
                            !published.contains(i),
                            () -> "index " + missing + " was published but reported missing; " + report.get());
                }
            }
        }
        long firstAccepted = accepted.get(0);
        for (long i : published) {
            if (i >= firstAccepted && i <= accepted.get(accepted.size() - 1)) {
                long lost = i;
                assertTrue(accepted.contains(i), () -> "published index " + lost + " not accepted; " + report.get());
            }
        }
        assertTrue(
                firstOfSensor2
                        > published.stream()
                                .filter(i -> i < firstOfSensor2)
                                .mapToLong(Long::longValue)
                                .max()
                                .orElse(-1),
                "the index continues after the restart");
        System.out.printf("operator resumed %.1f s after the sensor restarted%n", resumeSeconds);
        assertTrue(resumeSeconds < 30, "operator resumed only after " + resumeSeconds + " s");
    }

    /** 20 sensors (in this JVM, 10 Hz each, with history) on one operator process for 60 s: every reading accounted for. */
    @Test
    @Timeout(900)
    void long_twentySensorsOneOperator_sixtySeconds_everyReadingAccepted() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("pqsign.long"), "long run: -Plong");
        int n = 20;
        List<TelemetryKeys.OpenSensorKey> keys = new ArrayList<>();
        List<ReadingHistory> histories = new ArrayList<>();
        List<SensorServer> sensors = new ArrayList<>();
        StringBuilder file = new StringBuilder("{\"sensors\": [");
        try {
            for (int i = 0; i < n; i++) {
                assertEquals(
                        0,
                        CliRunner.run("keygen", "--params", SET, "--out", p("k" + i))
                                .exit());
                TelemetryKeys.OpenSensorKey key = TelemetryKeys.openSensorKey(
                        dir.resolve("k" + i + "/key.state"), null, SensorSigningOptions.of(1, true, false), 10);
                keys.add(key);
                ReadingHistory h = ReadingHistory.inMemory(10_000, Duration.ofHours(1), Clock.systemUTC());
                histories.add(h);
                SensorServer s = SensorServer.start(
                        SensorServer.Config.loopback("s" + i, dir.resolve("s" + i), TransportSecurity.NONE),
                        key.sensorKey,
                        h);
                sensors.add(s);
                file.append(i == 0 ? "" : ",")
                        .append("{\"name\": \"s")
                        .append(i)
                        .append("\", \"url\": \"")
                        .append(s.endpointUrl())
                        .append("\", \"pub\": \"k")
                        .append(i)
                        .append("/key.pub\", \"params\": \"")
                        .append(SET)
                        .append("\"}");
            }
            Files.writeString(dir.resolve("sensors.json"), file.append("]}").toString());
            Process operator = processes.pqsign(
                    "operator",
                    "operator",
                    "--sensors",
                    p("sensors.json"),
                    "--jsonl",
                    p("all.jsonl"),
                    "--publishing-ms",
                    "10",
                    "--data-dir",
                    p("op"),
                    "--connect-timeout",
                    "60");
            processes.await(
                    "operator",
                    operator,
                    out -> out.lines()
                                    .filter(l -> l.startsWith("subscribed to"))
                                    .count()
                            >= n);
            long[] published = new long[n];
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                Thread t = new Thread(() -> {
                    SimulatedSpeedSensor source = new SimulatedSpeedSensor(1500, 5, 10, k, Clock.systemUTC());
                    try {
                        while (System.nanoTime() < end) {
                            sensors.get(k).publish(source.next());
                            published[k]++;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            long total = Arrays.stream(published).sum();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline
                    && (!Files.exists(dir.resolve("all.jsonl")) || count(verdicts("all.jsonl"), "ACCEPTED") < total)) {
                Thread.sleep(500);
            }
            operator.destroy();
            assertTrue(operator.waitFor(60, TimeUnit.SECONDS), processes.describe("operator"));
            List<JsonNode> v = verdicts("all.jsonl");
            assertEquals(
                    0,
                    count(v, "REJECTED") + count(v, "GAP") + count(v, "INDEX_REUSE"),
                    processes.describe("operator"));
            for (int i = 0; i < n; i++) {
                String name = "s" + i;
                List<Long> idx = v.stream()
                        .filter(x -> x.get("sensor").asText().equals(name)
                                && x.get("verdict").asText().equals("ACCEPTED"))
                        .map(x -> x.get("index").asLong())
                        .toList();
                assertEquals(published[i], idx.size(), name);
                for (int j = 0; j < idx.size(); j++) {
                    assertEquals(j, idx.get(j), name);
                }
            }
            assertEquals(0, operator.exitValue(), processes.describe("operator"));
            System.out.printf("20 sensors, 60 s: %d readings, all accepted once%n", total);
        } finally {
            for (SensorServer s : sensors) {
                s.close();
            }
            for (ReadingHistory h : histories) {
                h.close();
            }
            for (TelemetryKeys.OpenSensorKey k : keys) {
                k.close();
            }
        }
    }

    private String firstIndex(Process sensor) throws Exception {
        processes.await("sensor2", sensor, o -> o.lines().anyMatch(l -> l.startsWith("index=")));
        Matcher m = Pattern.compile("(?m)^index=(\\d+) ").matcher(processes.out("sensor2"));
        assertTrue(m.find());
        return m.group(1);
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static void copyDirectory(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) {
                if (Files.isRegularFile(f)) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
