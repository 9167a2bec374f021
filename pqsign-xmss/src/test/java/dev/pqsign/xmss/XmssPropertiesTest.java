package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Encode/decode round trips and "nothing but the genuine signature verifies". */
class XmssPropertiesTest {
    private static final XmssParameterSet P = XmssParameterSet.XMSSMT_SHA2_20_4_256;
    private static final XmssPrivateKey KEY = XmssStatefulSignerTest.key(P, 11);
    private static final byte[] MSG = "rpm=1500.00;ts=1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SIG;
    private static final XmssVerifier VERIFIER = new XmssVerifier(KEY.publicKey());

    static {
        XmssSigning s = new XmssSigning(KEY);
        SIG = s.sign(123_456, MSG, s.recomputing(2));
    }

    @Provide
    Arbitrary<XmssParameterSet> anySet() {
        return Arbitraries.of(XmssParameterSet.values());
    }

    @Property(tries = 300)
    void publicKey_encodeDecode_roundTrips(@ForAll("anySet") XmssParameterSet p, @ForAll long salt) {
        byte[] root = new byte[p.n()];
        byte[] seed = new byte[p.n()];
        new java.util.Random(salt).nextBytes(root);
        new java.util.Random(~salt).nextBytes(seed);
        XmssPublicKey k = new XmssPublicKey(p, root, seed);
        assertEquals(k, XmssPublicKey.decode(p.family(), k.encoded()));
        assertEquals(k, XmssPublicKey.decodeRaw(p, k.encodedRaw()));
        assertTrue(XmssPublicKey.candidates(k.encoded()).contains(p));
    }

    @Property(tries = 200)
    void keyState_encodeDecode_roundTrips(
            @ForAll @IntRange(min = 0, max = 1 << 20) int next, @ForAll @IntRange(min = 0, max = 1 << 20) int extra) {
        long end = Math.min(P.maxSignatures(), (long) next + extra);
        long n = Math.min(next, end);
        XmssKeyState s = XmssKeyState.fresh(KEY).withRange(n, end);
        byte[] enc = s.encode();
        XmssKeyState back = XmssKeyState.decode(enc);
        assertEquals(n, back.nextIndex());
        assertEquals(end, back.endIndex());
        assertEquals(KEY.publicKey(), back.key().publicKey());
        assertArrayEquals(enc, back.encode());
    }

    @Property(tries = 300)
    void keyState_anyFlippedBit_isRefusedWithClearError(@ForAll @IntRange(min = 0, max = 171 * 8 + 7) int bit) {
        byte[] enc = XmssKeyState.fresh(KEY).withRange(5, 1000).encode();
        enc[bit >>> 3] ^= (byte) (1 << (bit & 7));
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> XmssKeyState.decode(enc));
        assertFalse(e.getMessage().isBlank());
    }

    @Property(tries = 100)
    void keyState_truncatedOrExtended_isRefused(@ForAll @IntRange(min = 0, max = 300) int len) {
        byte[] enc = XmssKeyState.fresh(KEY).withRange(0, 10).encode();
        if (len == enc.length) {
            return;
        }
        byte[] other = java.util.Arrays.copyOf(enc, len);
        assertThrows(KeyFormatException.class, () -> XmssKeyState.decode(other));
    }

    @Property(tries = 250)
    void signature_anyFlippedBit_neverVerifies(@ForAll @IntRange(min = 0, max = 9251 * 8 - 1) int bit) {
        byte[] bad = SIG.clone();
        bad[bit >>> 3] ^= (byte) (1 << (bit & 7));
        assertFalse(VERIFIER.verify(MSG, bad));
    }

    @Property(tries = 100)
    void signature_randomBytesOrWrongLength_neverVerifiesNorThrows(@ForAll @Size(max = 12000) byte[] garbage) {
        assertFalse(VERIFIER.verify(MSG, garbage));
    }

    @Property(tries = 100)
    void message_anyChange_neverVerifies(@ForAll @Size(max = 64) byte[] other) {
        if (java.util.Arrays.equals(other, MSG)) {
            return;
        }
        assertFalse(VERIFIER.verify(other, SIG));
    }

    @Property(tries = 50)
    void signature_indexOutOfRange_rejected(@ForAll @IntRange(min = 1 << 20, max = (1 << 24) - 1) int idx) {
        byte[] bad = SIG.clone();
        bad[0] = (byte) (idx >>> 16);
        bad[1] = (byte) (idx >>> 8);
        bad[2] = (byte) idx;
        assertEquals(-1, XmssSignatures.index(P, bad));
        assertFalse(VERIFIER.verify(MSG, bad));
    }

    @Property(tries = 1)
    void genuineSignature_verifies() {
        assertTrue(VERIFIER.verify(MSG, SIG));
        assertEquals(123_456, XmssSignatures.index(P, SIG));
    }
}
