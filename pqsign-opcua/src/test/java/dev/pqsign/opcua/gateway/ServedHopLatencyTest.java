package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.LatencySeries;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures (does not assert) the latency the served hop adds: from the operator's verdict to the
 * value seen by a client subscribed to the gateway, beside the plain sensor → verdict path, in
 * rounds that alternate with and without the gateway in one run (docs/measurements/gateway-latency.md).
 * One JVM, so all times are one monotonic clock. Behind {@code -Plong}.
 */
class ServedHopLatencyTest {

    private static final int ROUNDS = Integer.getInteger("pqsign.hop.rounds", 10);
    private static final int PER_ROUND = Integer.getInteger("pqsign.hop.readings", 300);
    private static final long PACE_MICROS = Long.getLong("pqsign.hop.paceMicros", 5_000);

    @TempDir
    Path dir;

    private final Map<String, Long> published = new ConcurrentHashMap<>();
    private final Map<String, Long> verdicts = new ConcurrentHashMap<>();
    private volatile boolean serving;
    private volatile boolean measuring;
    private volatile CountDownLatch seen;

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void servedHop_addedLatency_alternatingWithThePlainPath() throws Exception {
        Ed25519TestDouble key = Ed25519TestDouble.generate();
        LatencySeries plainWith = new LatencySeries();
        LatencySeries plainWithout = new LatencySeries();
        LatencySeries hop = new LatencySeries();
        LatencySeries endToEnd = new LatencySeries();
        try (SequencedSigner signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 64);
                GatewayServer gateway =
                        GatewayServer.start(GatewayServer.Config.loopback(dir.resolve("gateway")), List.of("s1"));
                ReplayGuard guard = ReplayGuard.inDirectory(dir.resolve("replay"));
                AcceptedRecords accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 1024);
                Operator operator = new Operator(
                        new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 1),
                        new ReadingVerifier(
                                guard,
                                List.of(new ReadingVerifier.TrustedKey(
                                        key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                                accepted,
                                dir.resolve("evidence")),
                        o -> {
                            long now = System.nanoTime();
                            if (o.isReading() && o.verdict().accepted() && o.reading() != null) {
                                String text = o.reading().reading();
                                Long p = published.get(text);
                                if (measuring && p != null) {
                                    (serving ? plainWith : plainWithout).add(now - p);
                                }
                                verdicts.put(text, now);
                            }
                            if (serving) {
                                gateway.observe(o);
                            } else if (o.isReading() && seen != null) {
                                seen.countDown();
                            }
                        });
                SensorServer sensor = SensorServer.start(
                        SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE),
                        new SensorKey(signer, key.keyId()))) {
            operator.onConnectionChange(gateway::connectionChanged);
            assertTrue(operator.connect("s1", sensor.endpointUrl()).awaitConnected(Duration.ofSeconds(20)));
            OpcUaClient client = OpcUaClient.create(gateway.endpointUrl());
            client.connect();
            try {
                int ns = client.readNamespaceTable()
                        .getIndex(GatewayNodes.NAMESPACE_URI)
                        .intValue();
                OpcUaSubscription sub = new OpcUaSubscription(client, 1.0);
                sub.create();
                OpcUaMonitoredItem item =
                        OpcUaMonitoredItem.newDataItem(new NodeId(ns, GatewayNodes.nodeId("s1", GatewayNodes.READING)));
                item.setSamplingInterval(0.0);
                item.setQueueSize(Unsigned.uint(1000));
                item.setDiscardOldest(false);
                item.setDataValueListener((i, v) -> {
                    long now = System.nanoTime();
                    if (v.value() != null && v.value().value() instanceof String text) {
                        Long verdict = verdicts.get(text);
                        Long p = published.get(text);
                        if (measuring && verdict != null && p != null) {
                            hop.add(now - verdict);
                            endToEnd.add(now - p);
                        }
                        if (seen != null) {
                            seen.countDown();
                        }
                    }
                });
                sub.addMonitoredItem(item);
                sub.synchronizeMonitoredItems();

                round(sensor, true, -1, PER_ROUND); // warm-up, not measured
                round(sensor, false, -2, PER_ROUND);
                measuring = true;
                for (int r = 0; r < ROUNDS; r++) {
                    round(sensor, r % 2 == 0, r, PER_ROUND);
                }
            } finally {
                client.disconnect();
            }
        }
        System.out.printf(
                Locale.ROOT,
                "served-hop: %d rounds x %d readings, one every %d us; load %s%n",
                ROUNDS,
                PER_ROUND,
                PACE_MICROS,
                loadAverage());
        print("plain path (publish -> verdict), gateway fed", plainWith);
        print("plain path (publish -> verdict), no gateway", plainWithout);
        print("served hop (verdict -> client notification)", hop);
        print("publish -> client notification", endToEnd);
        System.out.printf(
                Locale.ROOT,
                "plain path p50 with / without gateway: %.2f%n",
                plainWith.summary().p50() / plainWithout.summary().p50());
        assertTrue(hop.count() > 0);
    }

    private void round(SensorServer sensor, boolean serve, int r, int n) throws Exception {
        serving = serve;
        seen = new CountDownLatch(n);
        long next = System.nanoTime();
        for (int i = 0; i < n; i++) {
            String text = i + ".5,round=" + r + ",i=" + i;
            published.put(text, System.nanoTime());
            sensor.publish(text);
            next += TimeUnit.MICROSECONDS.toNanos(PACE_MICROS);
            long wait = next - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
        assertTrue(seen.await(60, TimeUnit.SECONDS), "round " + r + " did not complete");
    }

    private static void print(String what, LatencySeries s) {
        LatencySeries.Summary t = s.summary();
        System.out.printf(
                Locale.ROOT,
                "%-50s n=%d p50 %.3f ms p99 %.3f ms max %.3f ms mean %.3f ms%n",
                what,
                t.count(),
                t.p50(),
                t.p99(),
                t.max(),
                t.mean());
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
