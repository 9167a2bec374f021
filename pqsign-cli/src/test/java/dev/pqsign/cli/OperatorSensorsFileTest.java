package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code pqsign operator --sensors FILE}: one operator, two sensors over loopback, and bad files. */
class OperatorSensorsFileTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";

    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    @Timeout(240)
    void twoSensors_oneOperator_eachVerifiedAgainstItsOwnKey_exit0() throws Exception {
        for (String k : new String[] {"a", "b"}) {
            assertEquals(
                    0, CliRunner.run("keygen", "--params", SET, "--out", p(k)).exit());
        }
        try (TelemetryKeys.OpenSensorKey ka = TelemetryKeys.openSensorKey(
                        dir.resolve("a/key.state"), null, SensorSigningOptions.of(1, false, false), 10);
                TelemetryKeys.OpenSensorKey kb = TelemetryKeys.openSensorKey(
                        dir.resolve("b/key.state"), null, SensorSigningOptions.of(1, false, false), 10);
                SensorServer a = SensorServer.start(
                        SensorServer.Config.loopback("a", dir.resolve("sa"), TransportSecurity.NONE), ka.sensorKey);
                SensorServer b = SensorServer.start(
                        SensorServer.Config.loopback("b", dir.resolve("sb"), TransportSecurity.NONE), kb.sensorKey)) {
            Files.writeString(
                    dir.resolve("sensors.json"),
                    "{\"sensors\": ["
                            + "{\"name\": \"pi-a\", \"url\": \"" + a.endpointUrl()
                            + "\", \"pub\": \"a/key.pub\", \"params\": \"" + SET + "\"},"
                            + "{\"name\": \"pi-b\", \"url\": \"" + b.endpointUrl()
                            + "\", \"pub\": \"b/key.pub\", \"params\": \"" + SET + "\"}]}");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            var cl = PqsignCli.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute(
                    "operator",
                    "--sensors",
                    p("sensors.json"),
                    "--readings",
                    "6",
                    "--jsonl",
                    p("v.jsonl"),
                    "--data-dir",
                    p("op")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (out.toString()
                                    .lines()
                                    .filter(l -> l.startsWith("subscribed to"))
                                    .count()
                            < 2
                    && System.nanoTime() < deadline
                    && !exit.isDone()) {
                Thread.sleep(20);
            }
            for (int i = 0; i < 3; i++) {
                a.publish("1500.0" + i + ",a");
                b.publish("1400.0" + i + ",b");
            }
            assertEquals(0, exit.get(120, TimeUnit.SECONDS), out + "\n" + err);
            String o = out.toString();
            assertEquals(
                    3,
                    o.lines().filter(l -> l.startsWith("pi-a ACCEPTED index=")).count(),
                    o);
            assertEquals(
                    3,
                    o.lines().filter(l -> l.startsWith("pi-b ACCEPTED index=")).count(),
                    o);
            assertTrue(o.contains("summary pi-a: 3 readings, ACCEPTED 3, BAD_SIGNATURE 0"), o);
            assertTrue(o.contains("summary pi-b: 3 readings, ACCEPTED 3, BAD_SIGNATURE 0"), o);
            List<String> sensors = new ArrayList<>();
            ObjectMapper json = new ObjectMapper();
            for (String line : Files.readAllLines(dir.resolve("v.jsonl"))) {
                JsonNode n = json.readTree(line);
                assertEquals("ACCEPTED", n.get("verdict").asText());
                sensors.add(n.get("sensor").asText());
            }
            assertEquals(3, sensors.stream().filter("pi-a"::equals).count());
            assertEquals(3, sensors.stream().filter("pi-b"::equals).count());
        }
    }

    @Test
    void badSensorsFiles_exit2_oneLineNamingTheProblem() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("a")).exit());
        String ok =
                "{\"name\": \"s\", \"url\": \"opc.tcp://127.0.0.1:1/pqsign\", \"pub\": \"a/key.pub\", \"params\": \""
                        + SET + "\"}";
        String[][] cases = {
            {"not json", "not valid JSON"},
            {"{\"sensors\": []}", "needs 1..1000 sensors"},
            {"{\"sensor\": [" + ok + "]}", "expected {\"sensors\""},
            {"{\"sensors\": [" + ok + "," + ok + "]}", "used twice"},
            {
                "{\"sensors\": [{\"name\": \"s\", \"url\": \"http://x\", \"pub\": \"a/key.pub\"}]}",
                "url must start with opc.tcp://"
            },
            {"{\"sensors\": [{\"name\": \"s\", \"url\": \"opc.tcp://h:1/p\"}]}", "give exactly one of pub or cert"},
            {
                "{\"sensors\": [{\"name\": \"s\", \"url\": \"opc.tcp://h:1/p\", \"pub\": \"a/key.pub\", \"colour\": \"red\"}]}",
                "unknown key 'colour'"
            },
            {"{\"sensors\": [{\"name\": \"s\", \"url\": 5, \"pub\": \"a/key.pub\"}]}", "'url' must be a string"},
        };
        for (String[] c : cases) {
            Files.writeString(dir.resolve("bad.json"), c[0]);
            var r = CliRunner.run("operator", "--sensors", p("bad.json"), "--data-dir", p("op"));
            assertEquals(2, r.exit(), c[0] + "\n" + r);
            assertEquals(1, r.err().strip().lines().count(), c[0] + "\n" + r);
            assertTrue(r.err().startsWith("pqsign: ") && r.err().contains(c[1]), c[0] + "\n" + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
        Files.writeString(dir.resolve("good.json"), "{\"sensors\": [" + ok + "]}");
        var r = CliRunner.run("operator", "--sensors", p("good.json"), "--url", "opc.tcp://127.0.0.1:1/pqsign");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--sensors takes every sensor's endpoint"), r.err());
    }

    /**
     * Issue 31, items 8 and 9: the sensors file is one JSON document, strictly: trailing garbage, a
     * second document, a NUL after it, a key twice, bytes that are not UTF-8 are refused; a syntax
     * error is one line naming the file, the line and column and what is wrong, without the JSON
     * library's names, and never echoes a long value.
     */
    @Test
    void sensorsFile_notStrictJson_exit2_oneLineWithLineAndColumnAndNoInternals() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("a")).exit());
        String doc = "{\"sensors\": [{\"name\": \"s\", \"url\": \"opc.tcp://127.0.0.1:1/pqsign\", \"pub\":"
                + " \"a/key.pub\", \"params\": \"" + SET + "\"}]}";
        String big = "x".repeat(100_000);
        String[][] cases = {
            {doc + " garbage", "line 1, column " + (doc.length() + 2) + ": more after the JSON document"},
            {doc + doc, "line 1, column " + (doc.length() + 1) + ": more after the JSON document"},
            {doc + "\u0000", "more after the JSON document"},
            {doc + "\n\n]", "line 3, column 1: more after the JSON document"},
            {doc.replace("\"name\": \"s\"", "\"name\": \"s\", \"name\": \"t\""), "duplicate key 'name'"},
            {"{\"sensors\": [], \"sensors\": [1]}", "line 1, column 26: duplicate key 'sensors'"}, // just after the key
            {"{\"sensors\": [\n  {\"name\": \"s\" \"url\": 1}]}", "line 2, column 16: unexpected character"},
            {"{\"sensors\": [{\"name\": \"s\"}", "line 1, column 27: unexpected end-of-input"},
            {"{\"sensors\": [{\"name\": \"s\", \"url\": opc" + big + "}]}", "unrecognized token 'opcxxxx"},
            {doc.replace("127.0.0.1:1", big), "url must be at most 512 printable ASCII characters"},
            {doc.replace("\"s\"", "\"s\u00ff\""), "name must be 1..64 printable ASCII"},
        };
        for (String[] c : cases) {
            Files.writeString(dir.resolve("bad.json"), c[0]);
            var r = CliRunner.run(
                    "operator", "--sensors", p("bad.json"), "--data-dir", p("op"), "--connect-timeout", "1");
            String shown = c[0].length() > 200 ? c[0].substring(0, 200) + "…" : c[0];
            assertEquals(2, r.exit(), shown + "\n" + r);
            assertEquals(1, r.err().strip().lines().count(), shown + "\n" + r);
            assertTrue(r.err().startsWith("pqsign: " + p("bad.json") + ": "), shown + "\n" + r.err());
            assertTrue(r.err().contains(c[1]), shown + "\n" + r.err());
            assertTrue(r.err().length() < 400, "no long excerpt: " + r.err().length());
            assertFalse(
                    r.err().matches("(?s).*(`|Source:|REDACTED|Feature|ObjectNode|Exception).*"),
                    "no JSON library internals: " + r.err());
        }
        byte[] notUtf8 = doc.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        notUtf8[11] = (byte) 0xfe;
        Files.write(dir.resolve("bad.json"), notUtf8);
        var r = CliRunner.run("operator", "--sensors", p("bad.json"), "--data-dir", p("op"));
        assertEquals(2, r.exit(), r.toString());
        assertEquals(
                "pqsign: " + p("bad.json") + ": not valid JSON: line 1, column 12: not valid UTF-8 (byte 0xfe)",
                r.err().strip());
    }

    /**
     * Found by {@code OperatorSensorsFuzzTest} (docs/fuzzing.md): an unknown {@code params} or
     * {@code security} value, or any problem with a file a sensor names, was reported without the
     * sensors file and the sensor (the security one even named a {@code --security} option nobody
     * gave), and a value with a line break was echoed across two lines.
     */
    @Test
    void badSensorValues_exit2_oneLineNamingFileAndSensor() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("a")).exit());
        String start = "{\"sensors\": [{\"name\": \"s\", \"url\": \"opc.tcp://127.0.0.1:1/pqsign\", ";
        String[][] cases = {
            {start + "\"pub\": \"a/key.pub\", \"params\": \"HAETAJ-2\"}]}", "unknown parameter set 'HAETAJ-2'"},
            {start + "\"pub\": \"a/key.pub\", \"params\": \"X\\nY\"}]}", "unknown parameter set 'X?Y'"},
            {
                start + "\"pub\": \"a/key.pub\", \"params\": \"" + SET + "\", \"security\": \"nonf\"}]}",
                "security must be none or sign-encrypt"
            },
            {start + "\"pub\": \"missing.pub\"}]}", "public key does not exist"},
            {start + "\"pub\": \"a\\u0000.pub\"}]}", "'a?.pub' is not a valid file name"},
        };
        for (String[] c : cases) {
            Files.writeString(dir.resolve("bad.json"), c[0]);
            var r = CliRunner.run("operator", "--sensors", p("bad.json"), "--data-dir", p("op"));
            assertEquals(2, r.exit(), c[0] + "\n" + r);
            assertEquals(1, r.err().strip().lines().count(), c[0] + "\n" + r);
            assertTrue(r.err().startsWith("pqsign: " + p("bad.json") + ": sensor s: "), c[0] + "\n" + r.err());
            assertTrue(r.err().contains(c[1]), c[0] + "\n" + r.err());
            assertFalse(r.err().contains("--security"), r.err());
        }
    }

    /**
     * A sensor given by {@code cert} in the sensors file that never rolled over: its first (and
     * only) key's certificate expires between two runs of the operator. The second run, on the same
     * data directory, resumes at generation 0 with one notice line and accepts the key's readings;
     * an operator with a fresh data directory refuses the same file with one line, exit 1.
     */
    @Test
    @Timeout(240)
    void sensorsFile_firstCertificateExpiredAfterEnrolment_neverRolledOver_resumesAtGenerationZero() throws Exception {
        CliPki pki = CliPki.create(dir, 3650);
        assertEquals(0, pki.deviceCa("devca", "CN=sensor device CA,O=Test").exit());
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", p("k"))
                        .exit());
        // The sensor signs with the key; the operator takes the first chain from the sensors file.
        try (TelemetryKeys.OpenSensorKey key = TelemetryKeys.openSensorKey(
                        dir.resolve("k/key.state"), null, SensorSigningOptions.of(1, false, false), 10);
                SensorServer sensor = SensorServer.start(
                        SensorServer.Config.loopback("s1", dir.resolve("sd"), TransportSecurity.NONE), key.sensorKey)) {
            // Issued once the sensor serves, so the operator below enrols it well before it expires.
            Instant notAfter = pki.certifyBriefly(
                    "devca",
                    KeyFiles.publicKey(dir.resolve("k/key.pub"), "XMSS-SHA2_10_256"),
                    Duration.ofSeconds(10),
                    "k/certificate.pem");
            Files.writeString(
                    dir.resolve("sensors.json"),
                    "{\"sensors\": [{\"name\": \"pi-1\", \"url\": \"" + sensor.endpointUrl()
                            + "\", \"cert\": \"k/certificate.pem\", \"trust\": \"root.pem\"}]}");

            CliRunner.Result enrol = runOperator(sensor, "op", 0, 2);
            assertEquals(0, enrol.exit(), enrol.toString());
            assertFalse(enrol.out().contains("resuming"), enrol.out());
            CliPki.awaitPast(notAfter);
            // On subscribing, the operator may get the latest reading again (a DUPLICATE, counted by --readings).
            CliRunner.Result resumed = runOperator(sensor, "op", 2, 3);

            assertEquals(0, resumed.exit(), resumed.toString());
            List<String> notices =
                    resumed.out().lines().filter(l -> l.contains("resuming")).toList();
            assertEquals(1, notices.size(), resumed.out());
            assertTrue(notices.get(0).startsWith("operator: pi-1: first certificate chain "), notices.get(0));
            assertTrue(notices.get(0).contains("expired at " + notAfter), notices.get(0));
            assertTrue(notices.get(0).endsWith("resuming its followed key chain at generation 0"), notices.get(0));
            List<Long> accepted = resumed.out()
                    .lines()
                    .filter(l -> l.startsWith("pi-1 ACCEPTED index="))
                    .map(l -> Long.parseLong(l.split("[= ]")[3]))
                    .toList();
            assertTrue(accepted.containsAll(List.of(2L, 3L)), resumed.out());

            CliRunner.Result fresh =
                    CliRunner.run("operator", "--sensors", p("sensors.json"), "--data-dir", p("fresh"));
            assertEquals(1, fresh.exit(), fresh.toString());
            assertEquals(1, fresh.err().strip().lines().count(), fresh.err());
            assertTrue(fresh.err().startsWith("pqsign: " + p("sensors.json") + ": sensor pi-1: "), fresh.err());
            assertTrue(fresh.err().contains("expired at " + notAfter), fresh.err());
        }
    }

    /**
     * Runs {@code pqsign operator --sensors sensors.json --readings n} on {@code dataDir} in this JVM;
     * once it subscribed, {@code sensor} publishes {@code n} readings (after {@code published} before).
     */
    private CliRunner.Result runOperator(SensorServer sensor, String dataDir, int published, int n) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = PqsignCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute(
                "operator",
                "--sensors",
                p("sensors.json"),
                "--readings",
                Integer.toString(n),
                "--data-dir",
                p(dataDir)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!out.toString().contains("subscribed to") && System.nanoTime() < deadline && !exit.isDone()) {
            Thread.sleep(20);
        }
        for (int i = 0; i < n; i++) {
            sensor.publish("1500.0" + (published + i) + ",s");
        }
        return new CliRunner.Result(exit.get(120, TimeUnit.SECONDS), out.toString(), err.toString());
    }
}
