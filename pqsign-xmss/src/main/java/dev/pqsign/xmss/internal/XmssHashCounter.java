package dev.pqsign.xmss.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts hash-function calls and compression-function (SHA-2) or permutation (SHAKE) calls made by
 * all XMSS code in this JVM, for benchmarks and reports: hash-based signing is bound by hashing, so
 * the count per operation is the honest measure of wasted work.
 *
 * <p>Counting is off unless the JVM starts with {@code -Dpqsign.xmss.countHashes=true}; the flag is
 * read once into a constant, so normal runs pay nothing for it. Compressions are derived from the
 * input lengths by the padding rules of FIPS 180-4 / FIPS 202, which fix them exactly.
 *
 * <p>Internal: for pqsign's own benchmarks, not part of the API (the package is not exported).
 */
public final class XmssHashCounter {
    private static final boolean ENABLED = Boolean.getBoolean("pqsign.xmss.countHashes");
    private static final LongAdder CALLS = new LongAdder();
    private static final LongAdder COMPRESSIONS = new LongAdder();

    private XmssHashCounter() {}

    /** {@code true} if this JVM counts (started with -Dpqsign.xmss.countHashes=true). */
    public static boolean enabled() {
        return ENABLED;
    }

    /** Adds to the counts; called by the hash cores only when {@link #enabled()}. */
    public static void add(long calls, long compressions) {
        CALLS.add(calls);
        COMPRESSIONS.add(compressions);
    }

    /** Hash-function calls since start or the last {@link #reset()}. */
    public static long calls() {
        return CALLS.sum();
    }

    /** Compression-function / permutation calls since start or the last {@link #reset()}. */
    public static long compressions() {
        return COMPRESSIONS.sum();
    }

    /** Sets both counts back to zero. */
    public static void reset() {
        CALLS.reset();
        COMPRESSIONS.reset();
    }
}
