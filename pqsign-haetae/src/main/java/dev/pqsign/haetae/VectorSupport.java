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
 *
 * <p><b>Warm-up gate.</b> Until C2 has compiled the vector kernels, the Vector API runs them with a
 * heap object per vector operation: measured in a fresh JVM, the first ~150 HAETAE-2 signatures took
 * 6–39 ms and allocated 18–60 MB each, and in a JVM whose compiler was busy with other work a whole
 * `pqsign bench --quick` row ran that way (10.8 ms, 24.7 MB per signature). So the engine uses the
 * vector kernels only once {@link #ready()}: a daemon thread calls them in a loop until a batch of
 * calls allocates nothing at all (i.e. they run compiled, vectors in registers), and the sampler
 * keeps its scalar code until then. The thread tries continuously for {@link #WARM_UP_LIMIT_NANOS},
 * then once a second for up to {@link #RETRY_LIMIT_NANOS}, in case C2 recompiles a kernel that still
 * allocates; if they never run allocation-free, the vector path stays off (seen in 3 of 23
 * `pqsign bench` runs, cause not found: docs/haetae.md, warm-up gate).
 */
final class VectorSupport {
    /** System property that disables the vector path when set to {@code false}. */
    static final String PROPERTY = "pqsign.haetae.vector";

    /** States per vector permutation, or 0 if the vector path is off. */
    static final int LANES = detect();

    /** How long the warm-up thread calls the kernels continuously (60 s). */
    static final long WARM_UP_LIMIT_NANOS = 60_000_000_000L;
    /** After that, it checks once a second until this much time has passed (10 min). */
    static final long RETRY_LIMIT_NANOS = 600_000_000_000L;

    /** Set once the vector kernels ran a batch without allocating (see the class description). */
    private static volatile boolean ready;
    private static final Object READY_LOCK = new Object();

    static {
        if (LANES > 0) {
            Thread t = new Thread(VectorSupport::warmUp, "pqsign-haetae-vector-warm-up");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            t.start();
        }
    }

    private VectorSupport() {
    }

    /** Whether the vector kernels are compiled and may be used (false while warming up, and when off). */
    static boolean ready() {
        return ready;
    }

    /** Waits up to {@code millis} for {@link #ready()}; returns it (for tests and benchmarks). */
    static boolean awaitReady(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        synchronized (READY_LOCK) {
            while (!ready && LANES > 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    break;
                }
                READY_LOCK.wait(left);
            }
        }
        return ready;
    }

    /**
     * Calls the vector kernels until 64 consecutive calls of each allocate 0 bytes, then sets
     * {@link #ready}. Inputs are arbitrary: only the compiled state of the code matters.
     */
    private static void warmUp() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean alloc = mx instanceof com.sun.management.ThreadMXBean m
                && m.isThreadAllocatedMemorySupported() ? m : null;
        if (alloc == null) {
            return; // cannot tell compiled from interpreted kernels: keep the scalar code
        }
        alloc.setThreadAllocatedMemoryEnabled(true);
        long[] st = new long[VectorKeccak.STATE_LONGS];
        byte[] rand = new byte[26 * 8 + 8];
        long[] out = new long[6 * 8];
        long[] samples = new long[256];
        byte[] signs = new byte[32];
        int[] scaled = new int[256];
        java.util.Random rnd = new java.util.Random(1);
        rnd.nextBytes(rand);
        boolean draws = drawLanes() > 0;
        long start = System.nanoTime();
        while (System.nanoTime() - start < RETRY_LIMIT_NANOS) {
            if (System.nanoTime() - start > WARM_UP_LIMIT_NANOS) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            for (int i = 0; i < 100; i++) {
                kernels(st, rand, out, samples, signs, scaled, draws);
            }
            long before = alloc.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 64; i++) {
                kernels(st, rand, out, samples, signs, scaled, draws);
            }
            if (alloc.getCurrentThreadAllocatedBytes() == before) {
                synchronized (READY_LOCK) {
                    ready = true;
                    READY_LOCK.notifyAll();
                }
                return;
            }
        }
    }

    private static void kernels(long[] st, byte[] rand, long[] out, long[] samples, byte[] signs, int[] scaled,
            boolean draws) {
        VectorKeccak.permute(st);
        if (draws) {
            VectorDraws.draw16(rand, 0, out);
            VectorDraws.draw83(rand, 0, out);
            VectorDraws.scalePoly(samples, 0, signs, 0, (1L << 47) + 12345, (1L << 31) + 678, scaled, 256, out);
        }
    }

    static boolean enabled() {
        return LANES > 0;
    }

    /** Why the vector path is on or off (for diagnostics and the benchmarks). */
    static String describe() {
        if (LANES > 0) {
            return "vector Keccak, " + LANES + " lanes" + (ready ? "" : " (warming up: scalar until compiled)");
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
