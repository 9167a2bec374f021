package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPublicKey;
import dev.pqsign.lms.HssVerifier;
import java.util.Arrays;

/**
 * Differential target for LMS / HSS signatures and public keys: pqsign's RFC 8554 verification
 * accepts exactly when BouncyCastle 1.87's {@code HSSSigner} does.
 *
 * <p>Input: a selector byte. Below 0x80, {@code selector mod 4} picks one of {@link FuzzKeys#LMS_SETS}
 * and the rest is a signature over {@link FuzzKeys#MESSAGE} under that set's fixed key, checked by
 * {@link HssVerifier#verifyAnyLowerLevels} and by the set's strict verifier. From 0x80, the next
 * byte is a length k and the next k bytes are an HSS public key ({@link HssPublicKey#decode}, which
 * may throw only {@code KeyFormatException}; a key it refuses verifies nothing), the rest the
 * signature. Asserted: same verdict as BouncyCastle; the strict verifier accepts only what the RFC
 * verification accepts; a decoded key re-encodes to its input. {@code verify} documents no exception.
 */
class LmsSignatureFuzzTest {
    private static final HssPublicKey[] KEYS = new HssPublicKey[FuzzKeys.LMS_SETS.size()];
    private static final HssVerifier[] STRICT = new HssVerifier[FuzzKeys.LMS_SETS.size()];

    private static synchronized int key(int i) {
        if (KEYS[i] == null) {
            HssParameterSet set = FuzzKeys.LMS_SETS.get(i);
            KEYS[i] = FuzzKeys.lms(set).publicKey();
            STRICT[i] = new HssVerifier(KEYS[i], set);
        }
        return i;
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int selector = data[0] & 0xff;
        if (selector < 0x80) {
            int i = key(selector % KEYS.length);
            byte[] sig = Arrays.copyOfRange(data, 1, data.length);
            boolean ours = HssVerifier.verifyAnyLowerLevels(KEYS[i], FuzzKeys.MESSAGE, sig);
            assertEquals(
                    BouncyCastle.hssVerify(KEYS[i].encoded(), FuzzKeys.MESSAGE, sig),
                    ours,
                    "pqsign and BouncyCastle disagree on a signature under the " + FuzzKeys.LMS_SETS.get(i) + " key");
            if (STRICT[i].verify(FuzzKeys.MESSAGE, sig)) {
                assertTrue(ours, "the strict verifier accepted what RFC 8554 verification refuses");
            }
            return;
        }
        if (data.length < 2) {
            return;
        }
        int k = Math.min(data[1] & 0xff, data.length - 2);
        byte[] pub = Arrays.copyOfRange(data, 2, 2 + k);
        byte[] sig = Arrays.copyOfRange(data, 2 + k, data.length);
        HssPublicKey key = null;
        try {
            key = HssPublicKey.decode(pub);
            assertArrayEquals(pub, key.encoded(), "a decoded HSS public key does not re-encode to its input");
        } catch (KeyFormatException e) {
            // documented: the key is refused, so nothing verifies under it
        }
        boolean ours = key != null && HssVerifier.verifyAnyLowerLevels(key, FuzzKeys.MESSAGE, sig);
        assertEquals(
                BouncyCastle.hssVerify(pub, FuzzKeys.MESSAGE, sig),
                ours,
                "pqsign and BouncyCastle disagree on a signature under a fuzzed public key");
    }
}
