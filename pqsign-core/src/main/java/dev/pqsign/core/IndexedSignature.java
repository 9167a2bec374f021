package dev.pqsign.core;

import java.util.Objects;

/**
 * A signature together with the index (one-time key index, or sequence number) it was made for.
 *
 * @param index the index that was durably reserved for this signature
 * @param signature the signature bytes (the array is the caller's to keep)
 */
public record IndexedSignature(long index, byte[] signature) {
    public IndexedSignature {
        if (index < 0) {
            throw new IllegalArgumentException("index must be non-negative, got " + index);
        }
        Objects.requireNonNull(signature, "signature");
    }
}
