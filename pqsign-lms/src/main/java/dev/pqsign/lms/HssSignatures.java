package dev.pqsign.lms;

import dev.pqsign.core.KeyFormatException;
import java.util.Objects;

/** Reading fields of HSS signatures without verifying them. */
public final class HssSignatures {
    private HssSignatures() {}

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
