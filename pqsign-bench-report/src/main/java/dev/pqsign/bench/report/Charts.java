package dev.pqsign.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's charts, drawn with {@link SvgWriter}: horizontal bars and cumulative distributions on a
 * logarithmic time axis.
 */
final class Charts {
    static final String[] PALETTE = {
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"
    };

    /** Fixed colours for the usual series, so every chart colours an implementation (or link) alike. */
    static final Map<String, String> COLOURS = Map.of(
            "pqsign",
            "#1f77b4",
            "pqsign (1 thread)",
            "#17becf",
            "pqsign-v1.1.2",
            "#2ca02c",
            "pqsign-compact",
            "#d62728",
            "pqsign-compact-v1.1.2",
            "#9467bd",
            "bouncycastle",
            "#ff7f0e",
            "ethernet",
            "#1f77b4",
            "5g",
            "#ff7f0e");

    private Charts() {}

    static String colour(List<String> series, String s) {
        String c = COLOURS.get(s);
        return c != null ? c : PALETTE[series.indexOf(s) % PALETTE.length];
    }

    /** One bar: group (y label), series (colour), value (ms, &gt; 0). */
    record Bar(String group, String series, double value) {}

    /**
     * Grouped horizontal bars, log-scale x axis in milliseconds: one group per scheme, one bar per
     * implementation.
     */
    static String bars(String title, List<Bar> bars) {
        Map<String, List<Bar>> groups = new LinkedHashMap<>();
        List<String> series = new ArrayList<>();
        for (Bar b : bars) {
            groups.computeIfAbsent(b.group(), k -> new ArrayList<>()).add(b);
            if (!series.contains(b.series())) {
                series.add(b.series());
            }
        }
        double[] range = logRange(bars.stream().mapToDouble(Bar::value).toArray());
        int barH = 12;
        int left = 190;
        int right = 60;
        int top = 40;
        int legend = 22 * ((series.size() + 2) / 3);
        int plotH = 0;
        for (List<Bar> g : groups.values()) {
            plotH += g.size() * barH + 12;
        }
        int width = 900;
        int height = top + plotH + 40 + legend;
        SvgWriter svg = new SvgWriter(width, height);
        svg.text(width / 2.0, 20, title, "middle", 14, true);
        Axis axis = new Axis(left, width - right, range[0], range[1]);
        axis.draw(svg, top, top + plotH, "time per operation (log scale)");
        double y = top + 6;
        for (Map.Entry<String, List<Bar>> g : groups.entrySet()) {
            double gy = y;
            for (Bar b : g.getValue()) {
                String colour = colour(series, b.series());
                double x1 = axis.x(b.value());
                svg.rect(
                        left,
                        y,
                        Math.max(1, x1 - left),
                        barH - 2,
                        colour,
                        g.getKey() + " " + b.series() + ": " + ms(b.value()));
                svg.text(x1 + 3, y + barH - 3, ms(b.value()), "start", 9, false);
                y += barH;
            }
            svg.text(left - 6, (gy + y) / 2 + 4, g.getKey(), "end", 11, false);
            y += 12;
        }
        legend(svg, series, top + plotH + 36, left);
        return svg.finish();
    }

    /** Dash patterns told apart at a glance; the n-th group of a distribution chart gets the n-th. */
    static final String[] DASHES = {null, "7,4", "2,3", "9,3,2,3"};

    /**
     * The samples of one series of a distribution chart: {@code colourKey} picks the colour (the
     * link), {@code dashKey} the dash pattern (the parameter set).
     */
    record Distribution(String colourKey, String dashKey, List<Double> samplesMs) {
        Distribution {
            samplesMs = List.copyOf(samplesMs);
        }

        String label() {
            return colourKey + " · " + dashKey + " (n = " + samplesMs.size() + ")";
        }
    }

