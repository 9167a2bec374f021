package dev.pqsign.lms;

import java.util.Optional;

/**
 * The LM-OTS one-time signature types (RFC 8554 Table 1, RFC 9858 Table 1), with their IANA type
 * codes and the sizes derived from them: n (hash length), w (Winternitz width in bits), p (number
 * of chains) and ls (checksum left shift).
 */
public enum LmOtsType {
    /** SHA-256, n = 32, w = 1. */
    LMOTS_SHA256_N32_W1(0x01, LmsHash.SHA256, 1, 265, 7),
    /** SHA-256, n = 32, w = 2. */
    LMOTS_SHA256_N32_W2(0x02, LmsHash.SHA256, 2, 133, 6),
    /** SHA-256, n = 32, w = 4. */
    LMOTS_SHA256_N32_W4(0x03, LmsHash.SHA256, 4, 67, 4),
    /** SHA-256, n = 32, w = 8. */
    LMOTS_SHA256_N32_W8(0x04, LmsHash.SHA256, 8, 34, 0),
    /** SHA-256/192, n = 24, w = 1. */
    LMOTS_SHA256_N24_W1(0x05, LmsHash.SHA256_192, 1, 200, 8),
    /** SHA-256/192, n = 24, w = 2. */
    LMOTS_SHA256_N24_W2(0x06, LmsHash.SHA256_192, 2, 101, 6),
    /** SHA-256/192, n = 24, w = 4. */
    LMOTS_SHA256_N24_W4(0x07, LmsHash.SHA256_192, 4, 51, 4),
    /** SHA-256/192, n = 24, w = 8. */
    LMOTS_SHA256_N24_W8(0x08, LmsHash.SHA256_192, 8, 26, 0),
    /** SHAKE256, n = 32, w = 1. */
    LMOTS_SHAKE_N32_W1(0x09, LmsHash.SHAKE256, 1, 265, 7),
    /** SHAKE256, n = 32, w = 2. */
    LMOTS_SHAKE_N32_W2(0x0A, LmsHash.SHAKE256, 2, 133, 6),
    /** SHAKE256, n = 32, w = 4. */
    LMOTS_SHAKE_N32_W4(0x0B, LmsHash.SHAKE256, 4, 67, 4),
    /** SHAKE256, n = 32, w = 8. */
    LMOTS_SHAKE_N32_W8(0x0C, LmsHash.SHAKE256, 8, 34, 0),
    /** SHAKE256, n = 24, w = 1. */
    LMOTS_SHAKE_N24_W1(0x0D, LmsHash.SHAKE256_192, 1, 200, 8),
    /** SHAKE256, n = 24, w = 2. */
    LMOTS_SHAKE_N24_W2(0x0E, LmsHash.SHAKE256_192, 2, 101, 6),
    /** SHAKE256, n = 24, w = 4. */
    LMOTS_SHAKE_N24_W4(0x0F, LmsHash.SHAKE256_192, 4, 51, 4),
    /** SHAKE256, n = 24, w = 8. */
    LMOTS_SHAKE_N24_W8(0x10, LmsHash.SHAKE256_192, 8, 26, 0);

    private static final LmOtsType[] BY_CODE = new LmOtsType[0x11];

    static {
        for (LmOtsType t : values()) {
            BY_CODE[t.typeCode] = t;
        }
    }

    private final int typeCode;
    private final LmsHash hash;
    private final int w;
    private final int p;
    private final int ls;

    LmOtsType(int typeCode, LmsHash hash, int w, int p, int ls) {
        this.typeCode = typeCode;
        this.hash = hash;
        this.w = w;
        this.p = p;
        this.ls = ls;
    }

    /**
     * The type with IANA code {@code code}.
     *
     * @param code the 32-bit type code as it appears in keys and signatures
     * @return the type, or empty for a code this build does not know
     */
    public static Optional<LmOtsType> byTypeCode(int code) {
        return code > 0 && code < BY_CODE.length ? Optional.ofNullable(BY_CODE[code]) : Optional.empty();
    }

    /**
     * The IANA type code.
     *
     * @return the code written in keys and signatures
     */
    public int typeCode() {
        return typeCode;
    }

    /**
     * The hash function and its output length.
     *
     * @return the hash family
     */
    public LmsHash hash() {
        return hash;
    }

    /**
     * Bytes per hash output (chain value, randomizer C, seed).
     *
     * @return n
     */
    public int n() {
        return hash.n();
    }

    /**
     * Winternitz width: bits of the message digest per chain.
     *
     * @return w (1, 2, 4 or 8)
     */
    public int w() {
        return w;
    }

    /**
     * Number of hash chains (message digest plus checksum digits).
     *
     * @return p
     */
    public int p() {
        return p;
    }

    /**
     * Left shift of the checksum before its digits are taken.
     *
     * @return ls
     */
    public int ls() {
        return ls;
    }

    /**
     * Steps of a complete chain, 2^w - 1.
     *
     * @return the chain length
     */
    public int chainLength() {
        return (1 << w) - 1;
    }

    /**
     * Length of an LM-OTS signature: type code, C and p chain values.
     *
     * @return 4 + n(p + 1)
     */
    public int signatureBytes() {
        return 4 + n() * (p + 1);
    }
}
