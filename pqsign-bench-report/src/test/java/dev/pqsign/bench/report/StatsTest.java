package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void of_oddCount_medianIsMiddleSample() {
        Stats s = Stats.of(new double[] {5, 1, 3});
        assertEquals(3, s.n());
        assertEquals(3, s.median());
        assertEquals(5, s.p99());
        assertEquals(5, s.max());
        assertEquals(3, s.mean(), 1e-12);
    }

    @Test
    void of_evenCount_medianIsMeanOfMiddleTwo() {
        assertEquals(2.5, Stats.of(new double[] {4, 1, 3, 2}).median());
    }

    @Test
    void of_hundredSamples_p99IsNearestRank99() {
        double[] v = new double[100];
        for (int i = 0; i < 100; i++) {
            v[i] = 100 - i; // 100 .. 1, unsorted order
        }
        Stats s = Stats.of(v);
        assertEquals(99, s.p99());
        assertEquals(100, s.max());
        assertEquals(50.5, s.median());
    }

    @Test
    void of_thousandSamplesWithTenOutliers_p99ExcludesTheTopTen() {
        double[] v = new double[1000];
        for (int i = 0; i < 1000; i++) {
            v[i] = i < 990 ? 1.0 : 1000 + i;
        }
        Stats s = Stats.of(v);
        assertEquals(1.0, s.p99());
        assertEquals(1999, s.max());
        assertEquals(1.0, s.median());
    }

    @Test
    void of_oneSample_everyStatisticIsThatSample() {
        Stats s = Stats.of(new double[] {0.25});
        assertEquals(0.25, s.median());
        assertEquals(0.25, s.p99());
        assertEquals(0.25, s.max());
    }

    @Test
    void of_noSamples_throws() {
        assertThrows(IllegalArgumentException.class, () -> Stats.of(new double[0]));
    }

    @Test
    void of_doesNotReorderTheCallersArray() {
        double[] v = {3, 1, 2};
        Stats.of(v);
        assertEquals(3, v[0]);
    }
}
