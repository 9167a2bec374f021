package dev.pqsign.telemetry;

/** Collects {@link LatencyRecord}s into four {@link LatencySeries}. Thread-safe. */
public final class LatencyStats {

    private final LatencySeries sign = new LatencySeries();
    private final LatencySeries transfer = new LatencySeries();
    private final LatencySeries verify = new LatencySeries();
    private final LatencySeries endToEnd = new LatencySeries();

    /** Empty statistics. */
    public LatencyStats() {}

    /** Adds one reading's durations. */
    public void add(LatencyRecord r) {
        sign.add(r.signNanos());
        transfer.add(r.transferNanos());
        verify.add(r.verifyNanos());
        endToEnd.add(r.endToEndNanos());
    }

    /** Signing durations. */
    public LatencySeries sign() {
        return sign;
    }

    /** Transfer durations. */
    public LatencySeries transfer() {
        return transfer;
    }

    /** Verification durations. */
    public LatencySeries verify() {
        return verify;
    }

    /** End-to-end durations. */
    public LatencySeries endToEnd() {
        return endToEnd;
    }
}
