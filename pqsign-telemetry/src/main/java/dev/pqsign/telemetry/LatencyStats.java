package dev.pqsign.telemetry;

/** Collects {@link LatencyRecord}s into four {@link LatencySeries}. Thread-safe. */
public final class LatencyStats {

    private final LatencySeries sign = new LatencySeries();
    private final LatencySeries transfer = new LatencySeries();
    private final LatencySeries verify = new LatencySeries();
    private final LatencySeries endToEnd = new LatencySeries();

    /** Empty statistics. */
    public LatencyStats() {}

    /**
     * Adds one reading's durations.
     *
     * @param r the reading's sign, transfer, verify and end-to-end durations
     */
    public void add(LatencyRecord r) {
        sign.add(r.signNanos());
        transfer.add(r.transferNanos());
        verify.add(r.verifyNanos());
        endToEnd.add(r.endToEndNanos());
    }

    /**
     * Signing durations.
     *
     * @return the series, in nanoseconds
     */
    public LatencySeries sign() {
        return sign;
    }

    /**
     * Transfer durations.
     *
     * @return the series, in nanoseconds
     */
    public LatencySeries transfer() {
        return transfer;
    }

    /**
     * Verification durations.
     *
     * @return the series, in nanoseconds
     */
    public LatencySeries verify() {
        return verify;
    }

    /**
     * End-to-end durations.
     *
     * @return the series, in nanoseconds
     */
    public LatencySeries endToEnd() {
        return endToEnd;
    }
}
