package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Encodings round-trip; nothing but the genuine signature verifies; bad bytes give clear errors. */
class HssPropertiesTest {
    private static final HssParameterSet P = HssStatefulSignerTest.TWO_BY_FIVE;
    private static final HssPrivateKey KEY = HssTesting.key(P, 77);
    private static final byte[] MSG = HssTesting.msg(500);
    private static final byte[] SIG = HssTesting.signAt(KEY, 500, MSG);
    private static final HssVerifier VERIFIER = new HssVerifier(KEY.publicKey(), P);

    @Provide
    Arbitrary<LmsParameterSet> anyTree() {
        return Arbitraries.of(LmsParameterSet.all());
    }

    @Property(tries = 300)
    void publicKey_encodeDecode_roundTrips(
            @ForAll("anyTree") LmsParameterSet p, @ForAll @IntRange(min = 1, max = 8) int levels, @ForAll long salt) {
        Random r = new Random(salt);
        byte[] id = new byte[16];
        byte[] root = new byte[p.n()];
        r.nextBytes(id);
        r.nextBytes(root);
        HssPublicKey k = new HssPublicKey(levels, new LmsPublicKey(p, id, root));
        byte[] enc = k.encoded();
        assertEquals(4 + p.publicKeyBytes(), enc.length);
        HssPublicKey back = HssPublicKey.decode(enc);
        assertEquals(k, back);
        assertArrayEquals(enc, back.encoded());
        assertEquals(k.top(), LmsPublicKey.decode(Arrays.copyOfRange(enc, 4, enc.length)));
    }

    @Property(tries = 500)
    void publicKey_randomBytes_decodeOrFailWithKeyFormatException(@ForAll @Size(max = 80) byte[] bytes) {
        try {
            HssPublicKey k = HssPublicKey.decode(bytes);
            assertArrayEquals(bytes, k.encoded());
        } catch (KeyFormatException e) {
            assertFalse(e.getMessage().isBlank());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Property(tries = 200)
    void keyState_encodeDecode_roundTrips(
            @ForAll @IntRange(min = 0, max = 1024) int next, @ForAll @IntRange(min = 0, max = 1024) int extra) {
        long end = Math.min(1024, (long) next + extra);
        long n = Math.min(next, end);
        byte[] enc = HssKeyState.fresh(KEY).withRange(n, end).encode();
        assertEquals(HssKeyState.encodedLength(2, 32), enc.length);
        HssKeyState back = HssKeyState.decode(enc);
        assertEquals(n, back.nextIndex());
        assertEquals(end, back.endIndex());
        assertEquals(KEY.publicKey(), back.key().publicKey());
        assertEquals(P, back.key().parameterSet());
        assertArrayEquals(enc, back.encode());
    }

    @Property(tries = 400)
    void keyState_anyFlippedBit_isRefusedWithClearError(@ForAll @IntRange(min = 0, max = 135 * 8 + 7) int bit) {
        byte[] enc = HssKeyState.fresh(KEY).withRange(5, 1000).encode();
        enc[bit >>> 3] ^= (byte) (1 << (bit & 7));
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> HssKeyState.decode(enc));
        assertFalse(e.getMessage().isBlank());
    }

    @Property(tries = 100)
    void keyState_truncatedOrExtended_isRefused(@ForAll @IntRange(min = 0, max = 300) int len) {
        byte[] enc = HssKeyState.fresh(KEY).withRange(0, 10).encode();
        if (len == enc.length) {
            return;
        }
        byte[] other = Arrays.copyOf(enc, len);
        assertThrows(KeyFormatException.class, () -> HssKeyState.decode(other));
    }

    @Property(tries = 300)
    void signature_anyFlippedBit_neverVerifies(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int pick) {
        int bit = pick % (SIG.length * 8);
        byte[] bad = SIG.clone();
        bad[bit >>> 3] ^= (byte) (1 << (bit & 7));
        assertFalse(VERIFIER.verify(MSG, bad), "bit " + bit);
        assertFalse(HssVerifier.verifyAnyLowerLevels(KEY.publicKey(), MSG, bad), "bit " + bit);
    }

    @Property(tries = 200)
    void signature_otherMessage_neverVerifies(@ForAll @Size(max = 64) byte[] other) {
        if (Arrays.equals(other, MSG)) {
            return;
        }
        assertFalse(VERIFIER.verify(other, SIG));
    }

    @Property(tries = 300)
    void randomBytes_neverVerify_andNeverThrow(@ForAll @Size(max = 3000) byte[] sig, @ForAll boolean genuinePrefix) {
        byte[] s = sig;
        if (genuinePrefix && sig.length > 8) {
            // Keep a valid-looking header so that the parser gets past the type codes.
            s = sig.clone();
            System.arraycopy(SIG, 0, s, 0, Math.min(s.length, 12));
        }
        assertFalse(VERIFIER.verify(MSG, s));
        assertFalse(HssVerifier.verifyAnyLowerLevels(KEY.publicKey(), MSG, s));
    }

    @Property(tries = 100)
    void genuineSignature_truncatedAnywhere_neverVerifies(@ForAll @IntRange(min = 0, max = 2999) int len) {
        if (len >= SIG.length) {
            return;
        }
        byte[] cut = Arrays.copyOf(SIG, len);
        assertFalse(VERIFIER.verify(MSG, cut));
        assertFalse(HssVerifier.verifyAnyLowerLevels(KEY.publicKey(), MSG, cut));
    }

    @Property(tries = 50)
    void parameterSet_name_roundTrips(
            @ForAll("anyTree") LmsParameterSet a, @ForAll("anyTree") LmsParameterSet b, @ForAll boolean two) {
        HssParameterSet p = two ? HssParameterSet.of(a, b) : HssParameterSet.of(a);
        assertEquals(p, HssParameterSet.byName(p.setName()).orElseThrow());
        assertEquals(
                p,
                HssParameterSet.byName(p.setName().toLowerCase(java.util.Locale.ROOT))
                        .orElseThrow());
        assertTrue(p.signatureBytes() > p.publicKeyBytes());
    }
}
