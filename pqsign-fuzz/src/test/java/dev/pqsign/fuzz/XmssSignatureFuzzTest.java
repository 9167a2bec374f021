package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssVerifier;
import java.util.Arrays;

/**
 * Differential target: pqsign's XMSS / XMSS^MT verifier accepts a signature exactly when
 * BouncyCastle 1.87's {@code XMSSMTSigner} / {@code XMSSSigner} does.
 *
 * <p>Input: one selector byte (set = byte mod 3 of {@link FuzzKeys#XMSS_SETS}), then the
 * signature, verified over {@link FuzzKeys#MESSAGE} under the set's fixed key. Each input is checked
 * by a fresh verifier and by a long-lived verifier with an upper-layer cache (so an earlier input
 * cannot poison the cache into accepting a later one); both must agree with BouncyCastle.
 * {@code verify} documents no exception at all: any throw is a finding.
 */
class XmssSignatureFuzzTest {
    private static final Side[] SIDES = new Side[FuzzKeys.XMSS_SETS.size()];

    /** One set's public key as pqsign and BouncyCastle see it. */
    private static final class Side {
        final XmssPublicKey key;
        final XmssVerifier cached;
        final BouncyCastle.Xmss bc;

        Side(XmssParameterSet set) {
            this.key = FuzzKeys.xmssPublicKey(set);
            this.cached = XmssVerifier.withUpperLayerCache(key);
            this.bc = new BouncyCastle.Xmss(key);
        }
    }

    private static synchronized Side side(int i) {
        if (SIDES[i] == null) {
            SIDES[i] = new Side(FuzzKeys.XMSS_SETS.get(i));
        }
        return SIDES[i];
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        Side s = side((data[0] & 0xff) % SIDES.length);
        byte[] sig = Arrays.copyOfRange(data, 1, data.length);
        boolean theirs = s.bc.verify(FuzzKeys.MESSAGE, sig);
        assertEquals(
                theirs,
                new XmssVerifier(s.key).verify(FuzzKeys.MESSAGE, sig),
                "pqsign and BouncyCastle disagree on a " + s.key.parameterSet() + " signature");
        assertEquals(
                theirs,
                s.cached.verify(FuzzKeys.MESSAGE, sig),
                "the caching verifier disagrees with BouncyCastle on a " + s.key.parameterSet() + " signature");
    }
}
