package dev.pqsign.telemetry;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * A change in a sensor's key state as an operator sees it on the sensor's key-state nodes: the key
 * runs short without a next key ready ({@link Kind#KEY_WARNING}), the sensor cannot prepare its next
 * key ({@link Kind#KEY_ALARM}), or all is well again ({@link Kind#KEY_OK}). A verdict-free line of
 * the verdict stream.
 *
 * @param sensor the sensor's name at the operator
 * @param kind what changed
 * @param generation the sensor's current key generation
 * @param remaining signatures the current key can still make
 * @param secondsLeft seconds until it runs out at the observed rate (NaN if unknown)
 * @param nextKeyReady whether the next key is prepared
 * @param detail one line for people
 * @param at the operator's UTC time of the observation
 */
public record KeyStatusEvent(
        String sensor,
        Kind kind,
        long generation,
        long remaining,
        double secondsLeft,
        boolean nextKeyReady,
        String detail,
        Instant at) {

    /** The three states an operator reports transitions between. */
    public enum Kind {
        /** The key has enough left, or its successor is ready. */
        KEY_OK,
        /** The key runs short and no next key is ready. */
        KEY_WARNING,
        /** The sensor reports that it cannot prepare its next key. */
        KEY_ALARM
    }

    /**
     * Checks that the sensor, kind, detail and time are given.
     *
     * @param sensor the sensor's name at the operator
     * @param kind what changed
     * @param generation the sensor's current key generation
     * @param remaining signatures the current key can still make
     * @param secondsLeft seconds until it runs out at the observed rate (NaN if unknown)
     * @param nextKeyReady whether the next key is prepared
     * @param detail one line for people
     * @param at the operator's UTC time of the observation
     */
    public KeyStatusEvent {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(at, "at");
    }

    /**
     * Classifies a key state: an alarm text from the sensor is an alarm; fewer than
     * {@code warnRemaining} signatures or {@code warnSeconds} seconds left without a next key ready is
     * a warning; anything else is OK.
     *
     * @param sensor the sensor's name at the operator
     * @param generation the sensor's current key generation
     * @param remaining signatures the current key can still make
     * @param secondsLeft seconds until it runs out at the observed rate (NaN if unknown)
     * @param nextKeyReady whether the next key is prepared
     * @param alarm the sensor's alarm text; null or empty if none
     * @param warnRemaining warn below this many signatures left
     * @param warnSeconds warn below this many seconds left
     * @param at the operator's UTC time of the observation
     * @return the event, with a one-line detail
     */
    public static KeyStatusEvent classify(
            String sensor,
            long generation,
            long remaining,
            double secondsLeft,
            boolean nextKeyReady,
            String alarm,
            long warnRemaining,
            double warnSeconds,
            Instant at) {
        if (alarm != null && !alarm.isEmpty()) {
            return new KeyStatusEvent(
                    sensor, Kind.KEY_ALARM, generation, remaining, secondsLeft, nextKeyReady, alarm, at);
        }
        if (remaining == 0 && !nextKeyReady) {
            return new KeyStatusEvent(
                    sensor,
                    Kind.KEY_ALARM,
                    generation,
                    0,
                    secondsLeft,
                    false,
                    "key generation " + generation
                            + " is exhausted and no next key is ready: the sensor signs nothing more",
                    at);
        }
        boolean runningOut = remaining < warnRemaining || (!Double.isNaN(secondsLeft) && secondsLeft < warnSeconds);
        if (runningOut && !nextKeyReady) {
            return new KeyStatusEvent(
                    sensor,
                    Kind.KEY_WARNING,
                    generation,
                    remaining,
                    secondsLeft,
                    false,
                    String.format(
                            Locale.ROOT,
                            "key generation %d has %d signatures left (%s) and no next key" + " ready",
                            generation,
                            remaining,
                            Double.isNaN(secondsLeft)
                                    ? "time left unknown"
                                    : String.format(Locale.ROOT, "%.0f s at the current rate", secondsLeft)),
                    at);
        }
        return new KeyStatusEvent(
                sensor,
                Kind.KEY_OK,
                generation,
                remaining,
                secondsLeft,
                nextKeyReady,
                "key generation " + generation + " has " + remaining + " signatures left"
                        + (nextKeyReady ? ", next key ready" : ""),
                at);
    }
}
