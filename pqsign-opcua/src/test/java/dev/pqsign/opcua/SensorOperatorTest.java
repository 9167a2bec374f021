package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.ReadingVerifier;
import dev.pqsign.telemetry.ReplayGuard;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.Verdict.Reason;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
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
    private final BlockingQueue<Operator.Observation> obs = new LinkedBlockingQueue<>();
    private SequencedSigner signer;
    private SensorServer sensor;
    private ReplayGuard guard;
    private Operator operator;
    private Operator.Connection connection;

    @BeforeEach
    void start() throws Exception {
        signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
        sensor = SensorServer.start(SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE),
                new SensorKey(signer, key.keyId()));
        startOperator();
        connection = operator.connect("s1", sensor.endpointUrl());
    }

    private void startOperator() throws Exception {
        guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        operator = new Operator(new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                obs::add);
    }

    @AfterEach
    void stop() throws Exception {
        operator.close();
        guard.close();
        sensor.close();
        signer.close();
    }

    /** The observation of publication {@code seq}, skipping earlier ones. */
    private Operator.Observation observe(long seq) throws InterruptedException {
        while (true) {
            Operator.Observation o = obs.poll(20, TimeUnit.SECONDS);
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

    @Test
    void publish_twentyReadings_allAcceptedWithLatencies() throws Exception {
        for (int i = 0; i < 20; i++) {
            SensorServer.Publication p = sensor.publish("1500.0" + i + ",2026-11-30T00:00:00.000000000Z");
            Operator.Observation o = observe(p.sequence());
            assertEquals(Reason.ACCEPTED, o.verdict().reason(), o.verdict().detail());
            assertEquals(p.reading(), o.reading());
            assertNotNull(o.latency());
            assertTrue(o.latency().endToEndNanos() >= o.latency().transferNanos());
            assertTrue(o.describe().startsWith("s1 index=" + p.reading().index() + " ACCEPTED e2e="), o.describe());
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
        assertTrue(keepAlive >= Operator.KEEP_ALIVE_INTERVAL_MS && keepAlive < 2 * Operator.KEEP_ALIVE_INTERVAL_MS,
                "keep-alive interval " + keepAlive + " ms");
    }

    /** Open loop: a paced simulated sensor; every publication is either verified or coalesced into a later one. */
    @Test
    void publishAll_simulatedSensorAtRate_everyPublicationAccountedFor() throws Exception {
        dev.pqsign.telemetry.SimulatedSpeedSensor source = new dev.pqsign.telemetry.SimulatedSpeedSensor(1500, 5, 200, 3,
                java.time.Clock.systemUTC());
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
        // Publications are numbered consecutively; the last one must be read and accepted, and every
        // earlier one is then either accepted or superseded (the operator reads the newest values).
        Operator.Observation last = observe(warm.sequence() + 40);
        assertEquals(Reason.ACCEPTED, last.verdict().reason(), last.verdict().detail());
        long accepted = operator.count(Reason.ACCEPTED) - acceptedBefore;
        assertTrue(accepted >= 1 && accepted <= 40, "accepted " + accepted + " of 40 publications");
        assertEquals(0, operator.count(Reason.REPLAYED) + operator.count(Reason.BAD_SIGNATURE) + operator.count(Reason.MALFORMED));
    }

    @Test
    void tamperedReading_rejectedBadSignature_thenGenuineAccepted() throws Exception {
        assertEquals(Reason.ACCEPTED, publish("1500.00,a"));
        assertEquals(Reason.BAD_SIGNATURE, observe(sensor.publishTampered("1500.00,b").sequence()).verdict().reason());
        SignedReading good = new ReadingSigner(signer).sign("1500.00,c");
        byte[] flipped = good.signature().clone();
        flipped[10] ^= 0x40;
        assertEquals(Reason.BAD_SIGNATURE,
                observe(sensor.publishSigned(new SignedReading(good.reading(), good.index(), flipped)).sequence()).verdict().reason());
        assertEquals(Reason.BAD_SIGNATURE, observe(sensor.publishSigned(
                new SignedReading(good.reading(), good.index() + 7, good.signature())).sequence()).verdict().reason(),
                "moving a valid reading to another index breaks the signature");
        assertEquals(Reason.ACCEPTED, observe(sensor.publishSigned(good).sequence()).verdict().reason(),
                "rejected forgeries must not consume the genuine index");
    }

    @Test
    void replayedAndReorderedReadings_rejectedReplayed() throws Exception {
        ReadingSigner rs = new ReadingSigner(signer);
        SignedReading r1 = rs.sign("1500.00,1");
        SignedReading r2 = rs.sign("1500.00,2");
        assertEquals(Reason.ACCEPTED, observe(sensor.publishSigned(r2).sequence()).verdict().reason());
        assertEquals(Reason.REPLAYED, observe(sensor.publishSigned(r1).sequence()).verdict().reason(), "reordered");
        assertEquals(Reason.REPLAYED, observe(sensor.publishSigned(r2).sequence()).verdict().reason(), "replayed");
        assertEquals(Reason.ACCEPTED, publish("1500.00,3"));
    }

    @Test
    void garbageOnNodes_rejectedMalformed_consoleKeepsRunning() throws Exception {
        Object[][] garbage = {
            {42, "not bytes", "not an index"},
            {null, null, null},
            {"", ByteString.of(new byte[0]), Unsigned.uint(5)},
            {"x".repeat(100_000), ByteString.of(new byte[1_000_000]), Unsigned.uint(6)},
            {"1500.00,x", ByteString.of(new byte[64]), 7L},
            {new String[] {"array"}, ByteString.of(new byte[3]), Unsigned.uint(9)},
            {"1500.00,x", ByteString.of(new byte[63]), Unsigned.uint(10)},
        };
        for (Object[] g : garbage) {
            Operator.Observation o = observe(sensor.publishRaw(g[0], g[1], g[2]));
            assertEquals(Reason.MALFORMED, o.verdict().reason(), o.verdict().detail());
        }
        // larger than an OPC UA message may be: the Read fails, the operator rejects and carries on
        Operator.Observation huge = observe(sensor.publishRaw("1500.00,x", ByteString.of(new byte[8_000_000]), Unsigned.uint(12)));
        assertEquals(Reason.MALFORMED, huge.verdict().reason(), huge.verdict().detail());
        // right shape, but a zero signature: verified and refused
        assertEquals(Reason.BAD_SIGNATURE, observe(sensor.publishRaw("1500.00,x", ByteString.of(new byte[64]),
                Unsigned.uint(11))).verdict().reason());
        assertEquals(Reason.ACCEPTED, publish("1500.00,after-garbage"));
        assertEquals(garbage.length + 1, operator.count(Reason.MALFORMED));
    }

    /** Seeded random values of random types on the three nodes: never accepted, never fatal. */
    @Test
    void randomGarbageOnNodes_neverAccepted_consoleSurvives() throws Exception {
        java.util.Random rnd = new java.util.Random(20261130);
        for (int i = 0; i < 40; i++) {
            Object raw = randomValue(rnd);
            Object sig = randomValue(rnd);
            Object idx = randomValue(rnd);
            Operator.Observation o = observe(sensor.publishRaw(raw, sig, idx));
            assertFalse(o.verdict().accepted(), "garbage accepted: " + o);
        }
        assertEquals(Reason.ACCEPTED, publish("1500.00,after-random-garbage"));
    }

    private static Object randomValue(java.util.Random rnd) {
        switch (rnd.nextInt(8)) {
            case 0:
                return null;
            case 1: {
                byte[] b = new byte[rnd.nextInt(3) == 0 ? 64 : rnd.nextInt(20_000)];
                rnd.nextBytes(b);
                return ByteString.of(b);
            }
            case 2: {
                char[] c = new char[rnd.nextInt(200)];
                for (int j = 0; j < c.length; j++) {
                    c[j] = (char) rnd.nextInt(0xD800); // any BMP character outside surrogates, controls included
                }
                return new String(c);
            }
            case 3:
                return Unsigned.uint(rnd.nextInt() & 0xffffffffL);
            case 4:
                return rnd.nextLong();
            case 5:
                return rnd.nextDouble();
            case 6:
                return rnd.nextBoolean();
            default:
                return new int[] {rnd.nextInt(), rnd.nextInt()};
        }
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
        sensor = SensorServer.start(new SensorServer.Config("s1", dir.resolve("sensor"), "127.0.0.1", port, TransportSecurity.NONE),
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
        sensor = SensorServer.start(new SensorServer.Config("s1", dir.resolve("sensor"), "127.0.0.1", port, TransportSecurity.NONE),
                new SensorKey(signer, key.keyId()));
        // The restarted server's sequence starts again at 1; wait for the client to resubscribe.
        Operator.Observation o = null;
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
        Operator.Observation again = observe(p.sequence());
        assertEquals(Reason.REPLAYED, again.verdict().reason());
        assertEquals(Reason.REPLAYED, observe(sensor.publishSigned(p.reading()).sequence()).verdict().reason());
        assertEquals(Reason.ACCEPTED, publish("1500.00,after"));
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
        operator = new Operator(new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(guard, List.of(
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
                byte[] message = ReadingMessage.encode(Ed25519TestDouble.PARAMS.setName(), index,
                        text.getBytes(StandardCharsets.UTF_8));
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
            StatusCode sc = raw.writeValues(List.of(sensor.nodeId(SensorNodes.INDEX)),
                    List.of(new DataValue(new Variant(Unsigned.uint(999))))).get(0);
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
                SensorServer.Config.loopback("sec", dir.resolve("secure-sensor"), TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT),
                new SensorKey(signer, key.keyId()));
                ReplayGuard g = ReplayGuard.inDirectory(dir.resolve("replay-sec"));
                Operator op = new Operator(new Operator.Config(dir.resolve("secure-operator"),
                        TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT, 2),
                        new ReadingVerifier(g, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        obs::add)) {
            assertThrows(java.io.IOException.class, () -> op.connect("sec", secure.endpointUrl()),
                    "operator must not trust an unknown server certificate");
            op.trustServer(secure.applicationCertificate());
            assertThrows(java.io.IOException.class, () -> op.connect("sec", secure.endpointUrl()),
                    "server must not trust an unknown client certificate");
            secure.trustClient(op.applicationCertificate());
            op.connect("sec", secure.endpointUrl());
            obs.clear();
            SensorServer.Publication p = secure.publish("1500.00,secure");
            Operator.Observation o = observe(p.sequence());
            assertEquals("sec", o.sensor());
            assertEquals(Reason.ACCEPTED, o.verdict().reason());
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files
                    .getPosixFilePermissions(dir.resolve("secure-sensor").resolve("pki").resolve("sensor-application.pfx"))),
                    "the application key store must be readable by its owner only");
        }
    }
}
