package dev.pqsign.lms;

import dev.pqsign.core.KeyFormatException;
import java.util.Objects;
import java.util.Optional;

/** Reading fields of HSS signatures without verifying them. */
public final class HssSignatures {
    private HssSignatures() {}

    /**
     * The hierarchy a signature under {@code key} names: the key's top tree, then the trees the
     * signature's own type codes name, if its length is exactly that hierarchy's. Not a
     * verification.
     *
     * @param key the signer's public key
     * @param signature an HSS signature
     * @return the hierarchy, or empty if the signature cannot be one under {@code key}
     */
    public static Optional<HssParameterSet> parameterSetOf(HssPublicKey key, byte[] signature) {
        return parameterSetOf(signature)
                .filter(p -> p.levels() == key.levels() && p.top() == key.top().parameterSet());
    }

    /**
     * The hierarchy an HSS signature's own type codes name (Nspk + 1 levels, each LMS signature's
     * types, each lower public key's types), if its length is exactly that hierarchy's. Not a
     * verification.
     *
     * @param signature an HSS signature
     * @return the hierarchy, or empty if the bytes cannot be an HSS signature pqsign knows
     */
    public static Optional<HssParameterSet> parameterSetOf(byte[] signature) {
        if (signature.length < 4) {
            return Optional.empty();
        }
        long nspk = Bytes.getInt(signature, 0) & 0xffffffffL;
        if (nspk + 1 > HssParameterSet.MAX_LEVELS) {
            return Optional.empty();
        }
        int levels = (int) nspk + 1;
        LmsParameterSet[] sets = new LmsParameterSet[levels];
        int off = 4;
        for (int l = 0; l < levels; l++) {
            if (l == 0) {
                Optional<LmsParameterSet> top = topOf(signature, off);
                if (top.isEmpty()) {
                    return Optional.empty();
                }
                sets[0] = top.get();
            }
            off += sets[l].signatureBytes();
            if (l + 1 < levels) {
                if (off > signature.length) {
                    return Optional.empty();
                }
                Optional<LmsParameterSet> next = LmsPublicKey.parseTypes(signature, off, signature.length - off);
                if (next.isEmpty()) {
                    return Optional.empty();
                }
                sets[l + 1] = next.get();
                off += next.get().publicKeyBytes();
            }
        }
        HssParameterSet p = HssParameterSet.of(sets);
        return p.signatureBytes() == signature.length ? Optional.of(p) : Optional.empty();
    }

    /** The tree of the LMS signature at {@code sig[off..]}: its LM-OTS type, then its LMS type after the OTS part. */
    private static Optional<LmsParameterSet> topOf(byte[] sig, int off) {
        if (sig.length - off < 8) {
            return Optional.empty();
        }
        Optional<LmOtsType> ots = LmOtsType.byTypeCode(Bytes.getInt(sig, off + 4));
        if (ots.isEmpty() || sig.length - off < 8 + ots.get().signatureBytes()) {
            return Optional.empty();
        }
        Optional<LmsType> lms =
                LmsType.byTypeCode(Bytes.getInt(sig, off + 4 + ots.get().signatureBytes()));
        return lms.flatMap(t -> LmsParameterSet.find(t, ots.get()));
    }

    /**
     * The index a signature of {@code params} was made at: its levels' leaf numbers q combined, top
     * first (the number of signatures the key had made before it). Not a verification: a forged
     * signature has an index too.
     *
     * @param params the hierarchy; must be signable (its indices fit 64 bits)
     * @param signature a signature of {@code params}'s length
     * @return the index, 0 … 2^H - 1
     * @throws KeyFormatException if the length is not {@code params}'s, or a leaf number is out of
     *     range for its level
     */
    public static long index(HssParameterSet params, byte[] signature) {
        Objects.requireNonNull(params, "params");
        if (signature.length != params.signatureBytes()) {
            throw new KeyFormatException(params.setName() + " signatures are " + params.signatureBytes()
                    + " bytes, got " + signature.length);
        }
        params.maxSignatures();
        long index = 0;
        int off = 4;
        for (int l = 0; l < params.levels(); l++) {
            LmsParameterSet p = params.level(l);
            long q = Bytes.getInt(signature, off) & 0xffffffffL;
            if (q >= p.leaves()) {
                throw new KeyFormatException("level " + l + " leaf " + q + " is out of range for " + p.setName()
                        + " (2^" + p.h() + " leaves)");
            }
            index = (index << p.h()) | q;
            off += p.signatureBytes()
                    + (l + 1 < params.levels() ? params.level(l + 1).publicKeyBytes() : 0);
        }
        return index;
    }
}
