package dev.pqsign.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class SecretsTest {

    @Test
    void constantTimeEquals_wholeArrays_equalOnlyWhenSameLengthAndBytes() {
        assertTrue(Secrets.constantTimeEquals(new byte[] {1, 2, 3}, new byte[] {1, 2, 3}));
        assertFalse(Secrets.constantTimeEquals(new byte[] {1, 2, 3}, new byte[] {1, 2, 4}));
        assertFalse(Secrets.constantTimeEquals(new byte[] {1, 2, 3}, new byte[] {1, 2}));
        assertTrue(Secrets.constantTimeEquals(new byte[0], new byte[0]));
    }

    @Test
    void constantTimeEquals_ranges_compareOnlyTheRanges() {
        byte[] a = {9, 1, 2, 3, 9};
        byte[] b = {1, 2, 3};
        assertTrue(Secrets.constantTimeEquals(a, 1, b, 0, 3));
        assertFalse(Secrets.constantTimeEquals(a, 0, b, 0, 3));
        assertTrue(Secrets.constantTimeEquals(a, 0, b, 0, 0), "empty ranges are equal");
    }

    @Property(tries = 300)
    void constantTimeEquals_anySingleBitFlip_isDetected(
            @ForAll byte[] bytes,
            @ForAll @IntRange(min = 0, max = 7) int bit,
            @ForAll @IntRange(min = 0, max = 10_000) int where) {
        if (bytes.length == 0) {
            return;
        }
        byte[] other = bytes.clone();
        other[where % bytes.length] ^= (byte) (1 << bit);
        assertFalse(Secrets.constantTimeEquals(bytes, other));
        assertFalse(Secrets.constantTimeEquals(bytes, 0, other, 0, bytes.length));
        assertTrue(Secrets.constantTimeEquals(bytes, bytes.clone()));
    }

    @Test
    void wipe_byteAndIntArrays_zeroedAndNullsSkipped() {
        byte[] a = {1, 2, 3};
        byte[] b = {(byte) 0xff};
        Secrets.wipe(a, null, b);
        assertArrayEquals(new byte[3], a);
        assertArrayEquals(new byte[1], b);
        int[] c = {5, -1};
        Secrets.wipe(c, null);
        assertEquals(0, Arrays.stream(c).filter(v -> v != 0).count());
    }
}
