package dev.pqsign.telemetry.upstream;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Pattern;

/**
 * An OPC UA DateTime as upstream reading texts write it: the count of 100 ns ticks since
 * 1601-01-01T00:00:00Z (OPC UA Part 6, 5.2.2.5), written {@code YYYY-MM-DDThh:mm:ss.fffffffZ}
 * (UTC, seven fraction digits: every tick, nothing finer). As Part 6 says, a tick count at or below
 * zero is the earliest time ({@code min}) and one at or after 9999-12-31T23:59:59Z the latest
 * ({@code max}); both are normalized here, so a time and its text correspond one to one.
 *
 * @param ticks 100 ns ticks since 1601-01-01 UTC; 0 for {@code min}, {@link Long#MAX_VALUE} for {@code max}
 */
public record UpstreamTime(long ticks) {

    /** Seconds from 1601-01-01 to 1970-01-01. */
    private static final long EPOCH_1601 = 11_644_473_600L;

    /** Ticks of 9999-12-31T23:59:59Z: this and later are {@code max}. */
    static final long MAX_ISO_TICKS = (253_402_300_799L + EPOCH_1601) * 10_000_000L;

    private static final Pattern ISO =
            Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{7}Z");

    /**
     * Normalizes the tick count.
     *
     * @param ticks 100 ns ticks since 1601-01-01 UTC
     */
    public UpstreamTime {
        if (ticks <= 0) {
            ticks = 0;
        } else if (ticks >= MAX_ISO_TICKS) {
            ticks = Long.MAX_VALUE;
        }
    }

    /**
     * The time of an instant, truncated to whole ticks.
     *
     * @param t an instant
     * @return its upstream time
     */
    public static UpstreamTime of(Instant t) {
        long seconds = t.getEpochSecond() + EPOCH_1601;
        if (seconds < 0) {
            return new UpstreamTime(0);
        }
        if (seconds >= MAX_ISO_TICKS / 10_000_000L) {
            return new UpstreamTime(Long.MAX_VALUE);
        }
        return new UpstreamTime(seconds * 10_000_000L + t.getNano() / 100);
    }

    /**
     * Whether this is the earliest time OPC UA has ("no time" for many servers).
     *
     * @return whether the tick count is 0
     */
    public boolean isMin() {
        return ticks == 0;
    }

    /**
     * Whether this is the latest time OPC UA has.
     *
     * @return whether it is 9999-12-31T23:59:59Z or later
     */
    public boolean isMax() {
        return ticks == Long.MAX_VALUE;
    }

    /**
     * The instant, for a time between {@code min} and {@code max}.
     *
     * @return the instant
     * @throws IllegalStateException for {@code min} or {@code max}
     */
    public Instant toInstant() {
        if (isMin() || isMax()) {
            throw new IllegalStateException("no instant for " + text());
        }
        return Instant.ofEpochSecond(ticks / 10_000_000L - EPOCH_1601, (ticks % 10_000_000L) * 100);
    }

    /**
     * The text: {@code min}, {@code max}, or {@code YYYY-MM-DDThh:mm:ss.fffffffZ}.
     *
     * @return the text of this time
     */
    public String text() {
        if (isMin()) {
            return "min";
        }
        if (isMax()) {
            return "max";
        }
        LocalDateTime d = LocalDateTime.ofEpochSecond(ticks / 10_000_000L - EPOCH_1601, 0, ZoneOffset.UTC);
        return String.format(
                java.util.Locale.ROOT,
                "%04d-%02d-%02dT%02d:%02d:%02d.%07dZ",
                d.getYear(),
                d.getMonthValue(),
                d.getDayOfMonth(),
                d.getHour(),
                d.getMinute(),
                d.getSecond(),
                ticks % 10_000_000L);
    }

    /**
     * Parses {@link #text()}.
     *
     * @param text {@code min}, {@code max} or a time as {@link #text()} writes it
     * @return the time
     * @throws IllegalArgumentException if {@code text} is not such a time, or not the canonical
     *     text of one (a calendar date that does not exist, a year outside 1601…9999, a time
     *     {@code min} or {@code max} stands for)
     */
    public static UpstreamTime parse(String text) {
        if (text.equals("min")) {
            return new UpstreamTime(0);
        }
        if (text.equals("max")) {
            return new UpstreamTime(Long.MAX_VALUE);
        }
        if (!ISO.matcher(text).matches()) {
            throw new IllegalArgumentException("not a time (YYYY-MM-DDThh:mm:ss.fffffffZ, min or max): " + text);
        }
        LocalDateTime d;
        try {
            d = LocalDateTime.parse(text.substring(0, 19));
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("not a calendar time: " + text, e);
        }
        long seconds = d.toEpochSecond(ZoneOffset.UTC) + EPOCH_1601;
        long ticks = seconds * 10_000_000L + Long.parseLong(text.substring(20, 27));
        if (seconds < 0 || ticks <= 0 || ticks >= MAX_ISO_TICKS) {
            throw new IllegalArgumentException("time outside the range written as a date (use min or max): " + text);
        }
        return new UpstreamTime(ticks);
    }

    @Override
    public String toString() {
        return text();
    }
}
