package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LatencySeriesTest {

    @Test
    void summary_oneToHundredMillis_nearestRankPercentiles() {
        LatencySeries s = new LatencySeries();
        for (int i = 100; i >= 1; i--) {
            s.add(i * 1_000_000L);
        }
        LatencySeries.Summary sum = s.summary();
        assertEquals(100, sum.count());
        assertEquals(50.0, sum.p50(), 1e-9);
        assertEquals(99.0, sum.p99(), 1e-9);
        assertEquals(100.0, sum.max(), 1e-9);
        assertEquals(50.5, sum.mean(), 1e-9);
    }

    @Test
    void summary_single_allEqual() {
        LatencySeries s = new LatencySeries();
        s.add(2_500_000);
        LatencySeries.Summary sum = s.summary();
        assertEquals(2.5, sum.p50(), 1e-9);
        assertEquals(2.5, sum.p99(), 1e-9);
        assertEquals(2.5, sum.max(), 1e-9);
    }

    @Test
    void toArray_copyInInsertionOrder_clampedLikeSummary() {
        LatencySeries s = new LatencySeries();
        s.add(30);
        s.add(-5);
        s.add(10);
        long[] a = s.toArray();
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {30, 0, 10}, a);
        a[0] = 99;
        assertEquals(30, s.toArray()[0]);
    }

    @Test
    void summary_empty_zeros() {
        assertEquals(new LatencySeries.Summary(0, 0, 0, 0, 0), new LatencySeries().summary());
    }
}
