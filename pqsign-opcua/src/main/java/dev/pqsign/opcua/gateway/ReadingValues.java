package dev.pqsign.opcua.gateway;

import dev.pqsign.telemetry.SkipNotice;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;

/**
 * What a verified reading text says in numbers, for the numeric variables an HMI trends
 * (docs/gateway.md, "Numeric values"). The text is a comma-separated list of fields; a field is
 * used if it is
 *
 * <ul>
 *   <li>the first field and a plain decimal number: the reading's {@code value};
 *   <li>{@code NAME=number}: the value of {@code NAME};
 *   <li>an ISO-8601 UTC instant ({@code 2026-11-30T01:26:16.123456789Z}): the signed time the reading
 *       carries (the first such field).
 * </ul>
 *
 * Anything else is ignored. A reading text starting with {@code pqsign:} is a statement of the
 * sensor (a skip notice, an upstream fact), not a measurement: it has no values; except an upstream
 * {@code value} fact ({@link UpstreamReading}), which is the measurement of an upstream server.
 *
 * @param value the first field as a number, or NaN if it is not one
 * @param named the {@code name=number} fields, in order (first occurrence of a name wins)
 * @param signedTime the first instant field, if any
 * @param sourceStatus the status the reading's source gave the value: Good, except for an upstream
 *     value, which carries the upstream server's status
 */
record ReadingValues(double value, Map<String, Double> named, Optional<Instant> signedTime, StatusCode sourceStatus) {

    /** Longest number field, in characters. */
    static final int MAX_NUMBER_CHARS = 64;

    /** Most {@code name=number} fields taken from one reading. */
    static final int MAX_NAMED = 32;

    /** Plain decimal: optional sign, digits, optional fraction, optional exponent. */
    private static final Pattern NUMBER = Pattern.compile("[+-]?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]{1,3})?");

    /** A name: a letter or underscore, then up to 31 letters, digits or underscores. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,31}");

    /** An ISO-8601 UTC instant with whole seconds and 0 to 9 fraction digits. */
    private static final Pattern INSTANT =
            Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z");

    private static final ReadingValues NONE =
            new ReadingValues(Double.NaN, Map.of(), Optional.empty(), StatusCode.GOOD);

    /**
     * Copies the names.
     *
     * @param value the first field as a number, or NaN
     * @param named the {@code name=number} fields
     * @param signedTime the first instant field, if any
     * @param sourceStatus the status the source gave the value
     */
    ReadingValues {
        named = Collections.unmodifiableMap(new LinkedHashMap<>(named));
    }

    /**
     * Whether the text is a measurement at all (not a statement of the sensor's own).
     *
     * @param reading a verified reading text
     * @return false for texts starting with {@code pqsign:}, except an upstream {@code value} fact
     */
    static boolean isMeasurement(String reading) {
        if (!reading.startsWith(SkipNotice.RESERVED)) {
            return true;
        }
        return UpstreamReading.fact(reading).orElse(null) instanceof UpstreamValue;
    }

    /**
     * Parses a reading text.
     *
     * @param reading a verified reading text
     * @return what it says in numbers (nothing for a statement of the sensor)
     */
    static ReadingValues parse(String reading) {
        if (reading.startsWith(SkipNotice.RESERVED)) {
            return UpstreamReading.fact(reading).orElse(null) instanceof UpstreamValue v
                    ? UpstreamReading.values(v)
                    : NONE;
        }
        double value = Double.NaN;
        Map<String, Double> named = new LinkedHashMap<>();
        Instant time = null;
        int start = 0;
        boolean first = true;
        while (start <= reading.length()) {
            int comma = reading.indexOf(',', start);
            int end = comma < 0 ? reading.length() : comma;
            String field = reading.substring(start, end).strip();
            if (first) {
                value = number(field);
                first = false;
            }
            int eq = field.indexOf('=');
            if (eq > 0 && named.size() < MAX_NAMED) {
                String name = field.substring(0, eq);
                double v = number(field.substring(eq + 1));
                if (!Double.isNaN(v) && NAME.matcher(name).matches()) {
                    named.putIfAbsent(name, v);
                }
            } else if (time == null) {
                time = instant(field);
            }
            if (comma < 0) {
                break;
            }
            start = comma + 1;
        }
        return new ReadingValues(value, named, Optional.ofNullable(time), StatusCode.GOOD);
    }

    /** The field as a finite number, or NaN. */
    private static double number(String field) {
        if (field.isEmpty()
                || field.length() > MAX_NUMBER_CHARS
                || !NUMBER.matcher(field).matches()) {
            return Double.NaN;
        }
        double d = Double.parseDouble(field);
        return Double.isFinite(d) ? d : Double.NaN;
    }

    /** The field as an instant, or null. */
    private static Instant instant(String field) {
        if (field.length() > 30 || !INSTANT.matcher(field).matches()) {
            return null;
        }
        try {
            return Instant.parse(field);
        } catch (DateTimeParseException e) {
            return null; // e.g. month 13: not an instant
        }
    }

    /**
     * Whether the first field is a number.
     *
     * @return true if {@link #value} is one
     */
    boolean hasValue() {
        return !Double.isNaN(value);
    }
}
