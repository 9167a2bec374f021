package dev.pqsign.haetae;

import java.util.function.IntSupplier;

/**
 * Whether the fast engine runs several SHAKE256 streams through {@link VectorKeccak}: an explicit,
 * per-JVM opt-in, decided once when this class is loaded, from nothing but the JVM's flags.
 *
 * <p>The vector path is on exactly when the JVM was started with both
 * {@code -Dpqsign.haetae.vector=true} and {@code --add-modules jdk.incubator.vector} (the
 * {@code pqsign} launcher passes both for {@code PQSIGN_VECTOR=1}), the species has at least 4
 * lanes of 64 bits, and a one-permutation self-test against the scalar Keccak passes. Otherwise the
 * engine uses its scalar Keccak, which is the default. Both paths produce the same bytes.
 *
 * <p><b>Why opt-in.</b> On Java 17 the Vector API is an incubator module; until C2 has compiled the
 * kernels it runs them with a heap object per vector operation, far slower than the scalar code,
 * and in some JVMs C2 never got them to run allocation-free. An earlier version therefore started a
 * warm-up thread when this class was loaded and switched the vector path on only once the kernels ran
 * allocation-free, so which path ran varied from run to run. Now no thread is started and nothing
 * depends on timing: an opted-in JVM uses the vector kernels from its first signature (slow and
 * allocating until they are compiled), every other JVM uses the scalar code, and {@link #describe()}
 * says which (the benchmark report and the demo print it).
 *
 * <p>This class references {@link VectorKeccak} only after finding the module in the boot layer, so
 * without the module nothing touches it (no {@code NoClassDefFoundError}).
 */
final class VectorSupport {
    /** System property that opts in to the vector path when set to {@code true}. */
    static final String PROPERTY = "pqsign.haetae.vector";

    /** States per vector permutation, or 0 if the vector path is off. */
    static final int LANES = choose(System.getProperty(PROPERTY), modulePresent(), VectorSupport::probe);

    private VectorSupport() {}

    /**
     * The decision, as a function of its inputs only.
     *
     * @param property the value of {@link #PROPERTY} (null if unset)
     * @param module whether {@code jdk.incubator.vector} is in the boot layer
     * @param probe lanes of a working vector Keccak (0 if narrower than 4 lanes or the self-test
     *        fails); called only when the other two inputs allow the vector path
     * @return the lanes to use, 0 for the scalar path
     */
    static int choose(String property, boolean module, IntSupplier probe) {
        if (!"true".equalsIgnoreCase(property) || !module) {
            return 0;
        }
        return probe.getAsInt();
    }

    static boolean enabled() {
        return LANES > 0;
    }

    /** Which path this JVM's fast engine uses and why (for reports and diagnostics). */
    static String describe() {
        if (LANES > 0) {
            return "Vector API path, " + LANES + " lanes (opted in with -D" + PROPERTY + "=true)";
        }
        if (!"true".equalsIgnoreCase(System.getProperty(PROPERTY))) {
            return "scalar path (the default; PQSIGN_VECTOR=1, i.e. -D" + PROPERTY
                    + "=true --add-modules jdk.incubator.vector, opts in to the Vector API path)";
        }
        if (!modulePresent()) {
            return "scalar path (-D" + PROPERTY + "=true, but the JVM lacks --add-modules jdk.incubator.vector)";
        }
        return "scalar path (-D" + PROPERTY + "=true, but the vector species is narrower than 4 x 64 bits "
                + "or its self-test failed)";
    }

    /**
     * Draws per vector batch of Gaussians, both samplers ({@link VectorDraws}), or 0: only with 8
     * lanes (AVX-512, whose 64-bit lane multiply the batch relies on); fewer lanes keep the scalar
     * draws.
     */
    static int drawLanes() {
        return LANES == 8 && !"false".equalsIgnoreCase(System.getProperty(PROPERTY + ".draws")) ? VectorDraws.W : 0;
    }

    private static boolean modulePresent() {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    /** Lanes of the vector Keccak if it is wide enough and agrees with the scalar one, else 0. */
    private static int probe() {
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
        long[] st = new long[VectorKeccak.STATE_LONGS];
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
