package dev.pqsign.bench.report;

import java.util.Arrays;

/**
 * Order statistics of one series of samples (milliseconds). Median: the middle sample, or the mean of
 * the two middle samples for an even count. p99: nearest rank, the smallest sample with at least 99 %
 * of the samples at or below it ({@code sorted[ceil(0.99 n) - 1]}). Max: the largest sample.
 *
 * @param n number of samples
 * @param median median
 * @param p99 99th percentile (nearest rank)
 * @param max largest sample
 * @param mean arithmetic mean
 */
public record Stats(int n, double median, double p99, double max, double mean) {

    /**
     * Statistics of {@code samples} (not modified).
     *
     * @param samples the series, in milliseconds; at least one
     * @return its order statistics and mean
     * @throws IllegalArgumentException if {@code samples} is empty
     */
    public static Stats of(double[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        double[] s = samples.clone();
        Arrays.sort(s);
        int n = s.length;
        double median = (n % 2 == 1) ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        double sum = 0;
        for (double v : s) {
            sum += v;
        }
        return new Stats(n, median, percentile(s, 99), s[n - 1], sum / n);
    }

    /** Nearest-rank percentile {@code pct} (0 &lt; pct &le; 100) of ascending {@code sorted}. */
    static double percentile(double[] sorted, double pct) {
        int rank = (int) Math.ceil(pct * sorted.length / 100.0);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }
}
