package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.haetae.HaetaeVerifier;
import java.util.Arrays;

/**
 * Differential target: pqsign's HAETAE verifier, on both engines, accepts a signature exactly when
 * BouncyCastle 1.87's {@code HAETAESigner} does.
 *
 * <p>Input: one selector byte (set = byte mod 3), then the signature, verified over
 * {@link FuzzKeys#MESSAGE} with context {@link FuzzKeys#CONTEXT} under the set's fixed key. The
 * seeds are signatures of the v1.1.2 sampler (what BouncyCastle signs) and of v1.2.0.
 * {@code verify} documents no exception: any throw is a finding.
 */
class HaetaeSignatureFuzzTest {
    private static final Side[] SIDES = new Side[FuzzKeys.HAETAE_SETS.size()];

    /** One set's public key as pqsign (both engines) and BouncyCastle see it. */
    private static final class Side {
        final HaetaeVerifier fast;
        final HaetaeVerifier compact;
        final BouncyCastle.Haetae bc;

        Side(HaetaeParameterSet set) {
            HaetaePublicKey key = FuzzKeys.haetae(set).publicKey();
            this.fast = new HaetaeVerifier(key, FuzzKeys.CONTEXT, HaetaeEngine.FAST);
            this.compact = new HaetaeVerifier(key, FuzzKeys.CONTEXT, HaetaeEngine.COMPACT);
            this.bc = new BouncyCastle.Haetae(key);
        }
    }

    private static synchronized Side side(int i) {
        if (SIDES[i] == null) {
            SIDES[i] = new Side(FuzzKeys.HAETAE_SETS.get(i));
        }
        return SIDES[i];
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int i = (data[0] & 0xff) % SIDES.length;
        Side s = side(i);
        byte[] sig = Arrays.copyOfRange(data, 1, data.length);
        boolean theirs = s.bc.verify(FuzzKeys.MESSAGE, FuzzKeys.CONTEXT, sig);
        String set = FuzzKeys.HAETAE_SETS.get(i).setName();
        assertEquals(
                theirs,
                s.fast.verify(FuzzKeys.MESSAGE, sig),
                "fast engine and BouncyCastle disagree on a " + set + " signature");
        assertEquals(
                theirs,
                s.compact.verify(FuzzKeys.MESSAGE, sig),
                "compact engine and BouncyCastle disagree on a " + set + " signature");
    }
}
