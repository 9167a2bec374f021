package dev.pqsign.haetae;

/**
 * Which hyperball sampler signing uses. Keys and verification do not depend on it: a signature made
 * with either sampler verifies under both versions; only the signature bytes for a given randomness
 * differ.
 */
public enum HaetaeSampler {
    /**
     * KpqC final specification v1.2.0 (the default): 83-bit CDT, degree-10 {@code approx_exp},
     * 26 random bytes per draw.
     */
    V1_2_0(26),
    /** v1.1.2 (what BouncyCastle 1.87 implements): 16-bit CDT, 17 random bytes per draw. */
    V1_1_2(17);

    /** Random bytes consumed per Gaussian draw. */
    final int drawBytes;

    HaetaeSampler(int drawBytes) {
        this.drawBytes = drawBytes;
    }

    /**
     * The default sampler of this implementation.
     *
     * @return {@link #V1_2_0}
     */
    public static HaetaeSampler defaultSampler() {
        return V1_2_0;
    }
}