    /**
     * Empirical cumulative distributions on a log x axis: per series a step line through every sample
     * (y = share of samples at or below x), a dot at its maximum, dashed guides at 50 % and 99 %.
     * Steps show the whole distribution, including the tail a median / p99 / max summary hides.
     */
    static String distributions(String title, String xLabel, List<Distribution> series) {
        List<String> colours = new ArrayList<>();
        List<String> dashes = new ArrayList<>();
        List<Double> all = new ArrayList<>();
        for (Distribution d : series) {
            if (!colours.contains(d.colourKey())) {
                colours.add(d.colourKey());
            }
            if (!dashes.contains(d.dashKey())) {
                dashes.add(d.dashKey());
            }
            all.addAll(d.samplesMs());
        }
        double[] range =
                niceLogRange(all.stream().mapToDouble(Double::doubleValue).toArray());
        int left = 70;
        int right = 40;
        int top = 50;
        int plotH = 320;
        int width = 900;
        int legendRows = (series.size() + 1) / 2;
        int height = top + plotH + 50 + 20 * legendRows + 20;
        SvgWriter svg = new SvgWriter(width, height);
        svg.text(width / 2.0, 20, title, "middle", 14, true);
        Axis axis = new Axis(left, width - right, range[0], range[1]);
        axis.drawTicks(svg, top, top + plotH, xLabel, ticks125(range[0], range[1]));
        double bottom = top + plotH;
        for (int pct = 0; pct <= 100; pct += 25) {
            double y = bottom - pct / 100.0 * plotH;
            svg.line(left, y, width - right, y, "#eeeeee", 1, false);
            svg.text(left - 6, y + 4, pct + " %", "end", 10, false);
        }
        for (double q : new double[] {0.5, 0.99}) {
            double y = bottom - q * plotH;
            svg.line(left, y, width - right, y, "#999999", 1, true);
            svg.text(width - right + 3, y + 4, q == 0.5 ? "p50" : "p99", "start", 9, false);
        }
        svg.line(left, top, left, bottom, "#333333", 1, false);
        svg.text(left, top - 8, "share of readings at or below x", "start", 10, false);
        for (Distribution d : series) {
            double[] s = d.samplesMs().stream()
                    .mapToDouble(Double::doubleValue)
                    .sorted()
                    .toArray();
            if (s.length == 0) {
                continue;
            }
            String colour = colour(colours, d.colourKey());
            String dash = DASHES[dashes.indexOf(d.dashKey()) % DASHES.length];
            // a step per sample: along at the previous share, then up to the new one
            double[] xs = new double[2 * s.length];
            double[] ys = new double[2 * s.length];
            for (int i = 0; i < s.length; i++) {
                xs[2 * i] = axis.x(s[i]);
                ys[2 * i] = bottom - (double) i / s.length * plotH;
                xs[2 * i + 1] = xs[2 * i];
                ys[2 * i + 1] = bottom - (double) (i + 1) / s.length * plotH;
            }
            Stats st = Stats.of(s);
            String tip = d.label() + ": median " + ms(st.median()) + ", p99 " + ms(st.p99()) + ", max " + ms(st.max());
            svg.polyline(xs, ys, colour, 2, dash, tip);
            svg.circle(xs[xs.length - 1], top, 3, colour, tip);
        }
        for (int i = 0; i < series.size(); i++) {
            // column-major, so series given link by link fill one column per link
            Distribution d = series.get(i);
            double x = left + (i / legendRows) * 410;
            double y = bottom + 56 + (i % legendRows) * 20;
            svg.polyline(
                    new double[] {x, x + 28},
                    new double[] {y - 4, y - 4},
                    colour(colours, d.colourKey()),
                    2,
                    DASHES[dashes.indexOf(d.dashKey()) % DASHES.length],
                    null);
            svg.text(x + 34, y, d.label(), "start", 11, false);
        }
        return svg.finish();
    }

    /** Bounds on the 1-2-5 grid around the (positive) values: {lo, hi}. */
    static double[] niceLogRange(double[] v) {
        double[] span = positiveSpan(v);
        if (span == null) {
            return new double[] {0.001, 1};
        }
        double lo = span[0];
        double hi = span[1];
        double[] grid = ticks125(Math.pow(10, Math.floor(Math.log10(lo))), Math.pow(10, Math.ceil(Math.log10(hi))));
        double a = grid[0];
        double b = grid[grid.length - 1];
        for (double g : grid) {
            if (g <= lo) {
                a = g;
            }
        }
        for (int i = grid.length - 1; i >= 0; i--) {
            if (grid[i] >= hi) {
                b = grid[i];
            }
        }
        return b > a ? new double[] {a, b} : new double[] {a, a * 2};
    }

