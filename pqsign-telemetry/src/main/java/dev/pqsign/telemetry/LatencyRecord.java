package dev.pqsign.telemetry;

/**
 * Durations of one reading's trip, in nanoseconds of {@link System#nanoTime()}.
 *
 * @param signNanos sensor: reserve index, build message, sign
 * @param transferNanos from the sensor publishing the signed record until the operator holds it (the notification)
 * @param verifyNanos operator: verification policy including the durable replay-state update
 * @param endToEndNanos from the start of signing until the verdict (comparable only when sensor
 *     and operator share a host, whose monotonic clock they both read)
 */
public record LatencyRecord(long signNanos, long transferNanos, long verifyNanos, long endToEndNanos) {}
