package dev.pqsign.telemetry.upstream;

import java.util.Objects;

/**
 * The upstream server cannot be reached (or its session was lost), since a time, for a reason:
 * {@code pqsign:upstream down since=TIME reason=Q}. Until the next {@link UpstreamUp} no value can
 * come: "no data", not "data lost". Stated once per outage; the sensor keeps trying to reconnect.
 *
 * @param since when the sensor found the upstream unreachable (sensor clock, UTC)
 * @param reason one line, at most {@value #MAX_REASON_CHARS} characters
 */
public record UpstreamDown(UpstreamTime since, String reason) implements UpstreamEvent {

    /** Longest reason. */
    public static final int MAX_REASON_CHARS = 200;

    /**
     * Checks the fields.
     *
     * @param since when the sensor found the upstream unreachable
     * @param reason one line, at most {@value #MAX_REASON_CHARS} characters
     * @throws IllegalArgumentException if the reason is longer
     */
    public UpstreamDown {
        Objects.requireNonNull(since, "since");
        if (reason.length() > MAX_REASON_CHARS) {
            throw new IllegalArgumentException("reason longer than " + MAX_REASON_CHARS + " characters");
        }
    }

    /**
     * An outage with a reason cut to its first line and to {@value #MAX_REASON_CHARS} characters
     * (ending in {@code ...} when cut).
     *
     * @param since when the sensor found the upstream unreachable
     * @param reason why, any length
     * @return the fact
     */
    public static UpstreamDown of(UpstreamTime since, String reason) {
        String line = reason.lines().findFirst().orElse("").strip();
        if (line.length() > MAX_REASON_CHARS) {
            line = line.substring(0, MAX_REASON_CHARS - 3) + "...";
        }
        return new UpstreamDown(since, line);
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "down since=" + since.text() + " reason=" + QuotedText.quote(reason);
    }
}
