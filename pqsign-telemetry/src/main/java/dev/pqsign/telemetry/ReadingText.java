package dev.pqsign.telemetry;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The text of one speed reading: motor speed in RPM with two decimals, a comma, and an ISO-8601 UTC
 * timestamp with nanosecond precision, e.g. {@code 1503.27,2026-11-30T01:26:16.123456789Z}
 * (38 bytes, all ASCII). Telemetry signs and verifies whatever text it is given; this class is the
 * format the simulated sensor produces and that tools can parse for display.
 */
public final class ReadingText {

    private ReadingText() {}

    /**
     * Formats a reading; {@code rpm} must be finite and non-negative.
     *
     * @param rpm motor speed in revolutions per minute
     * @param timestamp when the reading was taken
     * @return the reading text
     * @throws IllegalArgumentException if {@code rpm} is negative, NaN or infinite
     */
    public static String format(double rpm, Instant timestamp) {
        if (!Double.isFinite(rpm) || rpm < 0) {
            throw new IllegalArgumentException("rpm must be finite and non-negative, got " + rpm);
        }
        return String.format(Locale.ROOT, "%.2f,%s", rpm, formatInstant(timestamp));
    }

    /** Always prints nine fraction digits so the length does not vary with the clock value. */
    @SuppressWarnings("JavaInstantGetSecondsGetNano") // the seconds come from toString, the nanos of that second
    private static String formatInstant(Instant t) {
        String s = t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(); // ends with 'Z'
        return s.substring(0, s.length() - 1) + String.format(Locale.ROOT, ".%09dZ", t.getNano());
    }

    /**
     * Parses text produced by {@link #format}.
     *
     * @param text a reading text
     * @return its speed and timestamp
     * @throws IllegalArgumentException if the text is not a reading
     */
    public static Parsed parse(String text) {
        int comma = text.indexOf(',');
        if (comma <= 0 || comma != text.lastIndexOf(',')) {
            throw new IllegalArgumentException("reading must be '<rpm>,<timestamp>'");
        }
        try {
            double rpm = Double.parseDouble(text.substring(0, comma));
            if (!Double.isFinite(rpm) || rpm < 0) {
                throw new IllegalArgumentException("rpm out of range");
            }
            return new Parsed(rpm, Instant.parse(text.substring(comma + 1)));
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("not a reading: " + e.getMessage(), e);
        }
    }

    /**
     * A parsed reading.
     *
     * @param rpm motor speed in revolutions per minute
     * @param timestamp when the sensor took the reading
     */
    public record Parsed(double rpm, Instant timestamp) {}

    /**
     * A sensor-supplied text made safe for one line of a log or terminal: control characters
     * replaced by {@code ?}, cut after 120 characters (marked {@code …}).
     *
     * @param s any text
     * @return the printable line
     */
    public static String printable(String s) {
        StringBuilder sb = new StringBuilder(Math.min(s.length(), 121));
        for (int i = 0; i < s.length() && i < 120; i++) {
            char c = s.charAt(i);
            sb.append(Character.isISOControl(c) ? '?' : c);
        }
        if (s.length() > 120) {
            sb.append('…');
        }
        return sb.toString();
    }
}
