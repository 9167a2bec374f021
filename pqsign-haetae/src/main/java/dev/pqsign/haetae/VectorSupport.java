package dev.pqsign.haetae;

/**
 * Whether the fast engine may run several SHAKE256 streams through {@link VectorKeccak}.
 *
 * <p>The Vector API is an incubator module in Java 17: it is only there when the JVM was started
 * with {@code --add-modules jdk.incubator.vector}. This class references {@link VectorKeccak} only
 * after finding the module in the boot layer, so without the module nothing touches it (no
 * {@code NoClassDefFoundError}) and the engine keeps its scalar Keccak. The system property
 * {@code pqsign.haetae.vector=false} disables the vector path even when the module is present.
 * Both paths produce the same bytes.
 */
final class VectorSupport {
    /** System property that disables the vector path when set to {@code false}. */
    static final String PROPERTY = "pqsign.haetae.vector";

    /** States per vector permutation, or 0 if the vector path is off. */
    static final int LANES = detect();

    private VectorSupport() {
    }

    static boolean enabled() {
        return LANES > 0;
    }

    /** Why the vector path is on or off (for diagnostics and the benchmarks). */
    static String describe() {
        if (LANES > 0) {
            return "vector Keccak, " + LANES + " lanes";
        }
        if ("false".equalsIgnoreCase(System.getProperty(PROPERTY))) {
            return "scalar Keccak (-D" + PROPERTY + "=false)";
        }
        if (!modulePresent()) {
            return "scalar Keccak (no --add-modules jdk.incubator.vector)";
        }
        return "scalar Keccak (vector species narrower than 4 x 64 bits, or self-test failed)";
    }

    /**
     * Draws per vector batch of v1.1.2 Gaussians ({@link VectorDraws}), or 0: only with 8 lanes
     * (AVX-512, whose 64-bit lane multiply the batch relies on); fewer lanes keep the scalar draws.
     */
    static int drawLanes() {
        return LANES == 8 && !"false".equalsIgnoreCase(System.getProperty(PROPERTY + ".draws")) ? VectorDraws.W : 0;
    }

    private static boolean modulePresent() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    private static int detect() {
        if ("false".equalsIgnoreCase(System.getProperty(PROPERTY)) || !modulePresent()) {
            return 0;
        }
        try {
            int w = VectorKeccak.W;
            // fewer than 4 lanes (no 256-bit vectors) would be slower than the scalar permutation
            return w >= 4 && selfTest(w) ? w : 0;
        } catch (LinkageError e) {
            return 0;
        }
    }

    /** One permutation of w different states against the scalar Keccak. */
    private static boolean selfTest(int w) {
        long[] st = new long[25 * w];
        for (int i = 0; i < st.length; i++) {
            st[i] = 0x9E3779B97F4A7C15L * (i + 1);
        }
        long[] copy = st.clone();
        VectorKeccak.permute(st);
        long[] lanes = new long[25];
        for (int j = 0; j < w; j++) {
            for (int i = 0; i < 25; i++) {
                lanes[i] = copy[i * w + j];
            }
            Keccak.permuteLanes(lanes);
            for (int i = 0; i < 25; i++) {
                if (lanes[i] != st[i * w + j]) {
                    return false;
                }
            }
        }
        return true;
    }
}
