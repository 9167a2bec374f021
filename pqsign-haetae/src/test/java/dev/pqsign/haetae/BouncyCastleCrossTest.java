package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyPairGenerator;
import org.bouncycastle.pqc.crypto.haetae.HAETAEParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPublicKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cross-checks with BouncyCastle 1.87's HAETAE (which signs like v1.1.2): same keys from the same
 * seed, identical v1.1.2 signatures from the same randomness, and mutual verification.
 */
class BouncyCastleCrossTest {
    private static final int ROUNDS = 12;

    static HAETAEParameters bc(HaetaeParameterSet p) {
        switch (p) {
            case HAETAE_2:
                return HAETAEParameters.haetae2;
            case HAETAE_3:
                return HAETAEParameters.haetae3;
            default:
                return HAETAEParameters.haetae5;
        }
    }

    private static AsymmetricCipherKeyPair bcKeys(HaetaeParameterSet p, byte[] seed) {
        HAETAEKeyPairGenerator g = new HAETAEKeyPairGenerator();
        g.init(new HAETAEKeyGenerationParameters(new FixedRandom(seed), bc(p)));
        return g.generateKeyPair();
    }

    /**
     * BouncyCastle 1.87 passes its "context" straight through as the reference's internal prefix
     * {@code pre}; the reference's context API (which we implement) uses pre = len(ctx) || ctx.
     */
    static byte[] pre(byte[] ctx) {
        byte[] pre = new byte[ctx.length + 1];
        pre[0] = (byte) ctx.length;
        System.arraycopy(ctx, 0, pre, 1, ctx.length);
        return pre;
    }

    private static byte[] bcSign(AsymmetricCipherKeyPair kp, byte[] ctx, byte[] rnd, byte[] msg) {
        HAETAESigner s = new HAETAESigner();
        s.init(
                true,
                new ParametersWithContext(new ParametersWithRandom(kp.getPrivate(), new FixedRandom(rnd)), pre(ctx)));
        return s.generateSignature(msg);
    }

    private static boolean bcVerify(AsymmetricCipherKeyPair kp, byte[] ctx, byte[] msg, byte[] sig) {
        HAETAESigner s = new HAETAESigner();
        s.init(false, new ParametersWithContext(kp.getPublic(), pre(ctx)));
        return s.verifySignature(msg, sig);
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void sameSeedAndRandomness_giveIdenticalKeysAndV112Signatures(HaetaeParameterSet p) {
        Random r = new Random(0xBC0000 + p.ordinal());
        for (int i = 0; i < ROUNDS; i++) {
            byte[] seed = bytes(r, 32);
            byte[] rnd = bytes(r, 32);
            byte[] msg = bytes(r, r.nextInt(200));
            byte[] ctx = bytes(r, r.nextInt(3) == 0 ? 0 : r.nextInt(256));
            AsymmetricCipherKeyPair theirs = bcKeys(p, seed);
            HaetaeKeyPair ours = HaetaeKeyPairGenerator.fromSeed(p, seed);
            assertArrayEquals(
                    ((HAETAEPublicKeyParameters) theirs.getPublic()).getEncoded(),
                    ours.publicKey().getEncoded(),
                    "public key, round " + i);
            assertArrayEquals(
                    ((HAETAEPrivateKeyParameters) theirs.getPrivate()).getEncoded(),
                    ours.privateKey().getEncoded(),
                    "private key, round " + i);
            byte[] bcSig = bcSign(theirs, ctx, rnd, msg);
            HaetaeSigner signer = new HaetaeSigner(
                    ours.privateKey(), ctx, HaetaeSampler.V1_1_2, HaetaeEngine.FAST, new FixedRandom(rnd));
            assertArrayEquals(bcSig, signer.sign(msg, ctx), "v1.1.2 signature, round " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void eachVerifiesTheOther_includingV120Signatures(HaetaeParameterSet p) {
        Random r = new Random(0xBC1000 + p.ordinal());
        for (int i = 0; i < ROUNDS; i++) {
            byte[] seed = bytes(r, 32);
            byte[] msg = bytes(r, 1 + r.nextInt(300));
            byte[] ctx = bytes(r, r.nextInt(40));
            AsymmetricCipherKeyPair theirs = bcKeys(p, seed);
            HaetaeKeyPair ours = HaetaeKeyPairGenerator.fromSeed(p, seed);
            HaetaeVerifier verifier = new HaetaeVerifier(ours.publicKey());

            byte[] bcSig = bcSign(theirs, ctx, bytes(r, 32), msg);
            assertTrue(verifier.verify(msg, ctx, bcSig), "we accept BC's signature, round " + i);
            assertFalse(verifier.verify(msg, bytes(r, ctx.length + 1), bcSig), "other context, round " + i);

            for (HaetaeSampler s : HaetaeSampler.values()) {
                HaetaeSigner signer =
                        new HaetaeSigner(ours.privateKey(), ctx, s, HaetaeEngine.FAST, new FixedRandom(bytes(r, 32)));
                byte[] sig = signer.sign(msg);
                assertTrue(bcVerify(theirs, ctx, msg, sig), "BC accepts our " + s + " signature, round " + i);
                sig[r.nextInt(sig.length)] ^= (byte) (1 << r.nextInt(8));
                assertFalse(verifier.verify(msg, ctx, sig), "we reject a flipped bit, round " + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void bcWithoutContext_signsWithoutTheLengthByte_soOnlyItsOwnVerifierAccepts(HaetaeParameterSet p) {
        Random r = new Random(0xBC2000 + p.ordinal());
        byte[] seed = bytes(r, 32);
        byte[] msg = bytes(r, 64);
        AsymmetricCipherKeyPair theirs = bcKeys(p, seed);
        HAETAESigner s = new HAETAESigner();
        s.init(true, new ParametersWithRandom(theirs.getPrivate(), new FixedRandom(bytes(r, 32))));
        byte[] sig = s.generateSignature(msg);
        HaetaeVerifier verifier =
                new HaetaeVerifier(HaetaeKeyPairGenerator.fromSeed(p, seed).publicKey());
        assertFalse(verifier.verify(msg, new byte[0], sig), "BC's no-context signature has pre = empty, not 0x00");
        HAETAESigner v = new HAETAESigner();
        v.init(false, theirs.getPublic());
        assertTrue(v.verifySignature(msg, sig));
    }

    static byte[] bytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
