package dev.pqsign.lms;

/**
 * The hash functions of LMS and LM-OTS with their output length n (RFC 8554 for SHA-256; RFC 9858
 * and NIST SP 800-208 for the truncated SHA-256/192 and for SHAKE256).
 */
public enum LmsHash {
    /** SHA-256, n = 32 (RFC 8554). */
    SHA256("SHA-256", 32),
    /** SHA-256 truncated to its first 24 bytes, "SHA-256/192" (RFC 9858, SP 800-208). */
    SHA256_192("SHA-256/192", 24),
    /** SHAKE256 with 32 bytes of output (RFC 9858, SP 800-208). */
    SHAKE256("SHAKE256/256", 32),
    /** SHAKE256 with 24 bytes of output (RFC 9858, SP 800-208). */
    SHAKE256_192("SHAKE256/192", 24);

    private final String displayName;
    private final int n;

    LmsHash(String displayName, int n) {
        this.displayName = displayName;
        this.n = n;
    }

    /**
     * Output length in bytes, also the length of every chain value, tree node and seed.
     *
     * @return 32 or 24
     */
    public int n() {
        return n;
    }

    /**
     * Whether the function is SHAKE256 (a sponge) rather than SHA-256.
     *
     * @return {@code true} for the SHAKE256 families
     */
    public boolean isShake() {
        return this == SHAKE256 || this == SHAKE256_192;
    }

    /**
     * The name used by RFC 9858, e.g. {@code SHA-256/192}.
     *
     * @return the display name
     */
    public String displayName() {
        return displayName;
    }
}
