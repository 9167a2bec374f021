package dev.pqsign.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MillisecondsTest {

    private static void assertSameAsFormat(long nanos) {
        assertEquals(
                String.format(Locale.ROOT, "%.3f", nanos / 1e6), Milliseconds.threeDecimals(nanos), "nanos " + nanos);
    }

    @Test
    void threeDecimals_roundingBoundariesAndSigns_sameAsStringFormat() {
        long[] values = {
            0,
            1,
            499,
            500,
            501,
            999,
            1000,
            1499,
            1500,
            9_999_499,
            9_999_500,
            99_999_500,
            123_456_789,
            1_000_000,
            60_000_000_000L,
            3_600_000_000_000L
        };
        for (long v : values) {
            assertSameAsFormat(v);
            assertSameAsFormat(-v);
        }
    }

    @Test
    void threeDecimals_randomDurationsUpToDays_sameAsStringFormat() {
        SplittableRandom random = new SplittableRandom(20261201);
        for (int i = 0; i < 200_000; i++) {
            long bound = i % 3 == 0 ? 10_000_000L : i % 3 == 1 ? 10_000_000_000L : 100_000_000_000_000L;
            long v = random.nextLong(bound);
            assertSameAsFormat(random.nextBoolean() ? v : -v);
        }
    }
}