    /** 1, 2 and 5 times the powers of ten from {@code lo} to {@code hi} (both on that grid, lo &gt; 0). */
    static double[] ticks125(double lo, double hi) {
        List<Double> t = new ArrayList<>();
        for (double decade = Math.pow(10, Math.floor(Math.log10(lo) + 1e-9)); decade <= hi * 1.0001; decade *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                // rounding keeps 0.1 * 2 etc. exactly on the grid, so the ends compare equal
                double v = Double.parseDouble(String.format(Locale.ROOT, "%.6g", decade * m));
                if (v >= lo * 0.9999 && v <= hi * 1.0001) {
                    t.add(v);
                }
            }
        }
        return t.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static void legend(SvgWriter svg, List<String> series, double y0, double x0) {
        for (int i = 0; i < series.size(); i++) {
            double x = x0 + (i % 3) * 230;
            double y = y0 + (i / 3) * 20 + 20;
            svg.rect(x, y - 10, 12, 12, colour(series, series.get(i)), null);
            svg.text(x + 18, y, series.get(i), "start", 11, false);
        }
    }

    /** Decade bounds around the (positive) values: {lo, hi}. */
    static double[] logRange(double[] v) {
        double[] span = positiveSpan(v);
        if (span == null) {
            return new double[] {0.001, 1};
        }
        double lo = Math.pow(10, Math.floor(Math.log10(span[0])));
        double hi = Math.pow(10, Math.ceil(Math.log10(span[1])));
        if (hi <= lo) {
            hi = lo * 10;
        }
        return new double[] {lo, hi};
    }

    /** {min, max} of the positive finite values (a log axis can show only those), or null if none. */
    private static double[] positiveSpan(double[] v) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (double d : v) {
            if (d > 0 && Double.isFinite(d)) {
                lo = Math.min(lo, d);
                hi = Math.max(hi, d);
            }
        }
        return hi == 0 ? null : new double[] {lo, hi};
    }

    /** An axis label: the tick value without trailing zeros ("0.5 ms", "20 ms"). */
    static String tick(double v) {
        if (v < 0.01) {
            return new java.math.BigDecimal(v * 1000)
                            .round(new java.math.MathContext(3))
                            .stripTrailingZeros()
                            .toPlainString()
                    + " µs";
        }
        return new java.math.BigDecimal(v)
                        .round(new java.math.MathContext(3))
                        .stripTrailingZeros()
                        .toPlainString() + " ms";
    }

    static String ms(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f ms", v);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.2f ms", v);
        }
        if (v >= 0.01) {
            return String.format(Locale.ROOT, "%.3f ms", v);
        }
        return String.format(Locale.ROOT, "%.1f µs", v * 1000);
    }

    /** A logarithmic x axis between pixel columns {@code x0} and {@code x1}. */
    private record Axis(double x0, double x1, double lo, double hi) {
        double x(double v) {
            double c = Math.max(lo, Math.min(hi, v));
            return x0 + (Math.log10(c) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) * (x1 - x0);
        }

        void draw(SvgWriter svg, double top, double bottom, String label) {
            List<Double> decades = new ArrayList<>();
            for (double d = lo; d <= hi * 1.0001; d *= 10) {
                decades.add(d);
            }
            drawTicks(
                    svg,
                    top,
                    bottom,
                    label,
                    decades.stream().mapToDouble(Double::doubleValue).toArray());
        }

        /** Grid lines and labels at {@code ticks}, the axis line and its label. */
        void drawTicks(SvgWriter svg, double top, double bottom, String label, double[] ticks) {
            for (double d : ticks) {
                double x = x(d);
                svg.line(x, top, x, bottom, "#cccccc", 1, true);
                svg.text(x, bottom + 14, tick(d), "middle", 10, false);
            }
            svg.line(x0, bottom, x1, bottom, "#333333", 1, false);
            svg.text((x0 + x1) / 2, bottom + 28, label, "middle", 10, false);
        }
    }
}
