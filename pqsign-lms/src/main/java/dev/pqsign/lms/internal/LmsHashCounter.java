package dev.pqsign.lms.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts hash-function calls and compression-function (SHA-256) or permutation (SHAKE256) calls made
 * by all LMS / HSS code in this JVM, for benchmarks and reports: hash-based signing is bound by
 * hashing, so the count per operation is the honest measure of work.
 *
 * <p>Counting is off unless the JVM starts with {@code -Dpqsign.lms.countHashes=true}; the flag is
 * read once into a constant, so normal runs pay nothing for it. Compressions are derived from the
 * input lengths by the padding rules of FIPS 180-4 / FIPS 202, which fix them exactly.
 *
 * <p>Internal: for pqsign's own benchmarks, not part of the API (the package is not exported).
 */
public final class LmsHashCounter {
    private static final boolean ENABLED = Boolean.getBoolean("pqsign.lms.countHashes");
    private static final LongAdder CALLS = new LongAdder();
    private static final LongAdder COMPRESSIONS = new LongAdder();

    private LmsHashCounter() {}

    /**
     * Whether this JVM counts.
     *
     * @return {@code true} if started with -Dpqsign.lms.countHashes=true
     */
    public static boolean enabled() {
        return ENABLED;
    }

    /**
     * Adds to the counts; called by the hash functions only when {@link #enabled()}.
     *
     * @param calls hash-function calls
     * @param compressions compression-function or permutation calls
     */
    public static void add(long calls, long compressions) {
        CALLS.add(calls);
        COMPRESSIONS.add(compressions);
    }

    /**
     * Hash-function calls since start or the last {@link #reset()}.
     *
     * @return the count
     */
    public static long calls() {
        return CALLS.sum();
    }

    /**
     * Compression-function / permutation calls since start or the last {@link #reset()}.
     *
     * @return the count
     */
    public static long compressions() {
        return COMPRESSIONS.sum();
    }

    /** Sets both counts back to zero. */
    public static void reset() {
        CALLS.reset();
        COMPRESSIONS.reset();
    }
}
