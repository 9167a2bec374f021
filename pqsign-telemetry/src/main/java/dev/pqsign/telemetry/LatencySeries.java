package dev.pqsign.telemetry;

import java.util.Arrays;

/**
 * A thread-safe list of durations in nanoseconds (measured with {@link System#nanoTime()}) with
 * percentile summaries. Percentiles use the nearest-rank method on the sorted samples.
 */
public final class LatencySeries {

    private long[] samples = new long[64];
    private int size;

    /** An empty series. */
    public LatencySeries() {}

    /**
     * Adds one duration; negative values (clock misuse) are clamped to 0.
     *
     * @param nanos the duration in nanoseconds
     */
    public synchronized void add(long nanos) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = Math.max(0, nanos);
    }

    /**
     * Number of samples.
     *
     * @return the number of durations added
     */
    public synchronized int count() {
        return size;
    }

    /**
     * A copy of the samples in nanoseconds, in the order they were added, for callers that draw a
     * distribution rather than the {@link #summary()} percentiles.
     *
     * @return a new array of the samples
     */
    public synchronized long[] toArray() {
        return Arrays.copyOf(samples, size);
    }

    /**
     * Summary in milliseconds; all zeros when empty.
     *
     * @return count, median, p99, maximum and mean in milliseconds
     */
    public Summary summary() {
        long[] s;
        synchronized (this) {
            s = Arrays.copyOf(samples, size);
        }
        if (s.length == 0) {
            return new Summary(0, 0, 0, 0, 0);
        }
        Arrays.sort(s);
        double sum = 0;
        for (long v : s) {
            sum += v;
        }
        return new Summary(s.length, ms(rank(s, 0.50)), ms(rank(s, 0.99)), ms(s[s.length - 1]), sum / s.length / 1e6);
    }

    private static long rank(long[] sorted, double p) {
        int r = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, r - 1))];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /**
     * Percentiles in milliseconds.
     *
     * @param count number of samples
     * @param p50 median
     * @param p99 99th percentile
     * @param max largest sample
     * @param mean arithmetic mean
     */
    public record Summary(int count, double p50, double p99, double max, double mean) {}
}
