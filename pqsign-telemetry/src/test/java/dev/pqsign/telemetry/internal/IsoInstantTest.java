package dev.pqsign.telemetry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** {@link IsoInstant#format} writes what {@link Instant#toString()} writes, for every instant. */
class IsoInstantTest {

    @Property(tries = 5000)
    void format_anyInstantOfTheFourDigitYears_isInstantToString(
            @ForAll @LongRange(min = -62_167_219_200L, max = 253_402_300_799L) long seconds,
            @ForAll @IntRange(min = 0, max = 999_999_999) int nanos) {
        Instant t = Instant.ofEpochSecond(seconds, nanos);
        assertEquals(t.toString(), IsoInstant.format(t));
    }

    @Property(tries = 2000)
    void format_wholeMillisAndMicros_isInstantToString(
            @ForAll @LongRange(min = 0, max = 4_102_444_800L) long seconds,
            @ForAll @IntRange(min = 0, max = 999_999) int micros) {
        Instant millis = Instant.ofEpochSecond(seconds, micros % 1000 * 1_000_000L);
        Instant us = Instant.ofEpochSecond(seconds, micros * 1000L);
        assertEquals(millis.toString(), IsoInstant.format(millis));
        assertEquals(us.toString(), IsoInstant.format(us));
    }

    @Test
    void format_edges_isInstantToString() {
        for (Instant t : new Instant[] {
            Instant.EPOCH,
            Instant.ofEpochSecond(0, 1),
            Instant.ofEpochSecond(-1, 999_999_999),
            Instant.parse("0000-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999999999Z"),
            Instant.parse("+10000-01-01T00:00:00Z"),
            Instant.parse("-0001-12-31T23:59:59Z"),
            Instant.parse("2024-02-29T12:00:00.100Z"),
            Instant.parse("2026-12-03T13:38:23.826503108Z"),
            Instant.MIN,
            Instant.MAX
        }) {
            assertEquals(t.toString(), IsoInstant.format(t), t::toString);
        }
    }
}
