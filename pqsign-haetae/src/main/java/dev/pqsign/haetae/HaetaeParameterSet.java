package dev.pqsign.haetae;

import dev.pqsign.core.ParameterSet;

/**
 * The three HAETAE parameter sets of the KpqC final specification (v1.2.0; keys and verification are
 * unchanged since v1.1.2).
 *
 * <p>HAETAE has no registered OID. {@link #oid()} returns the private-arc OIDs that BouncyCastle 1.87
 * uses ({@code 1.3.6.1.4.1.22554.2.18.1/.2/.3}), so that keys and certificates interoperate with the
 * only other Java implementation.
 */
public enum HaetaeParameterSet implements ParameterSet {
    /** HAETAE-2 (NIST level 2): k = 2, l = 4. */
    HAETAE_2(
            "HAETAE-2",
            "haetae_mode2",
            "1.3.6.1.4.1.22554.2.18.1",
            2,
            4,
            58,
            9846.02,
            9838.98,
            12777.52,
            48.858,
            39.191835884530846,
            1474,
            132,
            7,
            512,
            9,
            13,
            239,
            13,
            6),
    /** HAETAE-3 (NIST level 3): k = 3, l = 6. */
    HAETAE_3(
            "HAETAE-3",
            "haetae_mode3",
            "1.3.6.1.4.1.22554.2.18.2",
            3,
            6,
            80,
            18314.98,
            18307.70,
            21906.65,
            57.707,
            48.0,
            2349,
            376,
            127,
            512,
            9,
            17,
            235,
            17,
            8),
    /** HAETAE-5 (NIST level 5): k = 4, l = 7; the public key holds NTT(-2b) directly. */
    HAETAE_5(
            "HAETAE-5",
            "haetae_mode5",
            "1.3.6.1.4.1.22554.2.18.3",
            4,
            7,
            128,
            22343.66,
            22334.95,
            24441.49,
            55.13,
            53.0659966456864,
            2948,
            501,
            358,
            256,
            8,
            33,
            471,
            19,
            9);

    static final int N = 256;
    static final int Q = 64513;
    static final int DQ = 2 * Q;
    static final int SEEDBYTES = 32;
    static final int CRHBYTES = 64;
    /** Fixed-point scale of the hyperball samples: 2^13. */
    static final int LN = 8192;

    static final int LNBITS = 13;
    static final int POLYETA_PACKEDBYTES = 64;
    static final int POLYC_PACKEDBYTES = 32;
    /** Slot per polynomial in the challenge transcript: 9 bits per coefficient, even when 8 suffice. */
    static final int POLY_HIGHBITS_PACKEDBYTES = N * 9 / 8;

    private final String displayName;
    private final String katName;
    private final String oid;
    final int k;
    final int l;
    final int m;
    final int tau;
    final double b0;
    final double gamma;
    final double sqnm;
    final long b0sq;
    final long b1sq;
    final long b2sq;
    final int sigBytes;
    final int baseEncHbZ1;
    final int baseEncH;
    final int alphaHint;
    final int logAlphaHint;
    /** (2q - 2) / alpha_h: the modulus of the hint symbols. */
    final int hintModulus;

    final int polyQPackedBytes;
    final int poly2EtaPackedBytes;
    final int pkBytes;
    final int skBytes;
    final int highbitsBytes;
    final int mH;
    final int offsetH;
    final int mHbZ1;
    final int offsetHbZ1;

