package dev.pqsign.operator;

/**
 * Durations in milliseconds with three decimals for the operator's verdict lines, written without
 * {@link String#format}: the operator prints two of them per reading, and parsing the format string
 * each time cost more than writing the whole rest of the line.
 */
final class Milliseconds {
    private Milliseconds() {}

    /**
     * {@code nanos} in milliseconds, three decimals, rounded half up (away from zero), the same
     * text as {@code String.format(Locale.ROOT, "%.3f", nanos / 1e6)}.
     */
    static String threeDecimals(long nanos) {
        if (nanos == Long.MIN_VALUE) {
            return threeDecimals(nanos + 1); // no positive counterpart; a nanosecond less changes nothing shown
        }
        long abs = Math.abs(nanos);
        long micros = abs / 1000 + (abs % 1000 >= 500 ? 1 : 0);
        long fraction = micros % 1000;
        StringBuilder sb = new StringBuilder(24);
        if (nanos < 0) {
            sb.append('-');
        }
        sb.append(micros / 1000).append('.');
        if (fraction < 100) {
            sb.append('0');
        }
        if (fraction < 10) {
            sb.append('0');
        }
        return sb.append(fraction).toString();
    }
}
