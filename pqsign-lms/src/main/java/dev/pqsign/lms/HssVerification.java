package dev.pqsign.lms;

import dev.pqsign.core.Secrets;
import java.util.IdentityHashMap;

/**
 * HSS signature verification (RFC 8554 section 6.3, Algorithms 6 and 6a per level) for one thread.
 * Every length and type code is checked against the bytes present before anything is hashed; any
 * mismatch, an out-of-range leaf index or a wrong root gives {@code false}, never an exception.
 */
final class HssVerification {
    private final IdentityHashMap<LmsParameterSet, TreeHash> trees = new IdentityHashMap<>();
    private final byte[] id = new byte[LmsPublicKey.ID_BYTES];
    private final byte[] root = new byte[32];
    private final byte[] computed = new byte[32];

    private TreeHash tree(LmsParameterSet p) {
        return trees.computeIfAbsent(p, TreeHash::new);
    }

    /**
     * Whether {@code sig} is a valid HSS signature on {@code msg} under {@code key}; with
     * {@code expected} non-null, also whether every level's tree is the one {@code expected} names.
     */
    boolean verify(HssPublicKey key, HssParameterSet expected, byte[] msg, byte[] sig) {
        if (expected != null && sig.length != expected.signatureBytes()) {
            return false;
        }
        if (sig.length < 4) {
            return false;
        }
        int levels = key.levels();
        if ((Bytes.getInt(sig, 0) & 0xffffffffL) + 1 != levels) {
            return false;
        }
        LmsParameterSet cur = key.top().parameterSet();
        System.arraycopy(key.top().idRef(), 0, id, 0, id.length);
        System.arraycopy(key.top().rootRef(), 0, root, 0, cur.n());
        int off = 4;
        for (int level = 0; level < levels; level++) {
            if (expected != null && expected.level(level) != cur) {
                return false;
            }
            int sigLen = cur.signatureBytes();
            if (sig.length - off < sigLen || !typesMatch(cur, sig, off)) {
                return false;
            }
            int pubOff = off + sigLen;
            LmsParameterSet next = null;
            if (level + 1 < levels) {
                next = LmsPublicKey.parseTypes(sig, pubOff, sig.length - pubOff).orElse(null);
                if (next == null || sig.length - pubOff < next.publicKeyBytes()) {
                    return false;
                }
                if (!rootMatches(cur, sig, off, sig, pubOff, next.publicKeyBytes())) {
                    return false;
                }
                System.arraycopy(sig, pubOff + 8, id, 0, id.length);
                System.arraycopy(sig, pubOff + 8 + id.length, root, 0, next.n());
                off = pubOff + next.publicKeyBytes();
                cur = next;
            } else {
                return pubOff == sig.length && rootMatches(cur, sig, off, msg, 0, msg.length);
            }
        }
        return false;
    }

    private static boolean typesMatch(LmsParameterSet p, byte[] sig, int off) {
        return Bytes.getInt(sig, off + 4) == p.otsType().typeCode()
                && Bytes.getInt(sig, off + 4 + p.otsType().signatureBytes())
                        == p.lmsType().typeCode();
    }

    private boolean rootMatches(LmsParameterSet p, byte[] sig, int off, byte[] msg, int msgOff, int msgLen) {
        if (!tree(p).candidateRoot(id, sig, off, msg, msgOff, msgLen, computed)) {
            return false;
        }
        return Secrets.constantTimeEquals(computed, 0, root, 0, p.n());
    }
}
