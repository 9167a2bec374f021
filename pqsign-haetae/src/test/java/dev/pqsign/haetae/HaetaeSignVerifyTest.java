package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HaetaeSignVerifyTest {

    private static HaetaeKeyPair keys(HaetaeParameterSet p, int seed) {
        byte[] s = new byte[32];
        new Random(seed).nextBytes(s);
        return HaetaeKeyPairGenerator.fromSeed(p, s);
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void sizes_matchReferenceConstants(HaetaeParameterSet p) {
        int[] pk = {992, 1472, 2080};
        int[] sk = {1408, 2112, 2752};
        int[] sig = {1474, 2349, 2948};
        assertEquals(pk[p.ordinal()], p.publicKeyBytes());
        assertEquals(sk[p.ordinal()], p.privateKeyBytes());
        assertEquals(sig[p.ordinal()], p.signatureBytes());
        HaetaeKeyPair kp = keys(p, 1);
        assertEquals(p.publicKeyBytes(), kp.publicKey().getEncoded().length);
        assertEquals(p.privateKeyBytes(), kp.privateKey().getEncoded().length);
        assertFalse(p.isStateful());
        assertSame(p, HaetaeParameterSet.fromName(p.setName()));
        assertSame(p, HaetaeParameterSet.fromName(p.oid()));
        assertSame(p, HaetaeParameterSet.fromName(p.katName()));
    }

    @Test
    void fromName_unknown_throwsListingChoices() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> HaetaeParameterSet.fromName("HAETAE-4"));
        assertTrue(e.getMessage().contains("HAETAE-2, HAETAE-3, HAETAE-5"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void sign_thenVerify_acceptsOnlyTheSameMessageContextAndKey(HaetaeParameterSet p) {
        HaetaeKeyPair kp = keys(p, 2);
        HaetaeKeyPair other = keys(p, 3);
        byte[] msg = "rpm=1480;t=2026-11-30T01:00:00Z".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] ctx = "opcua/telemetry".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (HaetaeSampler s : HaetaeSampler.values()) {
            HaetaeSigner signer = new HaetaeSigner(kp.privateKey(), ctx, s, HaetaeEngine.FAST, new SecureRandom());
            byte[] sig = signer.sign(msg);
            assertEquals(p.signatureBytes(), sig.length);
            HaetaeVerifier v = new HaetaeVerifier(kp.publicKey(), ctx, HaetaeEngine.FAST);
            assertTrue(v.verify(msg, sig));
            assertFalse(v.verify(msg, new byte[0], sig), "empty context");
            byte[] other2 = msg.clone();
            other2[0] ^= 1;
            assertFalse(v.verify(other2, sig), "other message");
            assertFalse(new HaetaeVerifier(other.publicKey(), ctx, HaetaeEngine.FAST).verify(msg, sig), "other key");
            // signatures are randomised
            assertFalse(Arrays.equals(sig, signer.sign(msg)));
        }
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void verify_malformedLengthsAndContexts_returnFalseWithoutThrowing(HaetaeParameterSet p) {
        HaetaeKeyPair kp = keys(p, 4);
        byte[] msg = {1, 2, 3};
        byte[] sig = new HaetaeSigner(kp.privateKey()).sign(msg);
        HaetaeVerifier v = new HaetaeVerifier(kp.publicKey());
        assertTrue(v.verify(msg, sig));
        assertFalse(v.verify(msg, new byte[0]));
        assertFalse(v.verify(msg, Arrays.copyOf(sig, sig.length - 1)));
        assertFalse(v.verify(msg, Arrays.copyOf(sig, sig.length + 1)));
        assertFalse(v.verify(msg, new byte[256], sig), "context of 256 bytes");
        assertThrows(IllegalArgumentException.class, () -> new HaetaeSigner(kp.privateKey()).sign(msg, new byte[256]));
        assertThrows(NullPointerException.class, () -> v.verify(null, sig));
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void verify_nonzeroPaddingOrBadSizeFields_returnsFalse(HaetaeParameterSet p) {
        HaetaeKeyPair kp = keys(p, 5);
        HaetaeSigner signer = new HaetaeSigner(kp.privateKey());
        HaetaeVerifier v = new HaetaeVerifier(kp.publicKey());
        byte[] msg = new byte[10];
        int sizeField = 32 + p.l() * 256;
        for (int attempt = 0; attempt < 20; attempt++) {
            msg[0] = (byte) attempt;
            byte[] sig = signer.sign(msg);
            int used =
                    sizeField + 2 + (sig[sizeField] & 0xff) + p.baseEncHbZ1 + (sig[sizeField + 1] & 0xff) + p.baseEncH;
            byte[] bad = sig.clone();
            bad[sizeField] = (byte) 0xff;
            assertFalse(v.verify(msg, bad), "size field of HighBits(z1) code");
            bad = sig.clone();
            bad[sizeField + 1] = (byte) (bad[sizeField + 1] + 1);
            assertFalse(v.verify(msg, bad), "size field of hint code");
            if (used < sig.length) {
                bad = sig.clone();
                bad[sig.length - 1] = 1;
                assertFalse(v.verify(msg, bad), "nonzero padding");
                return;
            }
        }
        throw new AssertionError("no signature with padding in 20 attempts");
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void verify_randomGarbage_neverThrowsAndRejects(HaetaeParameterSet p) {
        HaetaeKeyPair kp = keys(p, 6);
        HaetaeVerifier v = new HaetaeVerifier(kp.publicKey());
        Random r = new Random(7);
        byte[] msg = {42};
        byte[] sig = new HaetaeSigner(kp.privateKey()).sign(msg);
        for (int i = 0; i < 300; i++) {
            byte[] g = new byte[p.signatureBytes()];
            r.nextBytes(g);
            if (i % 3 == 1) {
                // keep a plausible prefix, scramble the entropy-coded tail
                System.arraycopy(sig, 0, g, 0, 32 + p.l() * 256 + 2);
            }
            assertFalse(v.verify(msg, g));
        }
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void keyGeneration_isDeterministicInTheSeed(HaetaeParameterSet p) {
        assertArrayEquals(
                keys(p, 8).privateKey().getEncoded(), keys(p, 8).privateKey().getEncoded());
        assertNotEquals(keys(p, 8).publicKey(), keys(p, 9).publicKey());
        assertEquals(keys(p, 8).publicKey(), keys(p, 8).publicKey());
        assertThrows(IllegalArgumentException.class, () -> HaetaeKeyPairGenerator.fromSeed(p, new byte[31]));
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void keys_roundTripAndRejectMalformedEncodings(HaetaeParameterSet p) {
        HaetaeKeyPair kp = keys(p, 10);
        byte[] pk = kp.publicKey().getEncoded();
        byte[] sk = kp.privateKey().getEncoded();
        assertEquals(kp.publicKey(), HaetaePublicKey.fromEncoded(pk));
        assertArrayEquals(sk, HaetaePrivateKey.fromEncoded(p, sk).getEncoded());
        KeyFormatException e = assertThrows(
                KeyFormatException.class, () -> HaetaePublicKey.fromEncoded(p, Arrays.copyOf(pk, pk.length - 1)));
        assertTrue(e.getMessage().contains("expected") || e.getMessage().contains("must be"), e.getMessage());
        assertThrows(KeyFormatException.class, () -> HaetaePrivateKey.fromEncoded(p, Arrays.copyOf(sk, sk.length + 1)));
        assertThrows(KeyFormatException.class, () -> HaetaePublicKey.fromEncoded(new byte[100]));
        // an s1 coefficient encoded as 3 (out of range)
        byte[] badS1 = sk.clone();
        badS1[p.publicKeyBytes()] |= 3;
        assertThrows(KeyFormatException.class, () -> HaetaePrivateKey.fromEncoded(p, badS1));
        // an s2 coefficient out of range
        byte[] badS2 = sk.clone();
        badS2[p.publicKeyBytes() + (p.l() - 1) * 64] |= (byte) (p.k() == 4 ? 3 : 7);
        assertThrows(KeyFormatException.class, () -> HaetaePrivateKey.fromEncoded(p, badS2));
        if (p == HaetaeParameterSet.HAETAE_5) {
            byte[] badPk = pk.clone();
            badPk[32] = (byte) 0xff;
            badPk[33] = (byte) 0xff;
            assertThrows(KeyFormatException.class, () -> HaetaePublicKey.fromEncoded(p, badPk));
        }
    }

    @ParameterizedTest
    @EnumSource(HaetaeParameterSet.class)
    void privateKey_toString_revealsNoSecretBytes_andDestroyWipes(HaetaeParameterSet p) {
        HaetaePrivateKey key = keys(p, 11).privateKey();
        byte[] sk = key.getEncoded();
        String secretHex = Hex.encode(sk, p.publicKeyBytes(), sk.length - p.publicKeyBytes());
        String s = key.toString();
        for (int i = 0; i + 8 <= secretHex.length(); i += 8) {
            assertFalse(s.toLowerCase(Locale.ROOT).contains(secretHex.substring(i, i + 8)), s);
        }
        assertTrue(s.contains(p.setName()));
        key.destroy();
        assertTrue(key.isDestroyed());
        assertThrows(IllegalStateException.class, key::getEncoded);
    }
}
