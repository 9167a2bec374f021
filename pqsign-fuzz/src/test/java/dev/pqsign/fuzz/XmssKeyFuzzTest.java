package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssVerifier;
import java.util.Arrays;
import java.util.List;

/**
 * XMSS / XMSS^MT public keys (RFC 8391 encoding) and key states (the 172-byte state format of
 * docs/formats/xmss-state.md for n = 32).
 *
 * <p>Input: a mode byte, then the bytes. Mode 0 mod 3: a public key, decoded for both families,
 * by {@link XmssPublicKey#candidates} and raw for every n = 32 SHA2 set of {@link FuzzKeys}; each
 * must succeed or throw {@link KeyFormatException}; a decoded key re-encodes to its input, and
 * for the sets BouncyCastle covers, pqsign and BouncyCastle must agree whether that set's seed
 * signature verifies under it. Mode 1 mod 3: a key state as given; mode 2 mod 3: a key state whose
 * 16-byte check value the target first recomputes, so the fields behind it are reached. A state
 * decodes or throws {@link KeyFormatException}; a decoded state re-encodes to its input and has
 * 0 ≤ next ≤ end ≤ 2^h.
 */
class XmssKeyFuzzTest {
    private static final int CHECK = 16;
    private static final byte[][] SEED_SIGNATURES = new byte[FuzzKeys.XMSS_SETS.size()][];

    private static synchronized byte[] seedSignature(XmssParameterSet set) {
        int i = FuzzKeys.XMSS_SETS.indexOf(set);
        if (SEED_SIGNATURES[i] == null) {
            SEED_SIGNATURES[i] = SeedCorpus.xmssSignature(set);
        }
        return SEED_SIGNATURES[i];
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int mode = (data[0] & 0xff) % 3;
        byte[] b = Arrays.copyOfRange(data, 1, data.length);
        if (mode == 0) {
            publicKey(b);
        } else {
            if (mode == 2 && b.length > CHECK) {
                byte[] check = Digests.checkValue(b, b.length - CHECK, CHECK);
                System.arraycopy(check, 0, b, b.length - CHECK, CHECK);
            }
            keyState(b);
        }
    }

    private static void publicKey(byte[] b) {
        for (XmssParameterSet.Family family : XmssParameterSet.Family.values()) {
            try {
                XmssPublicKey pk = XmssPublicKey.decode(family, b);
                assertArrayEquals(b, pk.encoded(), "a decoded public key re-encodes to its input");
                compareWithBouncyCastle(pk);
            } catch (KeyFormatException expected) {
                // documented
            }
        }
        List<XmssParameterSet> candidates = XmssPublicKey.candidates(b);
        for (XmssParameterSet p : candidates) {
            assertEquals(p.publicKeyBytes(), b.length);
            assertArrayEquals(b, XmssPublicKey.decode(p, b).encoded());
        }
        for (XmssParameterSet set : FuzzKeys.XMSS_SETS) {
            try {
                XmssPublicKey pk = XmssPublicKey.decodeRaw(set, b);
                assertArrayEquals(b, pk.encodedRaw(), "a raw public key re-encodes to its input");
            } catch (KeyFormatException expected) {
                // documented
            }
        }
    }

    private static void compareWithBouncyCastle(XmssPublicKey pk) {
        XmssParameterSet set = pk.parameterSet();
        if (!FuzzKeys.XMSS_SETS.contains(set)) {
            return;
        }
        byte[] sig = seedSignature(set);
        assertEquals(
                new BouncyCastle.Xmss(pk).verify(FuzzKeys.MESSAGE, sig),
                new XmssVerifier(pk).verify(FuzzKeys.MESSAGE, sig),
                "pqsign and BouncyCastle disagree on the " + set + " seed signature under a changed public key");
    }

    private static void keyState(byte[] b) {
        XmssKeyState state;
        try {
            state = XmssKeyState.decode(b);
        } catch (KeyFormatException expected) {
            return;
        }
        assertArrayEquals(b, state.encode(), "a decoded key state re-encodes to its input");
        long max = state.key().parameterSet().maxSignatures();
        assertTrue(
                0 <= state.nextIndex() && state.nextIndex() <= state.endIndex() && state.endIndex() <= max,
                "index range [" + state.nextIndex() + ", " + state.endIndex() + ") outside 0 .. " + max);
        state.key().destroy();
    }
}
