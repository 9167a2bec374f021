package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.FaultInjector;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * An independent OPC UA stack against the gateway: node-opcua's client (npm, installed with
 * {@code npm ci} from the lockfile in {@code src/test/resources/node-client} into
 * {@code target/node-client}) subscribes to a sensor's verified variables and events, reads the
 * history and tries a Write, printing JSON lines that this test asserts. Skipped, with the reason,
 * where {@code node} and {@code npm} are not installed or npm cannot fetch the client. npm's cache
 * and node-opcua's PKI live under {@code target/node-client} too.
 */
class NodeOpcuaClientTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String[] FILES = {"package.json", "package-lock.json", "client.js"};
    private static Path clientDir;

    @TempDir(factory = InTarget.class)
    Path dir;

    /** The test's directory under {@code target/} too: nothing of this test is written elsewhere. */
    static final class InTarget implements TempDirFactory {
        @Override
        public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
            Path parent = Files.createDirectories(
                    Path.of("target", "node-client-runs").toAbsolutePath());
            return Files.createTempDirectory(parent, "run");
        }
    }

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final BlockingQueue<Observation> obs = new LinkedBlockingQueue<>();
    private final BlockingQueue<JsonNode> lines = new LinkedBlockingQueue<>();
    private final List<JsonNode> received = new ArrayList<>();
    private final List<String> other = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<AutoCloseable> opened = new ArrayList<>();
    private Process node;

    @BeforeAll
    static void installClient() throws Exception {
        Assumptions.assumeTrue(
                onPath("node") && onPath("npm"),
                "node and npm are not installed: the node-opcua interoperability test needs Node.js 18+ (CI has it)");
        clientDir = Path.of("target", "node-client").toAbsolutePath();
        Files.createDirectories(clientDir);
        boolean same = Files.isDirectory(clientDir.resolve("node_modules"));
        for (String f : FILES) {
            try (InputStream in = NodeOpcuaClientTest.class.getResourceAsStream("/node-client/" + f)) {
                assertNotNull(in, f);
                byte[] b = in.readAllBytes();
                Path target = clientDir.resolve(f);
                same &= Files.exists(target) && java.util.Arrays.equals(Files.readAllBytes(target), b);
                Files.write(target, b);
            }
        }
        if (!same) {
            npmCi();
        }
    }

    /**
     * {@code npm ci} from the lockfile, its cache under {@code target/}. An npm that cannot reach
     * its registry (no network, a registry down) skips the test with npm's last line, rather than
     * failing a build that has no way to fetch the client.
     */
    private static void npmCi() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(
                        "npm",
                        "ci",
                        "--no-audit",
                        "--no-fund",
                        "--ignore-scripts",
                        "--fetch-retries=1",
                        "--fetch-timeout=30000")
                .directory(clientDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(clientDir.resolve("npm-ci.log").toFile());
        pb.environment().put("npm_config_cache", clientDir.resolve("npm-cache").toString());
        pb.environment().put("npm_config_update_notifier", "false");
        Process npm = pb.start();
        boolean ended = npm.waitFor(3, TimeUnit.MINUTES);
        if (!ended) {
            npm.destroyForcibly();
        }
        if (ended && npm.exitValue() == 0) {
            return;
        }
        String log = Files.readString(clientDir.resolve("npm-ci.log"));
        String code = log.lines()
                .filter(l -> l.startsWith("npm error code ") || l.startsWith("npm ERR! code "))
                .map(l -> l.substring(l.lastIndexOf(' ') + 1))
                .findFirst()
                .orElse("");
        // The registry cannot be reached: nothing this build can fix, so the test is skipped.
        Assumptions.assumeFalse(
                !ended || UNREACHABLE.matcher(code).matches(),
                "npm ci could not reach its registry to install node-opcua (" + (ended ? code : "no end in 3 minutes")
                        + "; target/node-client/npm-ci.log)");
        throw new AssertionError("npm ci failed (exit " + npm.exitValue() + "): " + log);
    }

    /** npm error codes of a registry that cannot be reached (network, DNS, proxy, server errors). */
    private static final java.util.regex.Pattern UNREACHABLE = java.util.regex.Pattern.compile(
            "E(CONNREFUSED|CONNRESET|NOTFOUND|AI_AGAIN|TIMEDOUT|NETUNREACH|HOSTUNREACH|PROXY|5\\d\\d)"
                    + "|ERR_SOCKET_TIMEOUT|FETCH_ERROR");

    /** Where node-opcua keeps its PKI and settings ({@code env-paths}): under {@code target/}, not the home directory. */
    private static void keepInTarget(ProcessBuilder pb) {
        for (String v : new String[] {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
            pb.environment()
                    .put(
                            v,
                            clientDir
                                    .resolve("home")
                                    .resolve(v.toLowerCase(java.util.Locale.ROOT))
                                    .toString());
        }
    }

    private static boolean onPath(String program) {
        for (String p : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(p, program))) {
                return true;
            }
        }
        return false;
    }

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            node.destroyForcibly();
        }
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private <T extends AutoCloseable> T open(T part) {
        opened.add(part);
        return part;
    }

    private Observation observe(long seq) throws InterruptedException {
        while (true) {
            Observation o = obs.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            assertNotNull(o, "no observation for publication " + seq);
            if (o.sequence() == seq && o.isReading()) {
                return o;
            }
        }
    }

    /** The first line the client printed, so far or within the patience, that matches (lines are kept). */
    private JsonNode await(Predicate<JsonNode> match) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            JsonNode n = lines.poll(10, TimeUnit.MILLISECONDS);
            if (n != null) {
                received.add(n);
                assertTrue(!n.path("kind").asText().equals("error"), n + "\n" + stderr());
            }
            for (JsonNode r : received) {
                if (match.test(r)) {
                    return r;
                }
            }
            assertTrue(
                    System.nanoTime() < deadline,
                    "node-opcua client: nothing matched; seen " + received + "\n" + other + "\n" + stderr());
        }
    }

    private String stderr() throws IOException {
        Path f = dir.resolve("node.err");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    private void command(String c) throws IOException {
        OutputStream in = node.getOutputStream();
        in.write((c + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    @Test
    @Timeout(120)
    void nodeOpcuaClient_seesGoodValues_statusTurned_events_history_andItsWriteRefused() throws Exception {
        SequencedSigner signer = open(SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1));
        GatewayServer gateway =
                open(GatewayServer.start(GatewayServer.Config.loopback(dir.resolve("gateway")), List.of("s1")));
        ReplayGuard guard = open(ReplayGuard.inDirectory(dir.resolve("replay")));
        AcceptedRecords accepted = open(AcceptedRecords.inDirectory(dir.resolve("accepted"), 64));
        Operator operator = open(new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(
                        guard,
                        List.of(new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        accepted,
                        dir.resolve("evidence")),
                o -> {
                    gateway.observe(o);
                    obs.add(o);
                }));
        operator.onConnectionChange(gateway::connectionChanged);
        FaultInjector faults = new FaultInjector(new SensorKey(signer, key.keyId()));
        SensorServer sensor = open(SensorServer.start(
                SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE), faults.key()));
        assertTrue(operator.connect("s1", sensor.endpointUrl()).awaitConnected(PATIENCE));
        assertEquals(
                Reason.ACCEPTED,
                observe(sensor.publish("10.5,2026-11-30T01:00:00.5Z").sequence())
                        .verdict()
                        .reason());

        ProcessBuilder client = new ProcessBuilder(
                        "node", clientDir.resolve("client.js").toString(), gateway.endpointUrl(), "s1")
                .redirectError(dir.resolve("node.err").toFile());
        keepInTarget(client);
        node = client.start();
        ObjectMapper json = new ObjectMapper();
        Thread reader = new Thread(() -> {
            try (BufferedReader r =
                    new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    try {
                        lines.add(json.readTree(line));
                    } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
                        other.add(line); // node-opcua's own messages
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        await(n -> n.path("kind").asText().equals("ready"));
        JsonNode first = await(n -> n.path("node").asText().equals("reading"));
        assertEquals("10.5,2026-11-30T01:00:00.5Z", first.path("value").asText());
        assertEquals(0, first.path("status").asLong());

        assertEquals(
                Reason.ACCEPTED,
                observe(sensor.publish("20.5,2026-11-30T01:00:01.25Z").sequence())
                        .verdict()
                        .reason());
        JsonNode v = await(
                n -> n.path("node").asText().equals("value") && n.path("value").asDouble() == 20.5);
        assertEquals(0, v.path("status").asLong(), v.toString());
        assertEquals("2026-11-30T01:00:01.250Z", v.path("source").asText(), "the signed time (node prints ms)");

        assertEquals(
                Reason.BAD_SIGNATURE,
                observe(faults.tampered("30.5,2026-11-30T01:00:02Z", sensor::publish)
                                .sequence())
                        .verdict()
                        .reason());
        JsonNode turned = await(n ->
                n.path("node").asText().equals("reading") && n.path("status").asLong() != 0);
        assertEquals(
                StatusCodes.Uncertain_LastUsableValue, turned.path("status").asLong());
        assertEquals("20.5,2026-11-30T01:00:01.25Z", turned.path("value").asText(), "the last good value stays");
        JsonNode event = await(n -> n.path("kind").asText().equals("event"));
        assertEquals("s1", event.path("sourceName").asText());
        assertEquals(900, event.path("severity").asInt());
        assertTrue(event.path("message").asText().startsWith("BAD_SIGNATURE index 2"), event.toString());

        command("history");
        JsonNode h = await(n -> n.path("kind").asText().equals("history"));
        assertEquals(0, h.path("status").asLong(), h.toString());
        assertEquals(2, h.path("values").size(), h.toString());
        assertEquals(
                "10.5,2026-11-30T01:00:00.5Z",
                h.path("values").get(0).path("value").asText());
        assertEquals(
                "20.5,2026-11-30T01:00:01.25Z",
                h.path("values").get(1).path("value").asText());

        command("write");
        JsonNode w = await(n -> n.path("kind").asText().equals("write"));
        assertEquals(StatusCodes.Bad_NotWritable, w.path("status").asLong(), w.toString());

        command("quit");
        await(n -> n.path("kind").asText().equals("bye"));
        assertTrue(node.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, node.exitValue(), stderr());
    }
}
