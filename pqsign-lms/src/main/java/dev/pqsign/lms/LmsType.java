package dev.pqsign.lms;

import java.util.Optional;

/**
 * The LMS tree types (RFC 8554 Table 2, RFC 9858 Table 2), with their IANA type codes, hash
 * function, node length m and tree height h.
 */
public enum LmsType {
    /** SHA-256, m = 32, h = 5. */
    LMS_SHA256_M32_H5(0x05, LmsHash.SHA256, 5),
    /** SHA-256, m = 32, h = 10. */
    LMS_SHA256_M32_H10(0x06, LmsHash.SHA256, 10),
    /** SHA-256, m = 32, h = 15. */
    LMS_SHA256_M32_H15(0x07, LmsHash.SHA256, 15),
    /** SHA-256, m = 32, h = 20. */
    LMS_SHA256_M32_H20(0x08, LmsHash.SHA256, 20),
    /** SHA-256, m = 32, h = 25. */
    LMS_SHA256_M32_H25(0x09, LmsHash.SHA256, 25),
    /** SHA-256/192, m = 24, h = 5. */
    LMS_SHA256_M24_H5(0x0A, LmsHash.SHA256_192, 5),
    /** SHA-256/192, m = 24, h = 10. */
    LMS_SHA256_M24_H10(0x0B, LmsHash.SHA256_192, 10),
    /** SHA-256/192, m = 24, h = 15. */
    LMS_SHA256_M24_H15(0x0C, LmsHash.SHA256_192, 15),
    /** SHA-256/192, m = 24, h = 20. */
    LMS_SHA256_M24_H20(0x0D, LmsHash.SHA256_192, 20),
    /** SHA-256/192, m = 24, h = 25. */
    LMS_SHA256_M24_H25(0x0E, LmsHash.SHA256_192, 25),
    /** SHAKE256, m = 32, h = 5. */
    LMS_SHAKE_M32_H5(0x0F, LmsHash.SHAKE256, 5),
    /** SHAKE256, m = 32, h = 10. */
    LMS_SHAKE_M32_H10(0x10, LmsHash.SHAKE256, 10),
    /** SHAKE256, m = 32, h = 15. */
    LMS_SHAKE_M32_H15(0x11, LmsHash.SHAKE256, 15),
    /** SHAKE256, m = 32, h = 20. */
    LMS_SHAKE_M32_H20(0x12, LmsHash.SHAKE256, 20),
    /** SHAKE256, m = 32, h = 25. */
    LMS_SHAKE_M32_H25(0x13, LmsHash.SHAKE256, 25),
    /** SHAKE256, m = 24, h = 5. */
    LMS_SHAKE_M24_H5(0x14, LmsHash.SHAKE256_192, 5),
    /** SHAKE256, m = 24, h = 10. */
    LMS_SHAKE_M24_H10(0x15, LmsHash.SHAKE256_192, 10),
    /** SHAKE256, m = 24, h = 15. */
    LMS_SHAKE_M24_H15(0x16, LmsHash.SHAKE256_192, 15),
    /** SHAKE256, m = 24, h = 20. */
    LMS_SHAKE_M24_H20(0x17, LmsHash.SHAKE256_192, 20),
    /** SHAKE256, m = 24, h = 25. */
    LMS_SHAKE_M24_H25(0x18, LmsHash.SHAKE256_192, 25);

    private static final LmsType[] BY_CODE = new LmsType[0x19];

    static {
        for (LmsType t : values()) {
            BY_CODE[t.typeCode] = t;
        }
    }

    private final int typeCode;
    private final LmsHash hash;
    private final int h;

    LmsType(int typeCode, LmsHash hash, int h) {
        this.typeCode = typeCode;
        this.hash = hash;
        this.h = h;
    }

    /**
     * The type with IANA code {@code code}.
     *
     * @param code the 32-bit type code as it appears in keys and signatures
     * @return the type, or empty for a code this build does not know
     */
    public static Optional<LmsType> byTypeCode(int code) {
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
     * The hash function of the tree.
     *
     * @return the hash family
     */
    public LmsHash hash() {
        return hash;
    }

    /**
     * Bytes per tree node.
     *
     * @return m
     */
    public int m() {
        return hash.n();
    }

    /**
     * Height of the tree.
     *
     * @return h: the tree has 2^h leaves, one per one-time key
     */
    public int h() {
        return h;
    }
}
