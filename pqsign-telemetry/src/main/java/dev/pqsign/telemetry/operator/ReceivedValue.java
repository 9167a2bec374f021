package dev.pqsign.telemetry.operator;

import java.time.Instant;
import java.util.Objects;

/**
 * One value of a sensor's record node as an operator received it.
 *
 * @param bytes the value's bytes, or null if the value is not a byte string
 * @param description what the value is when it has no bytes (e.g. "no value (Bad_NoData)", "Int32"), for the
 *     verdict; null otherwise
 * @param live true for a live notification, false for a value read from the sensor's history
 * @param receivedAt the operator's UTC wall-clock time of receipt
 * @param receivedNanos the operator's {@link System#nanoTime()} at receipt
 */
public record ReceivedValue(byte[] bytes, String description, boolean live, Instant receivedAt, long receivedNanos) {
    /**
     * Checks that the value has bytes or a description.
     *
     * @param bytes the value's bytes, or null if the value is not a byte string
     * @param description what the value is when it has no bytes, else null
     * @param live true for a live notification, false for a value read from the sensor's history
     * @param receivedAt the operator's UTC wall-clock time of receipt
     * @param receivedNanos the operator's {@link System#nanoTime()} at receipt
     */
    public ReceivedValue {
        if (bytes == null && description == null) {
            throw new IllegalArgumentException("a value without bytes needs a description");
        }
        Objects.requireNonNull(receivedAt, "receivedAt");
    }

    /**
     * A byte-string value received now.
     *
     * @param bytes the value's bytes
     * @param live true for a live notification, false for a value read from the history
     * @return the value
     */
    public static ReceivedValue now(byte[] bytes, boolean live) {
        return new ReceivedValue(Objects.requireNonNull(bytes, "bytes"), null, live, Instant.now(), System.nanoTime());
    }
}
