package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.FaultInjector;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pqsign sensor} and {@code pqsign operator} against each other over loopback (free port),
 * with a real XMSS^MT key, a wrong key, a certificate chain, and bad options.
 */
class SensorOperatorCliTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";

    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    @BeforeEach
    void keys() {
        for (String k : new String[] {"k", "other"}) {
            var r = CliRunner.run("keygen", "--params", SET, "--out", p(k));
            assertEquals(0, r.exit(), r.toString());
        }
    }

    /** A sensor running in a thread of this JVM, its stdout readable while it runs. */
    private static final class RunningSensor {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> exit;

        RunningSensor(String... args) {
            var cl = PqsignCli.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
        }

        String endpoint() throws Exception {
            return ChildProcesses.endpoint(out::toString, this::running, this::describe);
        }

        /** Waits until the output satisfies {@code condition}; fails with the output if the command ends first. */
        void await(Predicate<String> condition) throws Exception {
            ChildProcesses.await(out::toString, this::running, condition, this::describe);
        }

        private boolean running() {
            return !exit.isDone();
        }

        private String describe() {
            return "stdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private static List<String> lines(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    @Test
    @Timeout(180)
    void sensorAndOperators_acceptPinnedKeyAndCertificate_rejectWrongKey_keyStateIntact() throws Exception {
        // A certificate chain for the sensor key: root (XMSS) -> sensor (XMSS^MT 20/4).
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", p("root"))
                        .exit());
        assertEquals(
                0,
                CliRunner.run(
                                "cert",
                                "self-signed",
                                "--key",
                                p("root/key.state"),
                                "--subject",
                                "CN=Root",
                                "--days",
                                "30",
                                "--out",
                                p("root.pem"))
                        .exit());
        var r = CliRunner.run(
                "cert",
                "issue",
                "--ca-key",
                p("root/key.state"),
                "--ca-cert",
                p("root.pem"),
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--subject",
                "CN=sensor-1",
                "--days",
                "10",
                "--out",
                p("sensor.pem"));
        assertEquals(0, r.exit(), r.toString());

        RunningSensor sensor = new RunningSensor(
                "sensor",
                "--key",
                p("k/key.state"),
                "--cert",
                p("sensor.pem"),
                "--port",
                "0",
                "--rate",
                "2",
                "--readings",
                "20",
                "--data-dir",
                p("sensor-data"));
        String url = sensor.endpoint();
        assertTrue(url.startsWith("opc.tcp://127.0.0.1:"), url);

        var good = CompletableFuture.supplyAsync(() -> CliRunner.run(
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--readings",
                "10",
                "--data-dir",
                p("op-good")));
        var wrong = CompletableFuture.supplyAsync(() -> CliRunner.run(
                "operator",
                "--url",
                url,
                "--pub",
                p("other/key.pub"),
                "--params",
                SET,
                "--readings",
                "2",
                "--data-dir",
                p("op-wrong")));
        var certified = CompletableFuture.supplyAsync(() -> CliRunner.run(
                "operator",
                "--url",
                url,
                "--cert",
                p("sensor.pem"),
                "--trust",
                p("root.pem"),
                "--readings",
                "3",
                "--data-dir",
                p("op-cert")));

        var g = good.get(120, TimeUnit.SECONDS);
        assertEquals(0, g.exit(), g.toString());
        List<String> accepted = lines(g.out(), "ACCEPTED index=");
        assertEquals(10, accepted.size(), g.toString());
        assertTrue(lines(g.out(), "REJECTED").isEmpty(), g.toString());
        // e2e is "-" for a reading that came from the sensor's history (the operator connected late)
        for (String l : accepted) {
            assertTrue(l.matches("ACCEPTED index=\\d+ verify=[0-9.]+ms e2e=([0-9.]+ms|-) 1\\d{3}\\.\\d\\d,\\S+Z"), l);
        }
        assertTrue(accepted.stream().anyMatch(l -> l.contains("ms e2e=") && !l.contains("e2e=-")), g.toString());
        long previous = -1;
        for (String l : accepted) {
            long index = Long.parseLong(l.replaceAll("^ACCEPTED index=(\\d+) .*$", "$1"));
            assertTrue(index > previous && index < 20, g.toString());
            previous = index;
        }
        assertTrue(g.out().contains("summary: 10 readings, ACCEPTED 10, BAD_SIGNATURE 0"), g.out());
        assertTrue(
                Files.size(dir.resolve("op-good/replay")
                                .resolve(dev.pqsign.telemetry.operator.ReplayGuard.MARK_FILE_NAME))
                        > dev.pqsign.telemetry.internal.MarkFile.HEADER_BYTES,
                "the pinned key's mark is in the operator's mark file");

        var w = wrong.get(120, TimeUnit.SECONDS);
        assertEquals(1, w.exit(), w.toString());
        assertEquals(2, lines(w.out(), "REJECTED(UNKNOWN_KEY) index=").size(), w.toString());
        assertTrue(lines(w.out(), "ACCEPTED").isEmpty(), w.toString());
        assertTrue(w.out().contains("ACCEPTED 0") && w.out().contains("UNKNOWN_KEY 2"), w.out());

        var c = certified.get(120, TimeUnit.SECONDS);
        assertEquals(0, c.exit(), c.toString());
        assertEquals(3, lines(c.out(), "ACCEPTED index=").size(), c.toString());

        assertEquals(0, sensor.exit.get(120, TimeUnit.SECONDS), sensor.err.toString());
        String s = sensor.out.toString();
        assertEquals(20, lines(s, "index=").size(), s);
        assertTrue(s.contains("index=0 sign=") && s.contains("index=19 sign="), s);
        assertTrue(s.contains("sensor stopped (20 readings): 20 readings published, last index 19"), s);

        // The key state on disk is exactly what was used: the next run continues at index 20.
        r = CliRunner.run("inspect", p("k/key.state"));
        assertTrue(r.out().contains("next 20,"), r.out());
        RunningSensor again = new RunningSensor(
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--rate",
                "0",
                "--readings",
                "2",
                "--data-dir",
                p("sensor-data"));
        assertEquals(0, again.exit.get(120, TimeUnit.SECONDS), again.err.toString());
        assertTrue(
                again.out.toString().contains("index=20 sign=")
                        && again.out.toString().contains("index=21 sign="),
                again.out.toString());
    }

    @Test
    @Timeout(180)
    void haetaeSensor_withSummaryOutput_indicesFromCounterFile_continueAfterRestart() throws Exception {
        var r = CliRunner.run("keygen", "--params", "HAETAE-2", "--out", p("h"));
        assertEquals(0, r.exit(), r.toString());
        RunningSensor sensor = new RunningSensor(
                "sensor",
                "--key",
                p("h/key.sk"),
                "--port",
                "0",
                "--rate",
                "5",
                "--readings",
                "15",
                "--summary",
                "--data-dir",
                p("sensor-data"));
        String url = sensor.endpoint();
        // No --params: a HAETAE public key is recognised by its length.
        r = CliRunner.run("operator", "--url", url, "--pub", p("h/key.pub"), "--readings", "3", "--data-dir", p("op"));
        assertEquals(0, r.exit(), r.toString());
        assertEquals(3, lines(r.out(), "ACCEPTED index=").size(), r.toString());
        assertTrue(r.out().contains("pinned HAETAE-2 key"), r.out());

        assertEquals(0, sensor.exit.get(120, TimeUnit.SECONDS), sensor.err.toString());
        String s = sensor.out.toString();
        assertTrue(lines(s, "index=").isEmpty(), s); // --summary: no line per reading
        assertTrue(
                lines(s, "").stream().anyMatch(l -> l.matches("\\d+ readings published, last index \\d+, sign avg .*")),
                s);
        assertTrue(s.contains("sensor stopped (15 readings): 15 readings published, last index 14"), s);
        assertTrue(Files.isRegularFile(dir.resolve("h/key.sk.counter")));

        RunningSensor again = new RunningSensor(
                "sensor",
                "--key",
                p("h/key.sk"),
                "--port",
                "0",
                "--rate",
                "0",
                "--readings",
                "1",
                "--data-dir",
                p("sensor-data"));
        assertEquals(0, again.exit.get(120, TimeUnit.SECONDS), again.err.toString());
        assertTrue(
                again.out.toString().contains("next index 15")
                        && again.out.toString().contains("index=15 sign="),
                again.out.toString());
    }

    @Test
    @Timeout(180)
    void operator_reportsTamperedReplayedDuplicateAndGap_jsonl_exit1() throws Exception {
        // A sensor driven directly (pqsign-opcua) through a fault injector, so that it can publish
        // tampered, replayed and repeated readings.
        try (TelemetryKeys.OpenSensorKey key = TelemetryKeys.openSensorKey(
                dir.resolve("k/key.state"), null, SensorSigningOptions.of(1, false, false), 10)) {
            FaultInjector faults = new FaultInjector(key.sensorKey);
            try (dev.pqsign.opcua.SensorServer sensor = dev.pqsign.opcua.SensorServer.start(
                    dev.pqsign.opcua.SensorServer.Config.loopback(
                            "s", dir.resolve("sensor-data"), dev.pqsign.opcua.TransportSecurity.NONE),
                    faults.key())) {
                injectFaults(key, faults, sensor);
            }
        }
    }

    /** Tampered, replayed and repeated readings from {@code sensor}: the operator reports each, exit 1. */
    private void injectFaults(
            TelemetryKeys.OpenSensorKey key, FaultInjector faults, dev.pqsign.opcua.SensorServer sensor)
            throws Exception {
        var first = sensor.publish("1500.00,2026-11-30T01:00:00.000000000Z");
        RunningSensor operator = new RunningSensor(
                "operator",
                "--url",
                sensor.endpointUrl(),
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--readings",
                "5",
                "--publishing-ms",
                "2",
                "--data-dir",
                p("op"),
                "--jsonl",
                p("verdicts.jsonl"));
        awaitLines(operator, "ACCEPTED index=0 ", 1);
        // Index 1 is signed but never published: lost on the way.
        var unpublished = new dev.pqsign.telemetry.ReadingSigner(key.sensorKey.signer())
                .sign("1500.01,2026-11-30T01:00:01.000000000Z");
        assertEquals(1, unpublished.index());
        faults.tampered("1500.02,2026-11-30T01:00:02.000000000Z", sensor::publish);
        awaitLines(operator, "REJECTED(BAD_SIGNATURE) index=2 ", 1);
        sensor.publish("1500.03,2026-11-30T01:00:03.000000000Z");
        awaitLines(operator, "ACCEPTED index=3 ", 1);
        faults.signed(unpublished, sensor::publish); // never accepted, older than the last accepted: a replay
        awaitLines(operator, "REJECTED(REPLAYED) index=1 ", 1);
        faults.signed(first.reading(), sensor::publish); // the same reading again: informational
        assertEquals(1, operator.exit.get(120, TimeUnit.SECONDS), operator.out + "\n" + operator.err);
        String out = operator.out.toString();
        assertEquals(List.of("GAP from=1 to=1 missing=1"), lines(out, "GAP "), out);
        assertEquals(1, lines(out, "DUPLICATE index=0 ").size(), out);
        assertTrue(out.contains("summary: 5 readings, ACCEPTED 2, BAD_SIGNATURE 1, REPLAYED 1, MALFORMED 0"), out);
        assertTrue(
                out.contains(
                        "DUPLICATE 1, INDEX_REUSE 0, GAP 1, RETIRED_KEY 0, HANDOVER 0, HANDOVER_REJECTED 0, SKIPPED 0 (1 missing)"),
                out);
        List<String> json = Files.readAllLines(dir.resolve("verdicts.jsonl"));
        List<String> verdicts = json.stream()
                .map(l -> l.replaceAll(".*\"verdict\":\"([A-Z_]+)\".*", "$1"))
                .toList();
        assertEquals(
                List.of("ACCEPTED", "REJECTED", "GAP", "ACCEPTED", "REJECTED", "DUPLICATE"), verdicts, json.toString());
        assertTrue(json.get(2).contains("\"from_index\":1,\"to_index\":1"), json.get(2));
        assertTrue(json.get(0).contains("\"reason\":null"), json.get(0));
    }

    private static void awaitLines(RunningSensor run, String prefix, int n) throws Exception {
        run.await(out -> lines(out, prefix).size() >= n);
    }

    @Test
    void badOptions_exit2_withOneLineErrors() throws Exception {
        String url = "opc.tcp://127.0.0.1:1/pqsign";
        Files.writeString(dir.resolve("junk.state"), "not a key");
        String[][] oneLine = {
            {"sensor", "--key", p("missing/key.state")},
            {"sensor", "--key", p("junk.state")},
            {"sensor", "--key", p("k/key.state"), "--security", "tls"},
            {"sensor", "--key", p("k/key.state"), "--source", "stdin", "--rate", "5"},
            {"sensor", "--key", p("k/key.state"), "--source", p("no-such-pipe")},
            {"sensor", "--key", p("k/key.state"), "--readings", "-1"},
            {"sensor", "--key", p("k/key.state"), "--port", "70000"},
            {"sensor", "--key", p("k/key.state"), "--cert", p("other/key.pub")},
            {"sensor", "--key", p("k/key.state"), "--trust-client", p("k/key.pub")},
            {"operator", "--url", url, "--pub", p("k/key.pub")},
            {"operator", "--url", url},
            {"operator", "--url", url, "--pub", p("k/key.pub"), "--cert", p("k/key.pub")},
            {"operator", "--url", url, "--cert", p("k/key.pub")},
            {"operator", "--url", "http://127.0.0.1/", "--pub", p("k/key.pub"), "--params", SET},
            {"operator", "--url", url, "--port", "4840", "--pub", p("k/key.pub"), "--params", SET},
            {"operator", "--url", url, "--pub", p("missing.pub")},
            {"operator", "--url", url, "--pub", p("k/key.pub"), "--params", "XMSS-NOPE"},
            {"operator", "--url", url, "--pub", p("k/key.pub"), "--params", SET, "--publishing-ms", "0"},
            {"operator", "--url", url, "--pub", p("k/key.pub"), "--params", SET, "--security", "tls"},
        };
        for (String[] args : oneLine) {
            var r = CliRunner.run(args);
            assertEquals(2, r.exit(), String.join(" ", args) + "\n" + r);
            assertEquals(1, r.err().strip().lines().count(), String.join(" ", args) + "\n" + r);
            assertTrue(r.err().startsWith("pqsign: "), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
        var r = CliRunner.run("operator", "--url", url, "--pub", p("k/key.pub"));
        assertTrue(r.err().contains("give --params"), r.err());
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            r = CliRunner.run(
                    "sensor",
                    "--key",
                    p("k/key.state"),
                    "--port",
                    Integer.toString(taken.getLocalPort()),
                    "--data-dir",
                    p("sensor-data"));
            assertEquals(2, r.exit(), r.toString());
            assertEquals(1, r.err().strip().lines().count(), r.toString());
            assertTrue(r.err().contains("failed to start on 127.0.0.1:" + taken.getLocalPort()), r.err());
        }
        r = CliRunner.run("sensor", "--help");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("--trust-client") && r.out().contains("--source"), r.out());
        r = CliRunner.run("operator", "--help");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("--trust-server") && r.out().contains("--publishing-ms"), r.out());
        r = CliRunner.run("sensor", "--rate", "1");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--key"), r.err());
        // Nothing above touched the key.
        r = CliRunner.run("inspect", p("k/key.state"));
        assertTrue(r.out().contains("next 0,"), r.out());

        // No sensor listening: the operator gives up after --connect-timeout with exit 1.
        r = CliRunner.run(
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--connect-timeout",
                "0",
                "--data-dir",
                p("op"));
        assertEquals(1, r.exit(), r.toString());
        assertEquals(1, r.err().strip().lines().count(), r.toString());
        assertNotNull(r.err());
    }
}
