package dev.pqsign.telemetry.operator;

import java.time.Instant;
import java.util.Objects;

/**
 * The state of an operator's connection to one sensor, since when, and why.
 *
 * @param sensor the sensor's name
 * @param status what the connection is doing
 * @param since when it entered this status (UTC)
 * @param detail one line: what happened (e.g. the reason a connection attempt failed)
 */
public record ConnectionState(String sensor, Status status, Instant since, String detail) {

    /** What a connection is doing. */
    public enum Status {
        /** The first connection attempt is under way. */
        CONNECTING,
        /** The session is active and the sensor's records are subscribed. */
        CONNECTED,
        /** The session was lost; the operator is reconnecting (readings are backfilled once back). */
        RECONNECTING,
        /** The sensor cannot be reached; attempts continue with a growing, capped delay. */
        DOWN,
        /** The connection was closed by the operator. */
        CLOSED;

        /**
         * The status as the console and metrics name it.
         *
         * @return lower case, e.g. {@code "reconnecting"}
         */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Checks the parts.
     *
     * @param sensor the sensor's name
     * @param status what the connection is doing
     * @param since when it entered this status (UTC)
     * @param detail one line: what happened
     */
    public ConnectionState {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(detail, "detail");
    }

    /**
     * Whether the sensor's records are being received.
     *
     * @return true when {@link Status#CONNECTED}
     */
    public boolean connected() {
        return status == Status.CONNECTED;
    }
}
