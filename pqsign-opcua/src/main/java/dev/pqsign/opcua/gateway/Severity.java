package dev.pqsign.opcua.gateway;

import dev.pqsign.telemetry.Verdict;

/**
 * OPC UA event severity (1 … 1000, Part 5) of each verdict that raises an event. A forged or
 * reused signature is worse than a lost reading; a key's index used twice is the worst: the key
 * itself can no longer be trusted.
 */
final class Severity {
    private Severity() {}

    /**
     * The severity of an event for {@code reason}, or 0 if the reason raises none.
     *
     * @param reason a verdict reason
     * @return 1 … 1000, or 0 for ACCEPTED, DUPLICATE, SKIPPED and a followed HANDOVER
     */
    static int of(Verdict.Reason reason) {
        return switch (reason) {
            case INDEX_REUSE -> 1000;
            case BAD_SIGNATURE, INDEX_MISMATCH -> 900;
            case RETIRED_KEY, HANDOVER_REJECTED -> 850;
            case UNKNOWN_KEY, REPLAYED -> 750;
            case MALFORMED, STATE_ERROR -> 600;
            case GAP -> 400;
            case ACCEPTED, DUPLICATE, SKIPPED, HANDOVER -> 0;
        };
    }
}
