package dev.pqsign.telemetry;

import java.util.OptionalLong;

/**
 * Extracts the index a signature carries inside itself, for schemes that have one (XMSS: 4-byte
 * big-endian prefix; XMSS^MT: ceil(h/8)-byte big-endian prefix). Supplied by the scheme so telemetry
 * needs no scheme code. Implementations must not throw on any input.
 */
@FunctionalInterface
public interface EmbeddedIndex {

    /**
     * Reads the index a signature carries.
     *
     * @param signature the signature bytes, possibly malformed or null
     * @return the embedded index, or empty if the signature is too short to hold one (or the scheme
     *     carries none, see {@link #NONE})
     */
    OptionalLong extract(byte[] signature);

    /** For schemes whose signatures carry no index (HAETAE, Ed25519): nothing to compare. */
    EmbeddedIndex NONE = signature -> OptionalLong.empty();

    /**
     * {@code true} if this extractor is {@link #NONE}.
     *
     * @return whether signatures carry no index
     */
    default boolean isNone() {
        return this == NONE;
    }

    /**
     * The index is the first {@code bytes} bytes of the signature, big-endian unsigned (RFC 8391:
     * 4 for XMSS, ceil(h/8) for XMSS^MT).
     *
     * @param bytes 1 to 8; with 8 bytes a prefix of 2^63 or more comes out negative, which never
     *     equals a published index and so is reported as a mismatch
     * @return the extractor
     * @throws IllegalArgumentException if {@code bytes} is outside 1..8
     */
    static EmbeddedIndex bigEndianPrefix(int bytes) {
        if (bytes < 1 || bytes > 8) {
            throw new IllegalArgumentException("index prefix must be 1..8 bytes, got " + bytes);
        }
        return signature -> {
            if (signature == null || signature.length < bytes) {
                return OptionalLong.empty();
            }
            long v = 0;
            for (int i = 0; i < bytes; i++) {
                v = (v << 8) | (signature[i] & 0xff);
            }
            return OptionalLong.of(v);
        };
    }

    /**
     * XMSS^MT with total tree height {@code h}: a ceil(h/8)-byte index prefix.
     *
     * @param totalHeight the total tree height h, 1 to 64
     * @return the extractor
     * @throws IllegalArgumentException if {@code totalHeight} is outside 1..64
     */
    static EmbeddedIndex xmssMt(int totalHeight) {
        return bigEndianPrefix((totalHeight + 7) / 8);
    }

    /**
     * XMSS (single tree): a 4-byte index prefix.
     *
     * @return the extractor
     */
    static EmbeddedIndex xmss() {
        return bigEndianPrefix(4);
    }
}
