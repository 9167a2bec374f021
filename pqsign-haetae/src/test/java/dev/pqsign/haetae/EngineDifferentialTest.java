package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * FAST and COMPACT must be indistinguishable: byte-identical keys and signatures for the same inputs,
 * and the same verdict on valid and tampered signatures.
 */
class EngineDifferentialTest {

    static Stream<Arguments> cases() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            for (HaetaeSampler s : HaetaeSampler.values()) {
                b.add(Arguments.of(p, s));
            }
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void fastAndCompact_agreeOnKeysSignaturesAndVerdicts(HaetaeParameterSet p, HaetaeSampler s) {
        run(p, s, 40, 0xD1FF + 31 * p.ordinal() + s.ordinal());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void fastAndCompact_agreeOnThousandsOfCases(HaetaeParameterSet p, HaetaeSampler s) {
        run(p, s, 600, 0x10D1FF + 31 * p.ordinal() + s.ordinal());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void compactEngine_replayingUnrecordedDraws_stillAgrees(HaetaeParameterSet p, HaetaeSampler s) {
        // the compact signer records the fate of the first draws of each Gaussian stream and replays
        // the rest in full; a context with a low limit sends most draws down the full-replay path
        CompactEngine.Context lowLimit = new CompactEngine.Context(CompactEngine.Op.SIGN, 9);
        Random r = new Random(0xFA7E + 31 * p.ordinal() + s.ordinal());
        for (int i = 0; i < 6; i++) {
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(p, bytes(r, 32));
            byte[] msg = bytes(r, r.nextInt(120));
            byte[] ctx = bytes(r, r.nextInt(4) == 0 ? 0 : r.nextInt(256));
            byte[] rnd = bytes(r, 32);
            byte[] fast =
                    new HaetaeSigner(kp.privateKey(), ctx, s, HaetaeEngine.FAST, new FixedRandom(rnd)).sign(msg, ctx);
            byte[] replayed = new byte[p.signatureBytes()];
            CompactSign.sign(
                    p,
                    s,
                    lowLimit,
                    kp.privateKey().encodedRef(),
                    0,
                    msg,
                    0,
                    msg.length,
                    ctx,
                    0,
                    ctx.length,
                    rnd,
                    0,
                    replayed,
                    0);
            assertArrayEquals(fast, replayed, "signature, case " + i);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void compactEngine_reproducesFirstKatRecords(HaetaeParameterSet p, HaetaeSampler s) {
        String expected = KatFiles.resource(KatFiles.dir(s) + "/PQCsignKAT_" + p.katName() + ".head3.rsp");
        String actual = new String(KatFiles.generate(p, s, HaetaeEngine.COMPACT, 3), StandardCharsets.US_ASCII);
        assertEquals(null, KatFiles.firstDifference(expected, actual));
    }

    private static void run(HaetaeParameterSet p, HaetaeSampler s, int rounds, long seed) {
        Random r = new Random(seed);
        int valid = 0;
        for (int i = 0; i < rounds; i++) {
            byte[] kseed = bytes(r, 32);
            HaetaeKeyPair fast = HaetaeKeyPairGenerator.fromSeed(p, kseed, HaetaeEngine.FAST);
            HaetaeKeyPair compact = HaetaeKeyPairGenerator.fromSeed(p, kseed, HaetaeEngine.COMPACT);
            assertArrayEquals(
                    fast.privateKey().getEncoded(), compact.privateKey().getEncoded(), "keys, case " + i);
            byte[] msg = bytes(r, r.nextInt(120));
            byte[] ctx = bytes(r, r.nextInt(4) == 0 ? 0 : r.nextInt(256));
            byte[] rnd = bytes(r, 32);
            byte[] sigF =
                    new HaetaeSigner(fast.privateKey(), ctx, s, HaetaeEngine.FAST, new FixedRandom(rnd)).sign(msg, ctx);
            byte[] sigC = new HaetaeSigner(fast.privateKey(), ctx, s, HaetaeEngine.COMPACT, new FixedRandom(rnd))
                    .sign(msg, ctx);
            assertArrayEquals(sigF, sigC, "signature, case " + i);
            HaetaeVerifier vf = new HaetaeVerifier(fast.publicKey(), ctx, HaetaeEngine.FAST);
            HaetaeVerifier vc = new HaetaeVerifier(fast.publicKey(), ctx, HaetaeEngine.COMPACT);
            byte[] probe = sigF.clone();
            switch (i % 4) {
                case 0:
                    break; // untouched
                case 1:
                    probe[r.nextInt(probe.length)] ^= (byte) (1 << r.nextInt(8));
                    break;
                case 2:
                    // tamper inside the rANS region or the size bytes
                    probe[32 + p.l() * 256 + r.nextInt(probe.length - 32 - p.l() * 256)] ^= (byte) (1 << r.nextInt(8));
                    break;
                default:
                    r.nextBytes(probe);
                    break;
            }
            boolean f = vf.verify(msg, probe);
            assertEquals(f, vc.verify(msg, probe), "verdict, case " + i + " (" + (i % 4) + ")");
            if (i % 4 == 0) {
                assertTrue(f, "untouched signature verifies, case " + i);
            }
            valid += f ? 1 : 0;
        }
        assertTrue(valid >= (rounds + 3) / 4, "at least the untouched signatures verify");
    }

    static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
