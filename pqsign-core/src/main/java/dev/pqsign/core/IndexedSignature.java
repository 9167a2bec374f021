package dev.pqsign.core;

import java.util.Arrays;
import java.util.Objects;

/**
 * A signature together with the index (one-time key index, or sequence number) it was made for.
 *
 * @param index the index that was durably reserved for this signature
 * @param signature the signature bytes (the array is the caller's to keep)
 */
public record IndexedSignature(long index, byte[] signature) {
    /**
     * Checks the components; the signature array is kept, not copied.
     *
     * @param index the index that was durably reserved for this signature, at least 0
     * @param signature the signature bytes
     * @throws IllegalArgumentException if {@code index} is negative
     * @throws NullPointerException if {@code signature} is {@code null}
     */
    public IndexedSignature {
        if (index < 0) {
            throw new IllegalArgumentException("index must be non-negative, got " + index);
        }
        Objects.requireNonNull(signature, "signature");
    }

    /** Equal when index and signature bytes are equal (not the array's identity). */
    @Override
    public boolean equals(Object o) {
        return o instanceof IndexedSignature s && s.index == index && Arrays.equals(s.signature, signature);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(index) + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "IndexedSignature[index=" + index + ", signature=" + signature.length + " bytes]";
    }
}