    HaetaeParameterSet(
            String displayName,
            String katName,
            String oid,
            int k,
            int l,
            int tau,
            double b0,
            double b1,
            double b2,
            double gamma,
            double sqnm,
            int sigBytes,
            int baseEncHbZ1,
            int baseEncH,
            int alphaHint,
            int logAlphaHint,
            int mH,
            int offsetH,
            int mHbZ1,
            int offsetHbZ1) {
        this.displayName = displayName;
        this.katName = katName;
        this.oid = oid;
        this.k = k;
        this.l = l;
        this.m = l - 1;
        this.tau = tau;
        this.b0 = b0;
        this.gamma = gamma;
        this.sqnm = sqnm;
        // The reference truncates the double products to integers; do exactly the same.
        this.b0sq = (long) (b0 * b0);
        this.b1sq = (long) (b1 * b1);
        this.b2sq = (long) (b2 * b2);
        this.sigBytes = sigBytes;
        this.baseEncHbZ1 = baseEncHbZ1;
        this.baseEncH = baseEncH;
        this.alphaHint = alphaHint;
        this.logAlphaHint = logAlphaHint;
        this.hintModulus = (DQ - 2) / alphaHint;
        boolean rounded = k != 4;
        this.polyQPackedBytes = rounded ? 480 : 512;
        this.poly2EtaPackedBytes = rounded ? 96 : 64;
        this.pkBytes = SEEDBYTES + k * polyQPackedBytes;
        this.skBytes = pkBytes + m * POLYETA_PACKEDBYTES + k * poly2EtaPackedBytes + SEEDBYTES;
        this.highbitsBytes = k * POLY_HIGHBITS_PACKEDBYTES + POLYC_PACKEDBYTES;
        this.mH = mH;
        this.offsetH = offsetH;
        this.mHbZ1 = mHbZ1;
        this.offsetHbZ1 = offsetHbZ1;
    }

    /** The canonical name, e.g. {@code HAETAE-2}; {@link #name()} is the Java constant name. */
    @Override
    public String toString() {
        return displayName;
    }

    /** The canonical name, e.g. {@code HAETAE-2}. */
    @Override
    public String setName() {
        return displayName;
    }

    /**
     * The algorithm name used in KAT files.
     *
     * @return e.g. {@code haetae_mode2}
     */
    public String katName() {
        return katName;
    }

    /**
     * The BouncyCastle 1.87 OID for this set.
     *
     * @return the OID in dotted decimal, e.g. {@code 1.3.6.1.4.1.22554.2.18.1}
     */
    public String oid() {
        return oid;
    }

    @Override
    public int signatureBytes() {
        return sigBytes;
    }

    @Override
    public int publicKeyBytes() {
        return pkBytes;
    }

    /**
     * Length in bytes of the private key encoding (reference {@code sk}).
     *
     * @return the private key length in bytes
     */
    public int privateKeyBytes() {
        return skBytes;
    }

    @Override
    public boolean isStateful() {
        return false;
    }

    /**
     * Module rank k (rows of A).
     *
     * @return k: 2, 3 or 4
     */
    public int k() {
        return k;
    }

    /**
     * Module rank l (columns of A, including the b column).
     *
     * @return l: 4, 6 or 7
     */
    public int l() {
        return l;
    }

    /**
     * Hamming weight of the challenge polynomial (modes 2 and 3; mode 5 uses a balanced challenge).
     *
     * @return tau: 58 or 80; for HAETAE-5 128, the largest weight of its balanced challenge
     */
    public int tau() {
        return tau;
    }

    /** True for HAETAE-2/3, whose verification key is rounded by one bit (d = 1). */
    boolean roundedKey() {
        return k != 4;
    }

    /**
     * Looks a set up by its canonical name ({@code HAETAE-2}), Java name ({@code HAETAE_2}), KAT name
     * ({@code haetae_mode2}) or OID; case-insensitive.
     *
     * @param name the name to look up; surrounding whitespace is ignored
     * @return the set
     * @throws IllegalArgumentException listing the accepted names
     */
    public static HaetaeParameterSet fromName(String name) {
        String s = name.trim();
        for (HaetaeParameterSet p : values()) {
            if (p.displayName.equalsIgnoreCase(s)
                    || p.name().equalsIgnoreCase(s)
                    || p.katName.equalsIgnoreCase(s)
                    || p.oid.equals(s)) {
                return p;
            }
        }
        throw new IllegalArgumentException(
                "unknown HAETAE parameter set '" + name + "'; expected one of HAETAE-2, HAETAE-3, HAETAE-5");
    }

    /** The set whose public keys are {@code length} bytes long, or {@code null}. */
    static HaetaeParameterSet byPublicKeyLength(int length) {
        for (HaetaeParameterSet p : values()) {
            if (p.pkBytes == length) {
                return p;
            }
        }
        return null;
    }
}
