package dev.pqsign.telemetry.internal;

import java.time.Instant;
import java.time.LocalDate;

/**
 * {@link Instant#toString()}'s text (ISO-8601 in UTC, the fraction in groups of three digits, none
 * if zero) written without {@link java.time.format.DateTimeFormatter}: an operator writes two per
 * verdict line, and the formatter's general machinery cost more than the rest of the timestamp work.
 */
public final class IsoInstant {
    private static final long SECONDS_PER_DAY = 86_400;
    /** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: years of four digits, no sign. */
    private static final long FIRST = -62_167_219_200L;

    private static final long END = 253_402_300_800L;

    private IsoInstant() {}

    /**
     * The instant as {@link Instant#toString()} writes it.
     *
     * @param t the instant
     * @return the same text as {@code t.toString()}
     */
    public static String format(Instant t) {
        long seconds = t.getEpochSecond();
        if (seconds < FIRST || seconds >= END) {
            return t.toString(); // a year without four digits: signs and widths as the JDK writes them
        }
        long days = Math.floorDiv(seconds, SECONDS_PER_DAY);
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        LocalDate date = LocalDate.ofEpochDay(days);
        StringBuilder sb = new StringBuilder(30);
        digits(sb, date.getYear(), 4).append('-');
        digits(sb, date.getMonthValue(), 2).append('-');
        digits(sb, date.getDayOfMonth(), 2).append('T');
        digits(sb, secondOfDay / 3600, 2).append(':');
        digits(sb, secondOfDay / 60 % 60, 2).append(':');
        digits(sb, secondOfDay % 60, 2);
        int nano = t.getNano();
        if (nano > 0) {
            sb.append('.');
            if (nano % 1_000_000 == 0) {
                digits(sb, nano / 1_000_000, 3);
            } else if (nano % 1000 == 0) {
                digits(sb, nano / 1000, 6);
            } else {
                digits(sb, nano, 9);
            }
        }
        return sb.append('Z').toString();
    }

    /** {@code value} (not negative) in exactly {@code width} digits, zeros in front. */
    private static StringBuilder digits(StringBuilder sb, int value, int width) {
        int start = sb.length();
        for (int i = 0; i < width; i++) {
            sb.append('0');
        }
        for (int i = start + width - 1; value > 0; i--) {
            sb.setCharAt(i, (char) ('0' + value % 10));
            value /= 10;
        }
        return sb;
    }
}
