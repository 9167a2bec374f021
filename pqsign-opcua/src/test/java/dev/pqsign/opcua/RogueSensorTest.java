package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Garbage on the sensor's record node, from a {@link RogueSensor} (a real Milo server on loopback):
 * the operator rejects every value with a reason and keeps verifying the genuine records after it.
 */
class RogueSensorTest {

    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final BlockingQueue<Observation> obs = new LinkedBlockingQueue<>();
    private SequencedSigner signer;
    private RogueSensor rogue;
    private ReplayGuard guard;
    private Operator operator;
    private long sequence = System.currentTimeMillis() * 1000;

    @BeforeEach
    void start() throws Exception {
        signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
        rogue = RogueSensor.start(dir.resolve("rogue"), key.keyId(), Ed25519TestDouble.PARAMS.setName());
        guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        operator = new Operator(
                new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                new ReadingVerifier(
                        guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                obs::add);
        operator.connect("s1", rogue.endpointUrl());
    }

    @AfterEach
    void stop() throws Exception {
        operator.close();
        guard.close();
        rogue.close();
        signer.close();
    }

    /** Signs {@code reading} and puts its record on the record node, as a sensor would. */
    private SignedRecord publish(String reading) {
        long signStart = System.nanoTime();
        SignedReading r = new ReadingSigner(signer).sign(reading);
        long published = System.nanoTime();
        SignedRecord record = SignedRecord.of(
                key.keyId(),
                Ed25519TestDouble.PARAMS.setName(),
                r,
                Instant.now(),
                ++sequence,
                published - signStart,
                signStart,
                published);
        rogue.publish(record);
        return record;
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

    /** The next observation (for values that carry no publication sequence). */
    private Observation next() throws InterruptedException {
        Observation o = obs.poll(20, TimeUnit.SECONDS);
        assertNotNull(o, "no observation");
        return o;
    }

    @Test
    void garbageOnRecordNode_rejectedMalformed_consoleKeepsRunning() throws Exception {
        byte[] valid = publish("1500.00,valid").encode();
        assertEquals(Reason.ACCEPTED, next().verdict().reason());
        byte[] truncated = java.util.Arrays.copyOf(valid, valid.length - 1);
        byte[] badVersion = valid.clone();
        badVersion[4] = 2;
        Object[] garbage = {
            42,
            "not bytes",
            ByteString.of(new byte[0]),
            ByteString.of(new byte[1_000]),
            ByteString.of(truncated),
            ByteString.of(badVersion),
            new String[] {"array"},
            Unsigned.uint(7)
        };
        for (Object g : garbage) {
            rogue.putRecord(g);
            Observation o = obs.poll(20, TimeUnit.SECONDS);
            assertNotNull(o, "no observation for " + g);
            assertEquals(Reason.MALFORMED, o.verdict().reason(), o.verdict().detail());
        }
        // right shape, but a zeroed signature: verified and refused
        SignedReading good = new ReadingSigner(signer).sign("1500.00,x");
        SignedRecord zeroed = SignedRecord.of(
                key.keyId(),
                Ed25519TestDouble.PARAMS.setName(),
                new SignedReading(good.reading(), good.index(), new byte[64]),
                Instant.now(),
                1,
                0,
                0,
                0);
        rogue.putRecord(ByteString.of(zeroed.encode()));
        assertEquals(Reason.BAD_SIGNATURE, next().verdict().reason());
        assertEquals(
                Reason.ACCEPTED,
                observe(publish("1500.00,after-garbage").sequence()).verdict().reason());
        assertEquals(garbage.length, operator.count(Reason.MALFORMED));
    }

    /** Seeded random values of random types, and random bytes after the record magic: never accepted, never fatal. */
    @Test
    void randomGarbageOnRecordNode_neverAccepted_consoleSurvives() throws Exception {
        java.util.Random rnd = new java.util.Random(20261130);
        for (int i = 0; i < 40; i++) {
            Object value = randomValue(rnd);
            if (i % 2 == 0) {
                byte[] b = new byte[rnd.nextInt(400)];
                rnd.nextBytes(b);
                System.arraycopy(new byte[] {'P', 'Q', 'S', 'R', 1, 0}, 0, b, 0, Math.min(6, b.length));
                value = ByteString.of(b);
            }
            rogue.putRecord(value == null ? "null" : value);
            Observation o = next();
            assertFalse(o.verdict().accepted(), "garbage accepted: " + o);
        }
        assertEquals(
                Reason.ACCEPTED,
                observe(publish("1500.00,after-random-garbage").sequence())
                        .verdict()
                        .reason());
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
}
