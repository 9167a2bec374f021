package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Key rollover as a plant runs it: {@code pqsign sensor} on a key directory of
 * XMSSMT-SHA2_10/2_256 (1,024 signatures per key) and {@code pqsign operator} as separate processes
 * on loopback, readings fed through a named pipe as fast as it delivers them. The sensor hands over
 * to a new key every ~1,016 readings; the operator follows every handover without restart, accepts
 * every index of every key exactly once, reports no gap and no rejection, and {@code pqsign audit}
 * re-verifies its JSON Lines from the first public key alone.
 */
class RolloverProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    @Test
    @Timeout(600)
    void sensorRollsOverTwice_operatorFollowsEveryHandover_auditPasses() throws Exception {
        run(2_100, 2);
    }

    @Test
    @Timeout(1800)
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sensorRollsOverTenTimes_long() throws Exception {
        run(10_300, 10);
    }

    /**
     * The certificate path: the sensor's device CA (under the plant root, path length 0) certifies
     * every key it rolls over to; the operator trusts only the root (and the sensor's first
     * certificate chain), follows both handovers and accepts every index; the audit from the first
     * public key passes over the same JSON Lines.
     */
    @Test
    @Timeout(900)
    void sensorWithDeviceCa_rollsOverTwice_operatorTrustingOnlyRootFollows_auditPasses() throws Exception {
        CliRunner.Result ca = CliPki.create(dir, 3650).deviceCa("devca", "CN=sensor-1 device CA,O=Test");
        assertEquals(0, ca.exit(), ca.err());
        keyParams = "XMSS-SHA2_10_256"; // the smallest set with an RFC 9802 encoding
        sensorExtra = List.of("--device-ca", p("devca"));
        operatorKey = List.of("--cert", p("k/certificate.pem"), "--trust", p("root.pem"));

        run(2_100, 2);

        try (var files = Files.list(dir.resolve("op/chains"))) {
            assertEquals(
                    1,
                    files.filter(f -> f.toString().endsWith(".pqcc")).count(),
                    "the operator keeps the certificate chain of the key it followed to");
        }
        assertTrue(Files.exists(dir.resolve("k/generations/000000000002/certificate.pem")));
    }

    /** Parameter set of the sensor's key directory. */
    private String keyParams = "XMSSMT-SHA2_10/2_256";
    /** Extra sensor options. */
    private List<String> sensorExtra = List.of();
    /** How the operator is told the sensor's key: pinned by default, or by certificate and root. */
    private List<String> operatorKey;

    private void run(int readings, int expectedHandovers) throws Exception {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", keyParams, "--out", p("k")).exit());
        Path fifo = dir.resolve("readings.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        int port = freePort();
        // The sensor first: with a device CA it certifies its first key as it starts.
        Process sensor = startSensor(fifo, port);
        await("sensor", sensor, out -> out.contains("endpoint"));
        Process operator = startOperator("operator", "verdicts.jsonl", port);
        await("operator", operator, out -> out.contains("subscribed to"));
        try (OutputStream w = Files.newOutputStream(fifo)) {
            writeReadings(w, 0, readings);
        }
        assertTrue(sensor.waitFor(300, TimeUnit.SECONDS), describe("sensor"));
        assertEquals(0, sensor.exitValue(), describe("sensor"));
        // The operator runs until stopped (SIGTERM, as Ctrl-C): wait until every reading was judged.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (countAccepted() < readings && System.nanoTime() < deadline && operator.isAlive()) {
            Thread.sleep(200);
        }
        operator.destroy();
        assertTrue(operator.waitFor(60, TimeUnit.SECONDS), describe("operator"));
        assertEquals(0, operator.exitValue(), describe("operator"));

        Map<String, List<Long>> acceptedByKey = new LinkedHashMap<>();
        int handovers = 0;
        List<String> other = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("verdicts.jsonl"))) {
            JsonNode o = JSON.readTree(line);
            if ("HANDOVER".equals(o.path("event").asText())) {
                assertEquals("FOLLOWED", o.get("outcome").asText(), line);
                handovers++;
            } else if ("ACCEPTED".equals(o.path("verdict").asText())) {
                acceptedByKey
                        .computeIfAbsent(o.get("key_id").asText(), k -> new ArrayList<>())
                        .add(o.get("index").asLong());
            } else if (o.has("event")) {
                // Key-state lines: a warning is informational, an alarm is not.
                assertTrue(!"KEY_ALARM".equals(o.get("event").asText()), line);
            } else if (!"DUPLICATE".equals(o.path("verdict").asText())) {
                // A duplicate (a record delivered again after a reconnect) is informational.
                other.add(line);
            }
        }
        assertEquals(List.of(), other, "only ACCEPTED, DUPLICATE and followed HANDOVER lines expected");
        assertEquals(expectedHandovers, handovers);
        assertEquals(expectedHandovers + 1, acceptedByKey.size());
        long total = 0;
        for (List<Long> indices : acceptedByKey.values()) {
            for (int i = 0; i < indices.size(); i++) {
                assertEquals(i, indices.get(i), "every index of every key, in order, exactly once");
            }
            total += indices.size();
        }
        assertEquals(readings, total);

        CliRunner.Result audit =
                CliRunner.run("audit", "--pub", p("k/key.pub"), "--params", keyParams, "--jsonl", p("verdicts.jsonl"));
        assertEquals(0, audit.exit(), audit.out() + audit.err());
        assertTrue(audit.out().contains(readings + " readings verified"), audit.out());
        assertTrue(audit.out().contains(expectedHandovers + " key handovers followed"), audit.out());
        // The retired keys' secrets are gone; public keys and handover records stay for audit:
        // generation 1, retired and compacted, in the handover log, generation 2 in its directory.
        assertTrue(Files.notExists(dir.resolve("k/key.state")));
        assertTrue(Files.notExists(dir.resolve("k/generations/000000000001")));
        assertTrue(Files.exists(dir.resolve("k/generations/000000000002/handover.pqho")));
        CliRunner.Result keyAudit = CliRunner.run("audit", "--key-dir", p("k"));
        assertEquals(0, keyAudit.exit(), keyAudit.out() + keyAudit.err());
        assertTrue(
                keyAudit.out().contains(expectedHandovers + " key handovers verified (1 from handovers.pqhc)"),
                keyAudit.out());
    }

    /**
     * The operator is killed (SIGKILL) before the sensor's first rollover and restarted after its
     * third: it backfills from the sensor's history, which carries the three handovers it missed
     * in order between the readings, follows each before it meets a reading of the next key, and
     * accepts every reading; across both runs every index of all four keys is accepted exactly
     * once, nothing is rejected, no handover is out of order, and {@code pqsign audit} passes on
     * the two runs' JSON Lines.
     */
    @Test
    @Timeout(600)
    void operatorDownAcrossThreeRollovers_catchesUpAfterRestart_auditPasses() throws Exception {
        operatorDownAcrossThreeRollovers();
    }

    /**
     * The same in certificate mode: the operator trusts only the plant root (and the sensor's first
     * certificate chain); after its restart it follows the three handovers it missed in order, each
     * with its key's certificate chain from the sensor (the history of current.key.certificates),
     * checked against the root and the sensor's device CA.
     */
    @Test
    @Timeout(900)
    void operatorInCertificateModeDownAcrossThreeRollovers_followsEachInOrderAfterRestart_auditPasses()
            throws Exception {
        CliRunner.Result ca = CliPki.create(dir, 3650).deviceCa("devca", "CN=sensor-1 device CA,O=Test");
        assertEquals(0, ca.exit(), ca.err());
        keyParams = "XMSS-SHA2_10_256"; // the smallest set with an RFC 9802 encoding
        sensorExtra = List.of("--device-ca", p("devca"));
        operatorKey = List.of("--cert", p("k/certificate.pem"), "--trust", p("root.pem"));

        operatorDownAcrossThreeRollovers();

        assertTrue(Files.exists(dir.resolve("k/generations/000000000003/certificate.pem")));
        try (var files = Files.list(dir.resolve("op/chains"))) {
            assertEquals(1, files.filter(f -> f.toString().endsWith(".pqcc")).count());
        }
    }

    private void operatorDownAcrossThreeRollovers() throws Exception {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", keyParams, "--out", p("k")).exit());
        Path fifo = dir.resolve("readings.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        int port = freePort();
        // The sensor first: with a device CA it certifies its first key as it starts.
        Process sensor = startSensor(fifo, port, "--rollover-at", "100");
        await("sensor", sensor, out -> out.contains("endpoint"));
        Process first = startOperator("op1", "op1.jsonl", port);
        await("op1", first, out -> out.contains("subscribed to"));
        Process second;
        int readings = 3_300;
        try (OutputStream w = Files.newOutputStream(fifo)) {
            writeReadings(w, 0, 400);
            awaitAccepted("op1.jsonl", 400);
            first.destroyForcibly(); // kill -9
            first.waitFor(30, TimeUnit.SECONDS);
            // The sensor hands over after 1,016, 2,032 and 3,048 readings, while no operator runs.
            writeReadings(w, 400, 3_200);
            await(
                    "sensor",
                    sensor,
                    out -> out.lines().filter(l -> l.contains(" sign=")).count() >= 3_200);
            second = startOperator("op2", "op2.jsonl", port);
            await("op2", second, out -> out.contains("subscribed to"));
            writeReadings(w, 3_200, readings);
            // The sensor stops at the end of its input: keep it open until the backfill is through.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (countAccepted("op1.jsonl") + countAccepted("op2.jsonl") < readings
                    && System.nanoTime() < deadline
                    && second.isAlive()) {
                Thread.sleep(200);
            }
        }
        assertTrue(sensor.waitFor(300, TimeUnit.SECONDS), describe("sensor"));
        second.destroy();
        assertTrue(second.waitFor(60, TimeUnit.SECONDS), describe("op2"));
        assertEquals(0, second.exitValue(), describe("op2"));
        Map<String, List<Long>> acceptedByKey = new LinkedHashMap<>();
        List<Long> followed = new ArrayList<>();
        StringBuilder both = new StringBuilder();
        for (String file : List.of("op1.jsonl", "op2.jsonl")) {
            for (String line : Files.readAllLines(dir.resolve(file))) {
                both.append(line).append('\n');
                JsonNode o = JSON.readTree(line);
                if ("HANDOVER".equals(o.path("event").asText())) {
                    assertEquals("FOLLOWED", o.get("outcome").asText(), file + ": " + line);
                    followed.add(o.get("generation").asLong());
                } else if ("ACCEPTED".equals(o.path("verdict").asText())) {
                    acceptedByKey
                            .computeIfAbsent(o.get("key_id").asText(), k -> new ArrayList<>())
                            .add(o.get("index").asLong());
                } else if (o.has("verdict")) {
                    assertTrue("DUPLICATE".equals(o.get("verdict").asText()), file + ": " + line);
                }
            }
        }
        assertEquals(List.of(1L, 2L, 3L), followed, "the restarted operator followed the three handovers in order");
        assertEquals(4, acceptedByKey.size());
        long total = 0;
        for (List<Long> indices : acceptedByKey.values()) {
            List<Long> sorted = indices.stream().sorted().toList();
            for (int i = 0; i < sorted.size(); i++) {
                assertEquals(i, sorted.get(i), "every index of every key exactly once across both runs");
            }
            total += sorted.size();
        }
        assertEquals(readings, total);
        Files.writeString(dir.resolve("both.jsonl"), both);
        CliRunner.Result audit =
                CliRunner.run("audit", "--pub", p("k/key.pub"), "--params", keyParams, "--jsonl", p("both.jsonl"));
        assertEquals(0, audit.exit(), audit.out() + audit.err());
        assertTrue(audit.out().contains(readings + " readings verified"), audit.out());
        assertTrue(audit.out().contains("3 key handovers followed"), audit.out());
    }

    /**
     * The operator is killed, and stays away while the sensor signs far more than its history keeps
     * (300 readings) and rolls over twice: generation 0's tail, all of generation 1 and generation
     * 2's head are gone from the sensor. The restarted operator follows both handovers from the
     * sensor's handover list, and every index of every generation is ACCEPTED once or inside one
     * GAP (none twice), live and in {@code pqsign audit} (issue 31, item 10).
     */
    @Test
    @Timeout(600)
    void operatorAwayLongerThanTheHistoryAcrossTwoRollovers_everyIndexAcceptedOrInAGap() throws Exception {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", keyParams, "--out", p("k")).exit());
        Path fifo = dir.resolve("readings.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        int port = freePort();
        Process sensor = startSensor(fifo, port, "--rollover-at", "100", "--history", "300");
        await("sensor", sensor, out -> out.contains("endpoint"));
        Process first = startOperator("op1", "op1.jsonl", port);
        await("op1", first, out -> out.contains("subscribed to"));
        Process second;
        int readings = 2_700;
        try (OutputStream w = Files.newOutputStream(fifo)) {
            writeReadings(w, 0, 400);
            awaitAccepted("op1.jsonl", 400);
            first.destroyForcibly(); // kill -9
            first.waitFor(30, TimeUnit.SECONDS);
            writeReadings(w, 400, 2_600); // handovers after 1,016 and 2,032 readings
            await(
                    "sensor",
                    sensor,
                    out -> out.lines().filter(l -> l.contains(" sign=")).count() >= 2_600);
            second = startOperator("op2", "op2.jsonl", port);
            await("op2", second, out -> out.contains("subscribed to"));
            writeReadings(w, 2_600, readings);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
            while (!Files.readString(dir.resolve("op2.jsonl")).contains("reading-" + (readings - 1) + "\"")
                    && System.nanoTime() < deadline
                    && second.isAlive()) {
                Thread.sleep(200);
            }
        }
        assertTrue(sensor.waitFor(300, TimeUnit.SECONDS), describe("sensor"));
        second.destroy();
        assertTrue(second.waitFor(60, TimeUnit.SECONDS), describe("op2"));
        assertEquals(1, second.exitValue(), "readings were lost: exit 1; " + describe("op2"));

        Map<String, java.util.TreeSet<Long>> seen = new LinkedHashMap<>();
        long accepted = 0;
        long missing = 0;
        int followed = 0;
        StringBuilder both = new StringBuilder();
        for (String file : List.of("op1.jsonl", "op2.jsonl")) {
            for (String line : Files.readAllLines(dir.resolve(file))) {
                both.append(line).append('\n');
                JsonNode o = JSON.readTree(line);
                String verdict = o.path("verdict").asText();
                if ("HANDOVER".equals(o.path("event").asText())) {
                    assertEquals("FOLLOWED", o.get("outcome").asText(), file + ": " + line);
                    followed++;
                    continue;
                }
                if (!"ACCEPTED".equals(verdict) && !"GAP".equals(verdict)) {
                    assertTrue(!o.has("verdict") || "DUPLICATE".equals(verdict), file + ": " + line);
                    continue;
                }
                java.util.TreeSet<Long> indices =
                        seen.computeIfAbsent(o.get("key_id").asText(), k -> new java.util.TreeSet<>());
                if ("ACCEPTED".equals(verdict)) {
                    assertTrue(indices.add(o.get("index").asLong()), "accepted twice or inside a gap: " + line);
                    accepted++;
                } else if ("GAP".equals(verdict)) {
                    for (long i = o.get("from_index").asLong();
                            i <= o.get("to_index").asLong();
                            i++) {
                        assertTrue(indices.add(i), "index " + i + " both reported missing and accepted: " + line);
                        missing++;
                    }
                }
            }
        }
        assertEquals(2, followed, both.toString());
        assertEquals(
                3,
                seen.size(),
                "three generations: " + seen.keySet() + "\n"
                        + both.toString()
                                .lines()
                                .filter(l -> !l.contains("\"ACCEPTED\""))
                                .map(l -> l.length() > 400 ? l.substring(0, 400) : l)
                                .collect(java.util.stream.Collectors.joining("\n")));
        long total = 0;
        for (java.util.TreeSet<Long> indices : seen.values()) {
            assertEquals(0, indices.first(), "every generation's sequence starts at index 0");
            assertEquals(indices.size() - 1, indices.last(), "no index neither accepted nor in a gap");
            total += indices.size();
        }
        // Each retired generation also used one index for its handover statement, which is no reading.
        assertEquals(readings, total);
        assertTrue(missing > 1_016, "all of generation 1 is among the missing: " + missing);
        Files.writeString(dir.resolve("both.jsonl"), both);
        CliRunner.Result audit =
                CliRunner.run("audit", "--pub", p("k/key.pub"), "--params", keyParams, "--jsonl", p("both.jsonl"));
        assertEquals(1, audit.exit(), audit.out() + audit.err());
        assertTrue(audit.out().contains(accepted + " readings verified"), audit.out());
        assertTrue(audit.out().contains(missing + " missing"), audit.out());
        assertTrue(audit.out().contains("2 key handovers followed"), audit.out());
    }

    /** An operator of the sensor ({@link #operatorKey}, else its first key pinned), JSON Lines to {@code jsonl}, data in "op". */
    private Process startOperator(String name, String jsonl, int port) throws IOException {
        List<String> args = new ArrayList<>(List.of("operator", "--port", Integer.toString(port)));
        args.addAll(operatorKey != null ? operatorKey : List.of("--pub", p("k/key.pub")));
        args.addAll(List.of(
                "--jsonl", p(jsonl), "--connect-timeout", "120", "--publishing-ms", "2", "--data-dir", p("op")));
        return pqsign(name, args.toArray(String[]::new));
    }

    /** The sensor of the key directory "k", reading from {@code fifo}, with {@code more} options. */
    private Process startSensor(Path fifo, int port, String... more) throws IOException {
        List<String> args = new ArrayList<>(List.of(
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                Integer.toString(port),
                "--source",
                fifo.toString(),
                "--batch",
                "8",
                "--data-dir",
                p("sensor-data")));
        args.addAll(sensorExtra);
        args.addAll(List.of(more));
        return pqsign("sensor", args.toArray(String[]::new));
    }

    /** Writes readings {@code from} … {@code to - 1} as CSV lines, e.g. {@code 1500.00,reading-0}. */
    static void writeReadings(OutputStream w, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            w.write(String.format("%d.%02d,reading-%d%n", 1500 + i % 7, i % 100, i)
                    .getBytes(StandardCharsets.US_ASCII));
        }
        w.flush();
    }

    private void awaitAccepted(String file, long n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (countAccepted(file) < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(file + ": only " + countAccepted(file) + " of " + n + " accepted");
            }
            Thread.sleep(100);
        }
    }

    private long countAccepted() throws IOException {
        return countAccepted("verdicts.jsonl");
    }

    private long countAccepted(String name) throws IOException {
        Path f = dir.resolve(name);
        if (!Files.exists(f)) {
            return 0;
        }
        try (var lines = Files.lines(f)) {
            return lines.filter(l -> l.contains("\"verdict\":\"ACCEPTED\"")).count();
        }
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private static int freePort() throws IOException {
        return ChildProcesses.freePort();
    }

    private Process pqsign(String name, String... args) throws IOException {
        return processes.pqsign(name, args);
    }

    private String describe(String name) throws IOException {
        return processes.describe(name);
    }

    private void await(String name, Process proc, Predicate<String> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (condition.test(Files.readString(dir.resolve(name + ".out")))) {
                return;
            }
            if (!proc.isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("condition not reached; " + describe(name));
    }
}
