package dev.pqsign.bench.report;

import dev.pqsign.bench.report.BenchReport.Result;
import java.util.List;
import java.util.Optional;

/** The BouncyCastle row a report table compares a pqsign (or JDK) row with: same scheme, same operation. */
final class BouncyCastleBaseline {
    static final String IMPL = "bouncycastle";

    private BouncyCastleBaseline() {}

    /**
     * The first BouncyCastle result for {@code scheme} and {@code op} among {@code results}.
     *
     * @return the row, or empty if BouncyCastle was not measured there
     */
    static Optional<Result> of(List<Result> results, String scheme, String op) {
        return results.stream()
                .filter(y -> y.scheme().equals(scheme)
                        && y.op().equals(op)
                        && y.impl().equals(IMPL))
                .findFirst();
    }

    /**
     * {@code x}'s median as a multiple of BouncyCastle's median for the same scheme and operation.
     *
     * @return the ratio, or empty if {@code x} is BouncyCastle's own row or BouncyCastle was not measured
     */
    static Optional<Double> ratio(List<Result> results, Result x) {
        if (x.impl().equals(IMPL)) {
            return Optional.empty();
        }
        return of(results, x.scheme(), x.op())
                .map(y -> x.stats().median() / y.stats().median());
    }
}
