package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.FaultInjector;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.operator.TrustedKeys;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real Milo server and client over loopback sockets, signing with the Ed25519 test double. */
class SensorOperatorTest {

    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final BlockingQueue<Observation> obs = new LinkedBlockingQueue<>();
    private SequencedSigner signer;
    /** The sensor signs through it, so that a test can make one publication a tampered or replayed reading. */
    private FaultInjector faults;

    private SensorServer sensor;
    private ReplayGuard guard;
    private Operator operator;
    private RecordSubscription connection;
    private AcceptedRecords accepted;

    @BeforeEach
    void start() throws Exception {
        signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
        faults = new FaultInjector(new SensorKey(signer, key.keyId()));
        sensor = SensorServer.start(
                SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE), faults.key());
        startOperator();
        connection = operator.connect("s1", sensor.endpointUrl());
    }

    private void startOperator() throws Exception {
        guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        operator = new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(
                        guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                obs::add);
    }

    @AfterEach
    void stop() throws Exception {
        operator.close();
        guard.close();
        if (accepted != null) {
            accepted.close();
        }
        sensor.close();
        signer.close();
    }

    /** The observation of publication {@code seq}, skipping earlier ones. */
    private Observation observe(long seq) throws InterruptedException {
        while (true) {
            Observation o = obs.poll(20, TimeUnit.SECONDS);
            assertNotNull(o, "no observation for publication " + seq);
            if (o.sequence() == seq) {
                return o;
            }
            assertTrue(o.sequence() < seq, "observation " + o.sequence() + " overtook " + seq);
        }
    }

    private Reason publish(String reading) throws InterruptedException {
        return observe(sensor.publish(reading).sequence()).verdict().reason();
    }

    /**
     * Stopping the sensor while an operator is connected: the operator's client reacts by opening a
     * new session on its still open channel; the server must not build that session's diagnostics
     * from the standard nodes its shutdown removes (Milo logged a warning with a stack trace for it
     * on every such stop before SessionGate).
     */
    @Test
    void close_whileOperatorConnected_noSessionBuiltIntoRemovedNamespaces() throws Exception {
        assertEquals(Reason.ACCEPTED, publish("1500.0,2026-11-30T00:00:00.000000000Z"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            sensor.close();
            // Milo logs from its own threads; give a session attempt provoked by the stop time to fail.
            Thread.sleep(1000);
        } finally {
            System.setErr(saved);
        }
        String log = err.toString(StandardCharsets.UTF_8);
        assertFalse(log.contains("SessionDiagnostics"), log);
        assertFalse(log.contains("Exception"), log);
    }

    @Test
    void publish_twentyReadings_allAcceptedWithLatencies() throws Exception {
        for (int i = 0; i < 20; i++) {
            SensorServer.Publication p = sensor.publish("1500.0" + i + ",2026-11-30T00:00:00.000000000Z");
            Observation o = observe(p.sequence());
            assertEquals(Reason.ACCEPTED, o.verdict().reason(), o.verdict().detail());
            assertEquals(p.reading(), o.reading());
            assertNotNull(o.latency());
            assertTrue(o.latency().endToEndNanos() >= o.latency().transferNanos());
            assertTrue(o.describe().startsWith("s1 index=" + p.reading().index() + " ACCEPTED e2e="), o.describe());
            assertEquals(p.record().sourceTime(), o.record().sourceTime());
            assertFalse(o.receivedAt().isBefore(o.record().sourceTime()));
        }
        assertEquals(20, operator.count(Reason.ACCEPTED));
    }

    /**
     * The subscription's keep-alive interval follows the short publishing interval (about a second),
     * not Milo's count for its 1000 ms default, which at 2 ms would mean an empty Publish exchange
     * every 20 ms per sensor.
     */
    @Test
    void subscription_keepAliveAboutOneSecond() {
        assertEquals(2.0, connection.revisedPublishingIntervalMs());
        double keepAlive = connection.revisedKeepAliveIntervalMs();
        assertTrue(
                keepAlive >= Operator.KEEP_ALIVE_INTERVAL_MS && keepAlive < 2 * Operator.KEEP_ALIVE_INTERVAL_MS,
                "keep-alive interval " + keepAlive + " ms");
    }

    /** Open loop: a paced simulated sensor; every publication reaches the operator and is verified. */
    @Test
    void publishAll_simulatedSensorAtRate_everyPublicationAccountedFor() throws Exception {
        dev.pqsign.telemetry.SimulatedSpeedSensor source =
                new dev.pqsign.telemetry.SimulatedSpeedSensor(1500, 5, 200, 3, java.time.Clock.systemUTC());
        dev.pqsign.telemetry.ReadingSource limited = new dev.pqsign.telemetry.ReadingSource() {
            int left = 40;

            @Override
            public String next() throws InterruptedException {
                return left-- > 0 ? source.next() : null;
            }
        };
        // One reading seen end to end first, so the subscription is live before the paced run.
        SensorServer.Publication warm = sensor.publish("1500.00,warm-up");
        assertEquals(Reason.ACCEPTED, observe(warm.sequence()).verdict().reason());
        long acceptedBefore = operator.count(Reason.ACCEPTED);
        assertEquals(40, sensor.publishAll(limited));
        // Every record arrives in its own notification: all 40 accepted, none lost.
        Observation last = observe(warm.sequence() + 40);
        assertEquals(Reason.ACCEPTED, last.verdict().reason(), last.verdict().detail());
        assertEquals(40, operator.count(Reason.ACCEPTED) - acceptedBefore);
        assertEquals(0, operator.count(Reason.GAP));
        assertEquals(
                0,
                operator.count(Reason.REPLAYED)
                        + operator.count(Reason.BAD_SIGNATURE)
                        + operator.count(Reason.MALFORMED));
    }

    /** A burst from several threads as fast as the sensor can sign: every index arrives, in order, no gap. */
    @Test
    void publishBurst_unpaced_everyIndexAcceptedNoGap() throws Exception {
        SensorServer.Publication warm = sensor.publish("1500.00,warm-up");
        assertEquals(Reason.ACCEPTED, observe(warm.sequence()).verdict().reason());
        long lastSeq = 0;
        for (int i = 0; i < 1000; i++) {
            lastSeq = sensor.publish("1500.00,burst-" + i).sequence();
        }
        Observation last = observe(lastSeq);
        assertEquals(Reason.ACCEPTED, last.verdict().reason());
        assertEquals(1001, operator.count(Reason.ACCEPTED));
        assertEquals(0, operator.count(Reason.GAP));
        assertEquals(0, connection.overflows());
    }

    /** A queue too small for the rate: the server marks the overflow and the operator reports exactly the lost indices. */
    @Test
    void queueOverflow_lostReadingsReportedAsGaps() throws Exception {
        operator.close();
        guard.close();
        guard = ReplayGuard.inDirectory(dir.resolve("replay-small"));
        List<Observation> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Operator small = new Operator(
                new Operator.Config(dir.resolve("operator-small"), TransportSecurity.NONE, 500, 2),
                new ReadingVerifier(
                        guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                seen::add)) {
            RecordSubscription c = small.connect("s1", sensor.endpointUrl());
            long first = sensor.publish("1500.00,first").reading().index();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (small.count(Reason.ACCEPTED) < 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            long last = -1;
            for (int i = 0; i < 30; i++) {
                last = sensor.publish("1500.00,fast-" + i).reading().index();
            }
            final long lastIndex = last;
            while (seen.stream()
                            .noneMatch(o -> o.reading() != null && o.reading().index() == lastIndex)
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            long accepted = small.count(Reason.ACCEPTED);
            long missing = seen.stream()
                    .filter(o -> o.gap() != null)
                    .mapToLong(o -> o.gap().size())
                    .sum();
            assertTrue(small.count(Reason.GAP) > 0, "a 2-entry queue cannot hold 30 readings per 500 ms");
            assertTrue(c.overflows() > 0);
            assertEquals(lastIndex - first + 1, accepted + missing, "every index accepted or reported missing");
        }
        startOperator();
        connection = operator.connect("s1", sensor.endpointUrl());
    }

    @Test
    void tamperedReading_rejectedBadSignature_thenGenuineAccepted() throws Exception {
        assertEquals(Reason.ACCEPTED, publish("1500.00,a"));
        assertEquals(
                Reason.BAD_SIGNATURE,
                observe(faults.tampered("1500.00,b", sensor::publish).sequence())
                        .verdict()
                        .reason());
        SignedReading good = new ReadingSigner(signer).sign("1500.00,c");
        byte[] flipped = good.signature().clone();
        flipped[10] ^= 0x40;
        assertEquals(
                Reason.BAD_SIGNATURE,
                observe(faults.signed(new SignedReading(good.reading(), good.index(), flipped), sensor::publish)
                                .sequence())
                        .verdict()
                        .reason());
        assertEquals(
                Reason.BAD_SIGNATURE,
                observe(faults.signed(
                                        new SignedReading(good.reading(), good.index() + 7, good.signature()),
                                        sensor::publish)
                                .sequence())
                        .verdict()
                        .reason(),
                "moving a valid reading to another index breaks the signature");
        assertEquals(
                Reason.ACCEPTED,
                observe(faults.signed(good, sensor::publish).sequence())
                        .verdict()
                        .reason(),
                "rejected forgeries must not consume the genuine index");
    }

    @Test
    void replayedAndReorderedReadings_rejectedReplayed() throws Exception {
        ReadingSigner rs = new ReadingSigner(signer);
        SignedReading r1 = rs.sign("1500.00,1");
        SignedReading r2 = rs.sign("1500.00,2");
        long first = faults.signed(r2, sensor::publish).sequence();
        assertEquals(Reason.GAP, observe(first).verdict().reason(), "index 0 not received: a key starts at 0");
        assertEquals(Reason.ACCEPTED, observe(first).verdict().reason());
        assertEquals(
                Reason.REPLAYED,
                observe(faults.signed(r1, sensor::publish).sequence()).verdict().reason(),
                "reordered");
        assertEquals(
                Reason.REPLAYED,
                observe(faults.signed(r2, sensor::publish).sequence()).verdict().reason(),
                "replayed");
        assertEquals(Reason.ACCEPTED, publish("1500.00,3"));
    }

    @Test
    void sensorRestart_indexContinuesWithoutReuse_operatorAcceptsAfterReconnect() throws Exception {
        long last = -1;
        for (int i = 0; i < 3; i++) {
            SensorServer.Publication p = sensor.publish("1500.00," + i);
            assertEquals(Reason.ACCEPTED, observe(p.sequence()).verdict().reason());
            last = p.reading().index();
        }
        int port = sensor.port();
        operator.close();
        sensor.close();
        signer.close();
        signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
        sensor = SensorServer.start(
                new SensorServer.Config("s1", dir.resolve("sensor"), "127.0.0.1", port, TransportSecurity.NONE),
                new SensorKey(signer, key.keyId()));
        guard.close();
        startOperator();
        operator.connect("s1", sensor.endpointUrl());
        SensorServer.Publication p = sensor.publish("1500.00,after-restart");
        assertTrue(p.reading().index() > last, "index " + p.reading().index() + " reused after restart");
        assertEquals(Reason.ACCEPTED, observe(p.sequence()).verdict().reason());
    }

    @Test
    void sensorRestart_sameOperatorConnection_resumesAutomatically() throws Exception {
        SensorServer.Publication before = sensor.publish("1500.00,before");
        assertEquals(Reason.ACCEPTED, observe(before.sequence()).verdict().reason());
        int port = sensor.port();
        sensor.close();
        signer.close();
        signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
        sensor = SensorServer.start(
                new SensorServer.Config("s1", dir.resolve("sensor"), "127.0.0.1", port, TransportSecurity.NONE),
                new SensorKey(signer, key.keyId()));
        // The restarted server's sequence starts again at 1; wait for the client to resubscribe.
        Observation o = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (o == null && System.nanoTime() < deadline) {
            SensorServer.Publication p = sensor.publish("1500.00,after");
            assertTrue(p.reading().index() > before.reading().index());
            o = obs.poll(2, TimeUnit.SECONDS);
        }
        assertNotNull(o, "operator did not resume after the sensor restarted");
        System.out.println("resumed: " + o);
    }

    @Test
    void operatorRestart_replayStateKept() throws Exception {
        SensorServer.Publication p = sensor.publish("1500.00,before");
        assertEquals(Reason.ACCEPTED, observe(p.sequence()).verdict().reason());
        operator.close();
        guard.close();
        obs.clear();
        startOperator();
        operator.connect("s1", sensor.endpointUrl());
        // The new subscription delivers the current (already accepted) reading first.
        Observation again = observe(p.sequence());
        assertEquals(Reason.REPLAYED, again.verdict().reason());
        assertEquals(
                Reason.REPLAYED,
                observe(faults.signed(p.reading(), sensor::publish).sequence())
                        .verdict()
                        .reason());
        assertEquals(Reason.ACCEPTED, publish("1500.00,after"));
    }

    @Test
    void operatorRestart_withAcceptedRecords_currentReadingDuplicateNotRejected() throws Exception {
        operator.close();
        guard.close();
        obs.clear();
        startRememberingOperator();
        operator.connect("s1", sensor.endpointUrl());
        SensorServer.Publication p = sensor.publish("1500.00,before");
        assertEquals(Reason.ACCEPTED, observe(p.sequence()).verdict().reason());
        operator.close();
        guard.close();
        obs.clear();
        startRememberingOperator();
        operator.connect("s1", sensor.endpointUrl());
        // The new subscription delivers the current, already accepted reading first: a duplicate.
        Observation again = observe(p.sequence());
        assertEquals(Reason.DUPLICATE, again.verdict().reason());
        assertFalse(again.verdict().alarm());
        assertEquals(Reason.ACCEPTED, publish("1500.00,after"));
        assertEquals(0, operator.count(Reason.GAP));
    }

    private void startRememberingOperator() throws Exception {
        startRememberingOperator(obs::add);
    }

    private void startRememberingOperator(Consumer<Observation> listener) throws Exception {
        guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        if (accepted != null) {
            accepted.close();
        }
        accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 64);
        operator = new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(
                        guard,
                        List.of(new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        accepted,
                        dir.resolve("evidence")),
                listener);
    }

    /** Store and forward: what was published while the operator was away comes from the history, verified; no gap. */
    @Test
    void operatorRestart_missedReadingsBackfilledFromHistory_noGap() throws Exception {
        try (ReadingHistory history = ReadingHistory.inMemory(10_000, Duration.ofHours(1), Clock.systemUTC());
                SensorServer hs = SensorServer.start(
                        SensorServer.Config.loopback("hist", dir.resolve("hist-sensor"), TransportSecurity.NONE),
                        new SensorKey(signer, key.keyId()),
                        history)) {
            operator.close();
            guard.close();
            obs.clear();
            startRememberingOperator();
            operator.connect("hist", hs.endpointUrl());
            long first = -1;
            for (int i = 0; i < 3; i++) {
                SensorServer.Publication p = hs.publish("1500.00,before-" + i);
                first = first < 0 ? p.reading().index() : first;
                assertEquals(Reason.ACCEPTED, observe(p.sequence()).verdict().reason());
            }
            operator.close();
            guard.close();
            obs.clear();
            long lastWhileDown = 0;
            for (int i = 0; i < 5; i++) {
                lastWhileDown = hs.publish("1500.00,while-down-" + i).sequence();
            }
            startRememberingOperator();
            RecordSubscription c = operator.connect("hist", hs.endpointUrl());
            Observation last = observe(lastWhileDown);
            assertEquals(Reason.ACCEPTED, last.verdict().reason());
            SensorServer.Publication after = hs.publish("1500.00,after");
            assertEquals(Reason.ACCEPTED, observe(after.sequence()).verdict().reason());
            assertEquals(6, operator.count(Reason.ACCEPTED), "5 from the history, 1 live");
            assertEquals(0, operator.count(Reason.GAP));
            assertEquals(0, operator.count(Reason.DUPLICATE), "the current reading came with the history, not again");
            assertEquals(5, c.backfilled());
        }
    }

    /** First contact with a sensor that already published: everything its history holds, over several HistoryReads. */
    @Test
    void firstContact_historyLongerThanOneRead_everythingBackfilled() throws Exception {
        try (ReadingHistory history = ReadingHistory.inMemory(10_000, Duration.ofHours(1), Clock.systemUTC());
                SensorServer hs = SensorServer.start(
                        SensorServer.Config.loopback("hist", dir.resolve("hist-sensor"), TransportSecurity.NONE),
                        new SensorKey(signer, key.keyId()),
                        history)) {
            int n = SensorNamespace.MAX_HISTORY_VALUES_PER_READ + 150;
            long lastSeq = 0;
            for (int i = 0; i < n; i++) {
                lastSeq = hs.publish("1500.00,early-" + i).sequence();
            }
            operator.close();
            guard.close();
            obs.clear();
            startRememberingOperator();
            RecordSubscription c = operator.connect("hist", hs.endpointUrl());
            assertEquals(Reason.ACCEPTED, observe(lastSeq).verdict().reason());
            assertEquals(n, operator.count(Reason.ACCEPTED));
            assertEquals(0, operator.count(Reason.GAP));
            assertEquals(n, c.backfilled());
        }
    }

    /**
     * The sensor dies while the operator is judging the first HistoryRead of a backfill, the rest
     * still in its history: the backfill resumes on the restarted sensor before the live reading
     * queued behind it is judged, so nothing the history holds is reported as a gap.
     */
    @Test
    void sensorDiesMidBackfill_restarted_backfillResumesNoGap() throws Exception {
        try (ReadingHistory history = ReadingHistory.inMemory(10_000, Duration.ofHours(1), Clock.systemUTC())) {
            SensorServer.Config config =
                    SensorServer.Config.loopback("hist", dir.resolve("hist-sensor"), TransportSecurity.NONE);
            SensorServer hs = SensorServer.start(config, new SensorKey(signer, key.keyId()), history);
            try {
                // Long readings: the history outgrows one HistoryRead response after a few hundred;
                // then 20 more, so that more than the newest (also delivered live) needs the second read.
                String text = "1500.00," + "x".repeat(ReadingMessage.MAX_READING_BYTES - 100);
                long bytes = 0;
                int n = 0;
                for (int more = 20; more > 0; n++) {
                    bytes += hs.publish(text + n).record().encode().length;
                    more -= bytes > SensorNamespace.MAX_HISTORY_BYTES_PER_READ ? 1 : 0;
                }
                operator.close();
                guard.close();
                obs.clear();
                CountDownLatch judging = new CountDownLatch(1);
                CountDownLatch sensorGone = new CountDownLatch(1);
                startRememberingOperator(o -> {
                    judging.countDown();
                    try {
                        sensorGone.await(); // holds the worker inside the first HistoryRead's records
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    obs.add(o);
                });
                RecordSubscription c = operator.connect("hist", hs.endpointUrl());
                assertTrue(judging.await(30, TimeUnit.SECONDS), "backfill did not start");
                int port = hs.port();
                hs.close();
                awaitTrue(() -> !c.connected(), "the operator did not notice the sensor going away");
                sensorGone.countDown();
                // The next HistoryRead meets no sensor; the sensor comes back only after it failed.
                awaitTrue(() -> c.backfillFailures() > 0, "the backfill never failed");
                hs = SensorServer.start(
                        new SensorServer.Config("hist", config.dataDir(), "127.0.0.1", port, config.security()),
                        new SensorKey(signer, key.keyId()),
                        history);
                SensorServer.Publication after = hs.publish("1500.00,after-restart");
                assertEquals(
                        Reason.ACCEPTED, observe(after.sequence()).verdict().reason());
                assertEquals(0, operator.count(Reason.GAP), "a reading the history held was reported lost");
                assertEquals(0, operator.count(Reason.REPLAYED));
                assertEquals(n + 1, operator.count(Reason.ACCEPTED));
            } finally {
                hs.close();
            }
        }
    }

    private static void awaitTrue(BooleanSupplier condition, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, message);
            Thread.sleep(20);
        }
    }

    /**
     * First contact with a sensor whose history holds more XMSS^MT records (4.6 KB each) than fit into
     * one OPC UA response: the sensor splits the history over several reads, everything backfills.
     */
    @Test
    void firstContact_historyOfLargeSignatures_backfilledOverSeveralReads() throws Exception {
        XmssPrivateKey k = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_10_2_256);
        PqPublicKey pub = PqPublicKey.of(k.publicKey());
        try (XmssStatefulSigner xmss = XmssStatefulSigner.open(
                        MemoryStateStore.holding(XmssKeyState.fresh(k).encode()));
                ReadingHistory history = ReadingHistory.inMemory(10_000, Duration.ofHours(1), Clock.systemUTC());
                SensorServer hs = SensorServer.start(
                        SensorServer.Config.loopback("big", dir.resolve("big-sensor"), TransportSecurity.NONE),
                        new SensorKey(xmss, KeyId.ofPublicKey(pub.rawEncoding())),
                        history)) {
            k.destroy();
            int n = 600; // 600 x 4.7 KB: more than one read may carry
            long lastSeq = 0;
            for (int i = 0; i < n; i++) {
                lastSeq = hs.publish("1500.00,early-" + i).sequence();
            }
            operator.close();
            guard.close();
            obs.clear();
            guard = ReplayGuard.inDirectory(dir.resolve("replay-big"));
            if (accepted != null) {
                accepted.close();
            }
            accepted = AcceptedRecords.inDirectory(dir.resolve("accepted-big"), 64);
            operator = new Operator(
                    new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                    new ReadingVerifier(guard, List.of(TrustedKeys.of(pub)), accepted, dir.resolve("evidence")),
                    obs::add);
            RecordSubscription c = operator.connect("big", hs.endpointUrl());
            assertEquals(Reason.ACCEPTED, observe(lastSeq).verdict().reason());
            assertEquals(n, operator.count(Reason.ACCEPTED));
            assertEquals(0, operator.count(Reason.GAP));
            assertEquals(n, c.backfilled());
        }
    }

    @Test
    void recordNode_advertisesHistoryReadAndHistorizing() throws Exception {
        try (ReadingHistory history = ReadingHistory.inMemory(10, Duration.ofHours(1), Clock.systemUTC());
                SensorServer hs = SensorServer.start(
                        SensorServer.Config.loopback("hist", dir.resolve("hist-sensor"), TransportSecurity.NONE),
                        new SensorKey(signer, key.keyId()),
                        history)) {
            OpcUaClient raw = OpcUaClient.create(hs.endpointUrl());
            raw.connect();
            try {
                for (String node :
                        List.of(SensorNodes.RECORD, SensorNodes.RAW_DATA, SensorNodes.SIGNATURE, SensorNodes.INDEX)) {
                    DataValue[] v = raw.read(
                                    0.0,
                                    TimestampsToReturn.Neither,
                                    List.of(
                                            new ReadValueId(
                                                    hs.nodeId(node),
                                                    AttributeId.Historizing.uid(),
                                                    null,
                                                    QualifiedName.NULL_VALUE),
                                            new ReadValueId(
                                                    hs.nodeId(node),
                                                    AttributeId.AccessLevel.uid(),
                                                    null,
                                                    QualifiedName.NULL_VALUE)))
                            .getResults();
                    assertEquals(true, v[0].value().value(), node);
                    int access = ((org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte)
                                    v[1].value().value())
                            .intValue();
                    assertEquals(AccessLevel.HistoryRead.getValue(), access & AccessLevel.HistoryRead.getValue(), node);
                }
            } finally {
                raw.disconnect();
            }
        }
    }

    @Test
    void switchKey_atRunTime_newKeyPinnedAccepted_unpinnedUnknown() throws Exception {
        assertEquals(Reason.ACCEPTED, publish("1500.00,old-key"));
        Ed25519TestDouble other = Ed25519TestDouble.generate();
        SequencedSigner otherSigner = SequencedSigner.openFile(other.signer(), dir.resolve("other.seq"), 1);
        sensor.switchKey(new SensorKey(otherSigner, other.keyId()));
        assertEquals(Reason.UNKNOWN_KEY, publish("1500.00,unpinned-key"));
        // An operator that pins both keys accepts readings of either.
        operator.close();
        guard.close();
        guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        operator = new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(
                        guard,
                        List.of(
                                new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE),
                                new ReadingVerifier.TrustedKey(other.keyId(), other.verifier(), EmbeddedIndex.NONE))),
                obs::add);
        obs.clear();
        operator.connect("s1", sensor.endpointUrl());
        assertEquals(Reason.ACCEPTED, publish("1500.00,new-key"));
        sensor.switchKey(new SensorKey(signer, key.keyId()));
        assertEquals(Reason.ACCEPTED, publish("1500.00,back-to-old"));
        otherSigner.close();
    }

    /** One Read of the triple never mixes two readings while the sensor publishes concurrently. */
    @Test
    void readOfTriple_duringConcurrentPublishing_alwaysConsistent() throws Exception {
        OpcUaClient raw = OpcUaClient.create(sensor.endpointUrl());
        raw.connect();
        try {
            List<ReadValueId> ids = new ArrayList<>();
            for (String n : List.of(SensorNodes.RAW_DATA, SensorNodes.SIGNATURE, SensorNodes.INDEX)) {
                ids.add(new ReadValueId(sensor.nodeId(n), AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE));
            }
            sensor.publish("1500.00,first");
            AtomicBoolean done = new AtomicBoolean();
            Thread publisher = new Thread(() -> {
                for (int i = 0; i < 300; i++) {
                    sensor.publish(String.format("%d.00,2026-11-30T00:00:00.%09dZ", 1000 + i, i));
                }
                done.set(true);
            });
            publisher.start();
            int reads = 0;
            long lastIndex = -1;
            while (!done.get() || reads < 50) {
                DataValue[] v = raw.read(0.0, TimestampsToReturn.Neither, ids).getResults();
                String text = (String) v[0].value().value();
                byte[] sig = ((ByteString) v[1].value().value()).bytes();
                long index = ((UInteger) v[2].value().value()).longValue();
                byte[] message = ReadingMessage.encode(
                        Ed25519TestDouble.PARAMS.setName(), index, text.getBytes(StandardCharsets.UTF_8));
                assertTrue(key.verifier().verify(message, sig), "inconsistent triple at index " + index);
                assertTrue(index >= lastIndex);
                lastIndex = index;
                reads++;
            }
            publisher.join();
            assertTrue(reads >= 50);
        } finally {
            raw.disconnect();
        }
    }

    @Test
    void nodes_areReadOnly() throws Exception {
        OpcUaClient raw = OpcUaClient.create(sensor.endpointUrl());
        raw.connect();
        try {
            StatusCode sc = raw.writeValues(
                            List.of(sensor.nodeId(SensorNodes.INDEX)),
                            List.of(new DataValue(new Variant(Unsigned.uint(999)))))
                    .get(0);
            assertFalse(sc.isGood());
        } finally {
            raw.disconnect();
        }
    }

    @Test
    void keyIdNodeOfOtherKey_unknownKey() throws Exception {
        assertEquals(KeyId.BYTES, key.keyId().bytes().length);
        Ed25519TestDouble stranger = Ed25519TestDouble.generate();
        sensor.switchKey(new SensorKey(signer, stranger.keyId()));
        assertEquals(Reason.UNKNOWN_KEY, publish("1500.00,claims-other-key"));
    }

    @Test
    void secureTransport_untrustedServer_connectionRefused_trustedWorks() throws Exception {
        try (SensorServer secure = SensorServer.start(
                        SensorServer.Config.loopback(
                                "sec", dir.resolve("secure-sensor"), TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT),
                        new SensorKey(signer, key.keyId()));
                ReplayGuard g = ReplayGuard.inDirectory(dir.resolve("replay-sec"));
                Operator op = new Operator(
                        new Operator.Config(
                                dir.resolve("secure-operator"), TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT, 2),
                        new ReadingVerifier(
                                g, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        obs::add)) {
            assertThrows(
                    java.io.IOException.class,
                    () -> op.connect("sec", secure.endpointUrl()),
                    "operator must not trust an unknown server certificate");
            op.trustServer(secure.applicationCertificate());
            assertThrows(
                    java.io.IOException.class,
                    () -> op.connect("sec", secure.endpointUrl()),
                    "server must not trust an unknown client certificate");
            secure.trustClient(op.applicationCertificate());
            op.connect("sec", secure.endpointUrl());
            obs.clear();
            SensorServer.Publication p = secure.publish("1500.00,secure");
            Observation o = observe(p.sequence());
            assertEquals("sec", o.sensor());
            assertEquals(Reason.ACCEPTED, o.verdict().reason());
            assertEquals(
                    "rw-------",
                    java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(
                            dir.resolve("secure-sensor").resolve("pki").resolve("sensor-application.pfx"))),
                    "the application key store must be readable by its owner only");
        }
    }
}
