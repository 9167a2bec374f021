package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.opcua.gateway.GatewayClient;
import dev.pqsign.opcua.gateway.GatewayNodes;
import dev.pqsign.opcua.upstream.PlcServer;
import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamText;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32's plant path with real parts on loopback: a PLC stand-in (a Milo server in this JVM,
 * {@link PlcServer}) → {@code pqsign sensor --source opcua:…} (a child JVM) → {@code pqsign
 * operator --serve} (a child JVM) → a SCADA-like OPC UA client ({@link GatewayClient}). Every PLC
 * value reaches the client Good with the PLC's source time; a value forged in transit never does;
 * a PLC restart and a SIGKILL of the sensor are stated in the signed stream, nothing is lost
 * without a statement and no index is used twice.
 */
class UpstreamPlantProcessTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";
    private static final String SPEED = "Motor.Speed";
    private static final Pattern SERVING = Pattern.compile("serving (opc\\.tcp://\\S+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Kept when a test fails: the children's output and the operator's JSON Lines. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private ChildProcesses processes;
    private PlcServer plc;

    @BeforeEach
    void processes() {
        processes = new ChildProcesses(dir);
    }

    @AfterEach
    void stop() throws IOException {
        processes.killAll();
        if (plc != null) {
            plc.close();
        }
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private String source() {
        return "opcua:" + plc.url() + "?node=" + plc.node(SPEED);
    }

    private Process sensor(String name, int port) throws IOException {
        return processes.pqsign(
                name,
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                Integer.toString(port),
                "--no-rollover",
                "--data-dir",
                p("sensor-data"),
                "--source",
                source());
    }

    private void keygen() {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
    }

    /** The PLC's value {@code v} with source time {@code t}: every change goes to the sensor at once. */
    private void plcSets(Object v, Instant t) {
        plc.set(SPEED, PlcServer.good(v, new DateTime(t)));
    }

    @Test
    @Timeout(240)
    void plcValues_reachAScadaClientGoodInOrderWithTheirSourceTimes_aValueForgedInTransitNever() throws Exception {
        keygen();
        plc = new PlcServer(dir.resolve("plc"), true);
        Instant t0 = Instant.parse("2026-12-03T10:00:00.000000100Z");
        plc.add(SPEED, NodeIds.Double, PlcServer.good(1000.0, new DateTime(t0)));
        Process sensor = sensor("sensor", 0);
        String sensorUrl = processes.endpoint("sensor", sensor);
        int sensorPort = URI.create(sensorUrl).getPort();
        // A man in the middle on the unsecured sensor → operator hop changes 4242.5 into 4292.5.
        try (TamperingRelay relay = new TamperingRelay(sensorPort, "value=424", '9')) {
            String url = sensorUrl.replace(":" + sensorPort + "/", ":" + relay.port() + "/");
            Process operator = processes.pqsign(
                    "operator",
                    "operator",
                    "--url",
                    url,
                    "--pub",
                    p("k/key.pub"),
                    "--params",
                    SET,
                    "--publishing-ms",
                    "2",
                    "--data-dir",
                    p("op"),
                    "--jsonl",
                    p("op.jsonl"),
                    "--serve",
                    Integer.toString(ChildProcesses.freePort()));
            Matcher m = SERVING.matcher(processes.await(
                    "operator", operator, out -> SERVING.matcher(out).find()));
            assertTrue(m.find());
            try (GatewayClient scada = new GatewayClient(m.group(1))) {
                BlockingQueue<DataValue> reading = scada.subscribe(scada.id(url, GatewayNodes.READING));
                Set<String> seen = new HashSet<>();
                // the PLC's value at the start: the sensor is subscribed, the path works
                Served first = collect(reading, 1000.0, seen, describe("sensor", "operator"));
                assertEquals(UpstreamTime.of(t0).ticks(), first.sourceTimes.get(0));
                List<Double> expected = new ArrayList<>();
                List<Instant> times = new ArrayList<>();
                for (int i = 1; i <= 30; i++) {
                    Instant t = t0.plusMillis(i).plusNanos(i * 100L);
                    double v = i == 15 ? 4242.5 : 1000 + i * 0.25;
                    plcSets(v, t);
                    if (i != 15) {
                        expected.add(v);
                        times.add(t);
                    }
                }
                Served served = collect(reading, 1000 + 30 * 0.25, seen, describe("sensor", "operator"));
                assertEquals(expected, served.values, "every PLC value, Good, in order; the forged one not");
                for (int i = 0; i < times.size(); i++) {
                    assertEquals(UpstreamTime.of(times.get(i)).ticks(), served.sourceTimes.get(i), "source time " + i);
                }
                assertTrue(relay.changed() >= 1, "the relay forged the reading");
                assertFalse(served.texts.stream().anyMatch(t -> t.contains("4292.5")), "never served");
                assertTrue(
                        served.uncertainAfter.contains(1000 + 14 * 0.25),
                        "the last good value turned Uncertain_LastUsableValue after the rejection: "
                                + served.uncertainAfter);
                assertEquals(1L, GatewayClient.value(scada.read(scada.id(url, GatewayNodes.COUNT_REJECTED))));
                assertEquals(1000 + 30 * 0.25, GatewayClient.value(scada.read(scada.id(url, GatewayNodes.VALUE))));
            }
            List<JsonNode> rejected =
                    verdicts("op.jsonl", n -> !n.get("verdict").asText().equals("ACCEPTED"));
            assertEquals(1, rejected.size(), rejected.toString());
            assertEquals("BAD_SIGNATURE", rejected.get(0).get("reason").asText());
            assertTrue(rejected.get(0).get("reading").asText().contains("value=4292.5"));
            operator.destroy();
            assertTrue(operator.waitFor(60, TimeUnit.SECONDS), processes.describe("operator"));
        }
        sensor.destroy();
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor"));
    }

    @Test
    @Timeout(300)
    void plcRestartAndSensorKill_areStatedInTheSignedStream_nothingLostSilently_noIndexUsedTwice() throws Exception {
        keygen();
        int plcPort = ChildProcesses.freePort();
        plc = new PlcServer(dir.resolve("plc"), true, plcPort);
        Instant t0 = Instant.parse("2026-12-03T11:00:00Z");
        plc.add(SPEED, NodeIds.Int32, PlcServer.good(0, new DateTime(t0)));
        int sensorPort = ChildProcesses.freePort();
        Process sensor1 = sensor("sensor1", sensorPort);
        String url = processes.endpoint("sensor1", sensor1);
        Process operator = processes.pqsign(
                "operator",
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--publishing-ms",
                "2",
                "--data-dir",
                p("op"),
                "--jsonl",
                p("op.jsonl"));
        awaitAccepted(value(0)); // subscribed: from now on every change reaches the sensor
        for (int i = 1; i <= 5; i++) {
            plcSets(i, t0.plusSeconds(i));
        }
        awaitAccepted(value(5));

        plc.close(); // the PLC goes away and comes back on the same port
        awaitAccepted(t -> t.startsWith(UpstreamText.PREFIX + "down "));
        plc = new PlcServer(dir.resolve("plc"), true, plcPort);
        plc.add(SPEED, NodeIds.Int32, PlcServer.good(100, new DateTime(t0.plusSeconds(100))));
        awaitAccepted(value(100));
        for (int i = 101; i <= 103; i++) {
            plcSets(i, t0.plusSeconds(i));
        }
        awaitAccepted(value(103));

        sensor1.destroyForcibly(); // SIGKILL while the upstream is connected
        assertTrue(sensor1.waitFor(30, TimeUnit.SECONDS));
        plcSets(200, t0.plusSeconds(200)); // while no sensor runs: no one can sign it
        plcSets(201, t0.plusSeconds(201));
        Process sensor2 = sensor("sensor2", sensorPort);
        awaitAccepted(value(201)); // the value the PLC holds when the sensor subscribes again
        plcSets(202, t0.plusSeconds(202));
        awaitAccepted(value(202));
        operator.destroy();
        assertTrue(operator.waitFor(60, TimeUnit.SECONDS), processes.describe("operator"));
        sensor2.destroy();
        assertTrue(sensor2.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor2"));

        List<JsonNode> all = verdicts("op.jsonl", n -> true);
        String report = report(all);
        assertTrue(
                all.stream()
                        .noneMatch(n -> n.get("verdict").asText().equals("REJECTED")
                                || n.get("verdict").asText().equals("INDEX_REUSE")
                                || n.get("verdict").asText().equals("GAP")),
                report);
        // every index of the key: accepted once, or declared skipped by the restarted sensor
        List<Long> accepted = new ArrayList<>();
        List<long[]> skipped = new ArrayList<>();
        List<UpstreamEvent> facts = new ArrayList<>();
        for (JsonNode n : all) {
            switch (n.get("verdict").asText()) {
                case "ACCEPTED" -> {
                    accepted.add(n.get("index").asLong());
                    String text = n.get("reading").asText();
                    if (UpstreamText.isUpstream(text)) {
                        facts.add(UpstreamText.parse(text));
                    }
                }
                case "SKIPPED" ->
                    skipped.add(new long[] {
                        n.get("from_index").asLong(), n.get("to_index").asLong()
                    });
                default -> {}
            }
        }
        long next = 0;
        int s = 0;
        for (long index : accepted) {
            while (next < index && s < skipped.size() && skipped.get(s)[0] == next) {
                next = skipped.get(s++)[1] + 1;
            }
            assertEquals(next, index, "index " + next + " neither accepted nor skipped\n" + report);
            next = index + 1;
        }

        // Every value the PLC had while a sensor ran, in order. After each up the node's current
        // value is signed again (the format says so): a repeat of the same change, not a new one.
        Set<String> distinct = new HashSet<>();
        List<Long> values = new ArrayList<>();
        for (UpstreamEvent e : facts) {
            if (e instanceof UpstreamValue v && distinct.add(v.text())) {
                assertTrue(v.status().isGood(), v.text());
                values.add(Long.parseLong(v.value()));
            }
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 100L, 101L, 102L, 103L, 201L, 202L), values, report);
        // The outage: a down after the last value before it, then an up naming that down, before
        // the PLC's value after its restart.
        int up = lastBefore(facts, indexOfValue(facts, 100), UpstreamUp.class);
        int down = lastBefore(facts, up, UpstreamDown.class);
        assertTrue(down > indexOfValue(facts, 5), report);
        assertEquals(((UpstreamDown) facts.get(down)).since(), ((UpstreamUp) facts.get(up)).downSince(), report);
        // The sensor's restart: an up of a new run (down-since -) before the PLC's current value;
        // the changes the PLC made while no sensor ran (200) are not known, and the stream says so.
        int restarted = lastBefore(facts, indexOfValue(facts, 201), UpstreamUp.class);
        assertNull(((UpstreamUp) facts.get(restarted)).downSince(), report);
        assertTrue(restarted > indexOfValue(facts, 103), report);
    }

    private static Predicate<String> value(long v) {
        return t -> t.startsWith(UpstreamText.PREFIX + "value ") && t.contains(" value=" + v + " ");
    }

    private static int indexOf(List<UpstreamEvent> facts, Predicate<UpstreamEvent> p) {
        for (int i = 0; i < facts.size(); i++) {
            if (p.test(facts.get(i))) {
                return i;
            }
        }
        throw new AssertionError("no such fact in " + facts);
    }

    private static int indexOfValue(List<UpstreamEvent> facts, long v) {
        return indexOf(facts, e -> e instanceof UpstreamValue u && u.value().equals(Long.toString(v)));
    }

    /** The position of the last fact of {@code kind} before position {@code end}. */
    private static int lastBefore(List<UpstreamEvent> facts, int end, Class<? extends UpstreamEvent> kind) {
        for (int i = end - 1; i >= 0; i--) {
            if (kind.isInstance(facts.get(i))) {
                return i;
            }
        }
        throw new AssertionError("no " + kind.getSimpleName() + " before fact " + end + " in " + facts);
    }

    /** What the SCADA client saw of {@code reading}: the Good values in order, and what turned uncertain. */
    private record Served(
            List<Double> values, List<Long> sourceTimes, List<String> texts, List<Double> uncertainAfter) {}

    /**
     * Takes notifications until the reading of value {@code last} is Good; a Good text in
     * {@code seen} (a status change repeats the value) is not taken again.
     */
    private static Served collect(
            BlockingQueue<DataValue> q, double last, Set<String> seen, ChildProcesses.Text describe) throws Exception {
        Served s = new Served(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        long deadline = System.nanoTime() + ChildProcesses.AWAIT.toNanos();
        while (System.nanoTime() < deadline) {
            DataValue d = q.poll(100, TimeUnit.MILLISECONDS);
            if (d == null || !(GatewayClient.value(d) instanceof String text)) {
                continue;
            }
            double v = Double.parseDouble(((UpstreamValue) UpstreamText.parse(text)).value());
            if (d.statusCode().value() == StatusCodes.Uncertain_LastUsableValue) {
                s.uncertainAfter.add(v);
            }
            if (d.statusCode().isGood() && seen.add(text)) {
                s.values.add(v);
                s.sourceTimes.add(d.sourceTime().getUtcTime());
                s.texts.add(text);
                if (v == last) {
                    return s;
                }
            }
        }
        throw new AssertionError("value " + last + " not served Good; seen " + s + "\n" + describe.read());
    }

    private ChildProcesses.Text describe(String... children) {
        return () -> {
            StringBuilder sb = new StringBuilder("files kept in ").append(dir).append('\n');
            for (String c : children) {
                if (Files.exists(dir.resolve(c + ".err"))) {
                    sb.append(processes.describe(c)).append('\n');
                }
            }
            return sb.toString();
        };
    }

    /** Waits until the operator wrote an ACCEPTED verdict whose reading matches. */
    private void awaitAccepted(Predicate<String> reading) throws Exception {
        long deadline = System.nanoTime() + ChildProcesses.AWAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!verdicts(
                            "op.jsonl",
                            n -> n.get("verdict").asText().equals("ACCEPTED")
                                    && reading.test(n.get("reading").asText()))
                    .isEmpty()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no such reading accepted\n" + report(verdicts("op.jsonl", n -> true))
                + describe("sensor1", "sensor2", "operator").read());
    }

    /** The complete lines of the operator's JSON Lines that match. */
    private List<JsonNode> verdicts(String file, Predicate<JsonNode> match) throws IOException {
        Path f = dir.resolve(file);
        List<JsonNode> list = new ArrayList<>();
        if (!Files.exists(f)) {
            return list;
        }
        String text = Files.readString(f);
        for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
            if (!line.isEmpty()) {
                JsonNode n = JSON.readTree(line);
                if (match.test(n)) {
                    list.add(n);
                }
            }
        }
        return list;
    }

    private static String report(List<JsonNode> verdicts) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode n : verdicts) {
            sb.append(n.get("index"))
                    .append(' ')
                    .append(n.get("verdict").asText())
                    .append(n.has("from_index") ? " " + n.get("from_index") + ".." + n.get("to_index") : "")
                    .append(' ')
                    .append(n.get("reading"))
                    .append('\n');
        }
        return sb.toString();
    }
}
