package dev.pqsign.bench.report;

import dev.pqsign.bench.report.BenchReport.Result;
import dev.pqsign.bench.report.BenchReport.Sizes;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a run has measured so far, in the order measured: the timed rows, the sizes and the notes; and
 * the one way a per-family class times a row ({@link Measurer} on this thread, one log line per row).
 */
final class Measurements {
    private final BenchOptions options;
    private final SecureRandom random = new SecureRandom();
    private final int cores = Runtime.getRuntime().availableProcessors();
    private final List<Result> results = new ArrayList<>();
    private final List<Sizes> sizes = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Measurements(BenchOptions options) {
        this.options = options;
    }

    BenchOptions options() {
        return options;
    }

    /** The randomness for every key and signature the run makes. */
    SecureRandom random() {
        return random;
    }

    /** The processors a multi-threaded keygen may use. */
    int cores() {
        return cores;
    }

    /** The timed rows; {@link LmsRows} appends its alternately measured rows here. */
    List<Result> results() {
        return results;
    }

    List<Sizes> sizes() {
        return sizes;
    }

    List<String> notes() {
        return notes;
    }

    void size(Sizes s) {
        sizes.add(s);
    }

    void note(String n) {
        notes.add(n);
    }

    /** Times {@code operation} as the row (scheme, op, impl, threads) and logs its median and p99. */
    void record(String scheme, String op, String impl, int threads, Measurer.Operation operation) throws Exception {
        Measurer.Samples s = Measurer.measure(operation, options);
        Stats st = Stats.of(s.millis());
        results.add(new Result(scheme, op, impl, threads, st, Measurer.medianAllocated(s.allocated())));
        options.log()
                .accept(String.format(
                        Locale.ROOT,
                        "%-22s %-7s %-22s %2d thr  median %10.4f ms  p99 %10.4f ms  n %d",
                        scheme,
                        op,
                        impl,
                        threads,
                        st.median(),
                        st.p99(),
                        st.n()));
    }
}
