package dev.pqsign.console.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The page's latency histogram: counts per stage (sign, transfer, verify, end-to-end) over fixed
 * logarithmic millisecond buckets, so the page can draw it without raw samples. Not thread-safe;
 * the model guards it.
 */
final class LatencyBuckets {

    /** Stages in the order the page lists them. */
    enum Stage {
        SIGN,
        TRANSFER,
        VERIFY,
        END_TO_END
    }

    /** Upper bounds in milliseconds; the last bucket is everything above the last bound. */
    static final double[] BOUNDS_MS = {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};

    private final long[][] counts = new long[Stage.values().length][BOUNDS_MS.length + 1];

    void add(Stage stage, long nanos) {
        double ms = nanos / 1e6;
        int i = 0;
        while (i < BOUNDS_MS.length && ms > BOUNDS_MS[i]) {
            i++;
        }
        counts[stage.ordinal()][i]++;
    }

    Map<String, Object> toJson() {
        List<String> labels = new ArrayList<>();
        for (double b : BOUNDS_MS) {
            labels.add("≤" + (b < 1 ? String.valueOf(b) : String.valueOf((long) b)));
        }
        labels.add(">" + (long) BOUNDS_MS[BOUNDS_MS.length - 1]);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("labels", labels);
        Map<String, Object> series = new LinkedHashMap<>();
        for (Stage s : Stage.values()) {
            series.put(s.name().toLowerCase(Locale.ROOT), counts[s.ordinal()].clone());
        }
        m.put("series", series);
        return m;
    }
}
