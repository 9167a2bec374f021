package dev.pqsign.bench.report;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Times one operation on the calling thread: warm-up, then samples of {@link System#nanoTime()}
 * around each call, with the bytes the thread allocated during each call
 * ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}).
 */
final class Measurer {

    /** One timed operation; {@link #beforeSample()} runs untimed before each call (e.g. to replace an exhausted key). */
    interface Operation {
        default void beforeSample() throws Exception {}

        Object run() throws Exception;
    }

    /** Raw samples of one case. */
    record Samples(double[] millis, long[] allocated) {}

    private static final com.sun.management.ThreadMXBean THREADS = threadBean();
    /** Takes every result so that the JIT cannot drop the work that produced it; never read. */
    private static final AtomicInteger SINK = new AtomicInteger();

    private Measurer() {}

    private static com.sun.management.ThreadMXBean threadBean() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean) {
            com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            if (t.isThreadAllocatedMemorySupported()) {
                if (!t.isThreadAllocatedMemoryEnabled()) {
                    t.setThreadAllocatedMemoryEnabled(true);
                }
                return t;
            }
        }
        return null;
    }

    /** {@code true} if allocated bytes per thread can be measured in this JVM. */
    static boolean allocationSupported() {
        return THREADS != null;
    }

    static Samples measure(Operation op, BenchOptions o) throws Exception {
        long end = System.nanoTime() + o.warmupMs() * 1_000_000L;
        for (int i = 0; i < o.minWarmup() || System.nanoTime() < end; i++) {
            op.beforeSample();
            consume(op.run());
        }
        double[] t = new double[Math.min(o.maxSamples(), 1024)];
        long[] a = new long[t.length];
        int n = 0;
        end = System.nanoTime() + o.measureMs() * 1_000_000L;
        while (n < o.maxSamples() && (n < o.minSamples() || System.nanoTime() < end)) {
            op.beforeSample();
            if (n == t.length) {
                t = java.util.Arrays.copyOf(t, Math.min(o.maxSamples(), 2 * n));
                a = java.util.Arrays.copyOf(a, t.length);
            }
            long a0 = THREADS == null ? 0 : THREADS.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            Object r = op.run();
            long t1 = System.nanoTime();
            long a1 = THREADS == null ? -1 : THREADS.getCurrentThreadAllocatedBytes();
            consume(r);
            t[n] = (t1 - t0) / 1e6;
            a[n] = a1 - a0;
            n++;
        }
        return new Samples(java.util.Arrays.copyOf(t, n), java.util.Arrays.copyOf(a, n));
    }

    private static void consume(Object r) {
        consume(r == null ? 0 : System.identityHashCode(r));
    }

    /** Keeps {@code value}, and the work that computed it, from being optimised away. */
    static void consume(int value) {
        SINK.addAndGet(value);
    }

    /** Median of allocated bytes (or -1 if unsupported). */
    static long medianAllocated(long[] a) {
        if (a.length == 0 || a[0] < 0) {
            return -1;
        }
        long[] s = a.clone();
        java.util.Arrays.sort(s);
        return s[s.length / 2];
    }
}
