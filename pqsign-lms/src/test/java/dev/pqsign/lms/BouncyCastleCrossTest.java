package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.stream.Stream;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.generators.HSSKeyPairGenerator;
import org.bouncycastle.crypto.params.HSSKeyGenerationParameters;
import org.bouncycastle.crypto.params.HSSPublicKeyParameters;
import org.bouncycastle.crypto.params.LMOtsParameters;
import org.bouncycastle.crypto.params.LMSParameters;
import org.bouncycastle.crypto.params.LMSigParameters;
import org.bouncycastle.crypto.signers.HSSSigner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BouncyCastle 1.87 and pqsign check each other's HSS signatures for every hash family (SHA-256,
 * SHA-256/192, SHAKE256/256, SHAKE256/192), each Winternitz width and one and two levels.
 */
class BouncyCastleCrossTest {

    static Stream<String> sets() {
        return Stream.of(
                "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W1",
                "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8",
                "LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W2",
                "LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8+LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4",
                "LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W4",
                "LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W8+LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W2",
                "LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W8",
                "LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W1+LMS_SHAKE_M24_H5/LMOTS_SHAKE_N24_W4");
    }

    static LMSParameters bc(LmsParameterSet p) {
        return LMSParameters.create(
                LMSigParameters.getParametersForType(p.lmsType().typeCode()),
                LMOtsParameters.getParametersForType(p.otsType().typeCode()));
    }

    static boolean bcVerifies(byte[] publicKey, byte[] msg, byte[] sig) throws Exception {
        HSSSigner v = new HSSSigner();
        v.init(false, HSSPublicKeyParameters.getInstance(publicKey));
        return v.verifySignature(msg, sig);
    }

    @ParameterizedTest
    @MethodSource("sets")
    void pqsignSignatures_verifyWithBouncyCastle(String name) throws Exception {
        HssParameterSet params = HssTesting.set(name);
        HssPrivateKey key = HssTesting.key(params, 40);
        byte[] pub = key.publicKey().encoded();
        // Indices at the start, across the lower tree's switch and at the end.
        long max = params.maxSignatures();
        for (long start : new long[] {0, 30, max - 2}) {
            try (HssStatefulSigner s = HssStatefulSigner.open(
                    HssTesting.storeAt(key, start, max),
                    HssSignerOptions.defaults().withThreads(2))) {
                for (long i = start; i < Math.min(start + 3, max); i++) {
                    byte[] sig = s.sign(HssTesting.msg(i));
                    assertTrue(bcVerifies(pub, HssTesting.msg(i), sig), name + " index " + i);
                    byte[] bad = sig.clone();
                    bad[bad.length / 2] ^= 1;
                    assertFalse(bcVerifies(pub, HssTesting.msg(i), bad));
                }
            }
        }
    }

    /** Hands out the bytes 0, 1, 2, … (BouncyCastle draws the top SEED first, then I). */
    private static final class CountingRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private int next;

        @Override
        public void nextBytes(byte[] out) {
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) next++;
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void sameSeedAndI_bouncyCastleAndPqsign_makeIdenticalKeysAndSignatures(String name) throws Exception {
        HssParameterSet params = HssTesting.set(name);
        LMSParameters[] levels =
                params.levelList().stream().map(BouncyCastleCrossTest::bc).toArray(LMSParameters[]::new);
        HSSKeyPairGenerator gen = new HSSKeyPairGenerator();
        gen.init(new HSSKeyGenerationParameters(levels, new CountingRandom()));
        AsymmetricCipherKeyPair kp = gen.generateKeyPair();
        int n = params.top().n();
        byte[] seed = new byte[n];
        byte[] id = new byte[16];
        for (int i = 0; i < n; i++) {
            seed[i] = (byte) i;
        }
        for (int i = 0; i < 16; i++) {
            id[i] = (byte) (n + i);
        }
        HssPrivateKey key = HssKeyGenerator.fromSeed(params, seed, id, 2, null);
        assertArrayEquals(
                ((HSSPublicKeyParameters) kp.getPublic()).getEncoded(),
                key.publicKey().encoded());
        HSSSigner bc = new HSSSigner();
        bc.init(true, kp.getPrivate());
        try (HssStatefulSigner s = HssStatefulSigner.open(
                HssTesting.storeAt(key, 0, params.maxSignatures()),
                HssSignerOptions.defaults().withThreads(2))) {
            for (int i = 0; i < 3; i++) {
                byte[] msg = HssTesting.msg(i);
                assertArrayEquals(bc.generateSignature(msg), s.sign(msg), name + " signature " + i);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("sets")
    void bouncyCastleSignatures_verifyWithPqsign(String name) throws Exception {
        HssParameterSet params = HssTesting.set(name);
        LMSParameters[] levels =
                params.levelList().stream().map(BouncyCastleCrossTest::bc).toArray(LMSParameters[]::new);
        HSSKeyPairGenerator gen = new HSSKeyPairGenerator();
        gen.init(new HSSKeyGenerationParameters(levels, new SecureRandom()));
        AsymmetricCipherKeyPair kp = gen.generateKeyPair();
        byte[] pubBytes = ((HSSPublicKeyParameters) kp.getPublic()).getEncoded();
        HssPublicKey pub = HssPublicKey.decode(params, pubBytes);
        assertArrayEquals(pubBytes, pub.encoded());
        HssVerifier verifier = new HssVerifier(pub, params);
        HSSSigner signer = new HSSSigner();
        signer.init(true, kp.getPrivate());
        // 30: a one-level key of height 5 has 32 signatures.
        for (int i = 0; i < 30; i++) {
            byte[] msg = HssTesting.msg(i);
            byte[] sig = signer.generateSignature(msg);
            assertTrue(verifier.verify(msg, sig), name + " BouncyCastle signature " + i);
            assertTrue(HssVerifier.verifyAnyLowerLevels(pub, msg, sig));
            byte[] bad = Arrays.copyOf(sig, sig.length);
            bad[7 + i] ^= 0x40;
            assertFalse(verifier.verify(msg, bad));
        }
    }
}
