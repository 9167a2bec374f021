package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The published test vectors, byte for byte: RFC 8554 Appendix F (test cases 1 and 2) and RFC 9858
 * Appendix A (test cases 1 to 4). Where the RFC publishes SEED and I, the key is generated from them
 * and the signature is made again at the published index: its randomizer C and the lower tree of
 * RFC 8554's test case 2 come out of pqsign's own derivations, which those vectors were made with.
 */
class RfcVectorTest {

    @Test
    void rfc8554TestCase1_verifies_andAnyChangedByteOrMessageDoesNot() {
        Vectors v = Vectors.load("rfc8554-test-case-1.txt");
        HssPublicKey pub = HssPublicKey.decode(v.get("public_key"));
        HssParameterSet params = HssParameterSet.uniform(HssTesting.lms("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8"), 2);
        assertTrue(pub.matches(params));
        assertArrayEquals(v.get("public_key"), pub.encoded());
        HssVerifier verifier = new HssVerifier(pub, params);
        byte[] msg = v.get("message");
        byte[] sig = v.get("signature");
        assertEquals(params.signatureBytes(), sig.length);
        assertTrue(verifier.verify(msg, sig));
        assertTrue(HssVerifier.verifyAnyLowerLevels(pub, msg, sig));
        assertFlipsRejected(verifier, msg, sig);
        assertEquals(5L * 32 + 10, HssSignatures.index(params, sig));
    }

    @Test
    void rfc8554TestCase2_keygenFromSeed_andSignAtIndex100_reproduceThePublishedBytes() {
        Vectors v = Vectors.load("rfc8554-test-case-2.txt");
        HssParameterSet params = HssParameterSet.of(
                HssTesting.lms("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4"),
                HssTesting.lms("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8"));
        HssPrivateKey key = HssKeyGenerator.fromSeed(params, v.get("top_seed"), v.get("top_i"), 2, null);
        assertArrayEquals(v.get("public_key"), key.publicKey().encoded());

        byte[] msg = v.get("message");
        byte[] sig = v.get("signature");
        assertEquals(100, HssSignatures.index(params, sig));
        assertArrayEquals(sig, HssTesting.signAt(key, 100, msg));
        assertTrue(new HssVerifier(key.publicKey(), params).verify(msg, sig));
        assertFlipsRejected(new HssVerifier(key.publicKey(), params), msg, sig);

        // The lower tree is the child the RFC lists under "Test Case 2 Private Key".
        byte[][] child = TreeIds.child(v.get("top_i"), v.get("top_seed"), 3, new TreeHash(params.top()).ots);
        assertArrayEquals(v.get("second_i"), child[0]);
        assertArrayEquals(v.get("second_seed"), child[1]);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void rfc9858_keygenFromSeed_andSignAtPublishedLeaf_reproduceThePublishedBytes(int testCase) {
        Vectors v = Vectors.load("rfc9858-test-case-" + testCase + ".txt");
        HssPublicKey published = HssPublicKey.decode(v.get("public_key"));
        HssParameterSet params = HssParameterSet.of(published.top().parameterSet());
        HssPrivateKey key = HssKeyGenerator.fromSeed(params, v.get("seed"), v.get("i"), 2, null);
        assertArrayEquals(v.get("public_key"), key.publicKey().encoded());
        byte[] msg = v.get("message");
        byte[] sig = v.get("signature");
        long q = HssSignatures.index(params, sig);
        assertArrayEquals(sig, HssTesting.signAt(key, q, msg));
        HssVerifier verifier = new HssVerifier(published);
        assertTrue(verifier.verify(msg, sig));
        assertFlipsRejected(verifier, msg, sig);
    }

    @Test
    void rfc9858TestCase4_verifies_andItsOneTimeSignatureIsReproducedFromTheSeed() {
        // LMS_SHA256_M24_H20: the tree has 2^20 leaves, rebuilt only by the -Plong test below.
        Vectors v = Vectors.load("rfc9858-test-case-4.txt");
        HssPublicKey pub = HssPublicKey.decode(v.get("public_key"));
        HssParameterSet params = HssParameterSet.of(pub.top().parameterSet());
        byte[] msg = v.get("message");
        byte[] sig = v.get("signature");
        HssVerifier verifier = new HssVerifier(pub);
        assertTrue(verifier.verify(msg, sig));
        assertFlipsRejected(verifier, msg, sig);

        int q = (int) HssSignatures.index(params, sig);
        LmOtsType ots = params.top().otsType();
        TreeHash th = new TreeHash(params.top());
        byte[] c = TreeIds.randomizer(v.get("i"), v.get("seed"), q, th.ots);
        byte[] otsSig = new byte[ots.signatureBytes()];
        th.ots.sign(v.get("i"), q, v.get("seed"), c, msg, 0, msg.length, otsSig, 0);
        assertArrayEquals(Arrays.copyOfRange(sig, 8, 8 + otsSig.length), otsSig);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void rfc9858TestCase4_keygenOfTheWholeHeight20Tree_andSignature_long() {
        Vectors v = Vectors.load("rfc9858-test-case-4.txt");
        HssParameterSet params = HssParameterSet.of(
                HssPublicKey.decode(v.get("public_key")).top().parameterSet());
        HssPrivateKey key = HssKeyGenerator.fromSeed(
                params, v.get("seed"), v.get("i"), Runtime.getRuntime().availableProcessors(), null);
        assertArrayEquals(v.get("public_key"), key.publicKey().encoded());
        assertArrayEquals(v.get("signature"), HssTesting.signAt(key, 100, v.get("message")));
    }

    /** Every single-bit change of a few positions spread over the signature, and of the message, fails. */
    static void assertFlipsRejected(HssVerifier verifier, byte[] msg, byte[] sig) {
        for (int pos = 0; pos < sig.length; pos += Math.max(1, sig.length / 97)) {
            byte[] bad = sig.clone();
            bad[pos] ^= (byte) (1 << (pos % 8));
            assertFalse(verifier.verify(msg, bad), "flipped signature byte " + pos);
        }
        byte[] badMsg = msg.clone();
        badMsg[0] ^= 1;
        assertFalse(verifier.verify(badMsg, sig));
        assertFalse(verifier.verify(msg, Arrays.copyOf(sig, sig.length - 1)));
        assertFalse(verifier.verify(msg, Arrays.copyOf(sig, sig.length + 1)));
    }
}
