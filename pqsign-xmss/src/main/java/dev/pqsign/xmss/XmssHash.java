package dev.pqsign.xmss;

/**
 * The hash function families of RFC 8391 and NIST SP 800-208, each with its output length n and the
 * length of the domain-separation prefix {@code toByte(x, paddingLen)}.
 */
public enum XmssHash {
    /** SHA-256, n = 32 (RFC 8391 "SHA2_*_256"). */
    SHA2_256("SHA2-256", 32, 32),
    /** SHA-512, n = 64 (RFC 8391 "SHA2_*_512"). */
    SHA2_512("SHA2-512", 64, 64),
    /** SHAKE128 with 256-bit output, n = 32 (RFC 8391 "SHAKE_*_256"). */
    SHAKE128_256("SHAKE128", 32, 32),
    /** SHAKE256 with 512-bit output, n = 64 (RFC 8391 "SHAKE_*_512"). */
    SHAKE256_512("SHAKE256/512", 64, 64),
    /** SHA-256 truncated to 192 bits, n = 24, 4-byte padding (SP 800-208 "SHA2_*_192"). */
    SHA2_192("SHA2-256/192", 24, 4),
    /** SHAKE256 with 256-bit output, n = 32 (SP 800-208 "SHAKE256_*_256"). */
    SHAKE256_256("SHAKE256/256", 32, 32),
    /** SHAKE256 with 192-bit output, n = 24, 4-byte padding (SP 800-208 "SHAKE256_*_192"). */
    SHAKE256_192("SHAKE256/192", 24, 4);

    private final String displayName;
    private final int n;
    private final int paddingLen;

    XmssHash(String displayName, int n, int paddingLen) {
        this.displayName = displayName;
        this.n = n;
        this.paddingLen = paddingLen;
    }

    /**
     * Output length in bytes (the security parameter n).
     *
     * @return n: 24, 32 or 64
     */
    public int n() {
        return n;
    }

    /**
     * Length of the domain-separating prefix toByte(x, paddingLen) in every hash input.
     *
     * @return the prefix length in bytes: 4 for the 192-bit sets, n otherwise
     */
    public int paddingLen() {
        return paddingLen;
    }

    /**
     * A readable name for messages and reports, e.g. {@code SHA2-256/192}.
     *
     * @return the display name
     */
    public String displayName() {
        return displayName;
    }

    boolean isSha2() {
        return this == SHA2_256 || this == SHA2_512 || this == SHA2_192;
    }

    /** Creates a fresh, single-threaded hash core for this function. */
    HashCore newCore() {
        switch (this) {
            case SHA2_256:
            case SHA2_192:
                return new Sha2Core("SHA-256", 64, 32, n);
            case SHA2_512:
                return new Sha2Core("SHA-512", 128, 64, n);
            case SHAKE128_256:
                return new ShakeCore(128, n);
            default:
                return new ShakeCore(256, n);
        }
    }
}
