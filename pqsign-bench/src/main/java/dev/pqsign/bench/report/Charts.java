package dev.pqsign.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report's charts, drawn with {@link SvgWriter}: horizontal bars and ranges on a logarithmic time axis. */
final class Charts {
    static final String[] PALETTE = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f"};

    /** Fixed colours for the usual series, so every chart colours an implementation (or link) alike. */
    static final Map<String, String> COLOURS = Map.of("pqsign", "#1f77b4", "pqsign (1 thread)", "#17becf",
            "pqsign-v1.1.2", "#2ca02c", "pqsign-compact", "#d62728", "pqsign-compact-v1.1.2", "#9467bd",
            "bouncycastle", "#ff7f0e", "ethernet", "#1f77b4", "5g", "#ff7f0e");

    private Charts() {
    }

    static String colour(List<String> series, String s) {
        String c = COLOURS.get(s);
        return c != null ? c : PALETTE[series.indexOf(s) % PALETTE.length];
    }

    /** One bar: group (y label), series (colour), value (ms, &gt; 0). */
    record Bar(String group, String series, double value) {
    }

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
                svg.rect(left, y, Math.max(1, x1 - left), barH - 2, colour,
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

    /** One range: group (y label), series (colour), p50, p99, max (ms). */
    record Range(String group, String series, double p50, double p99, double max) {
    }

    /**
     * Latency distributions as ranges on a log axis: a line from the median to the maximum, dots at the
     * median (filled), p99 and maximum.
     */
    static String ranges(String title, List<Range> ranges) {
        List<String> series = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (Range r : ranges) {
            if (!series.contains(r.series())) {
                series.add(r.series());
            }
            if (!groups.contains(r.group())) {
                groups.add(r.group());
            }
            values.add(r.p50());
            values.add(r.max());
        }
        double[] range = logRange(values.stream().mapToDouble(Double::doubleValue).toArray());
        int rowH = 16;
        int left = 190;
        int right = 60;
        int top = 40;
        int plotH = groups.size() * (series.size() * rowH + 12);
        int width = 900;
        int legendRows = (series.size() + 2) / 3;
        int height = top + plotH + 80 + 20 * legendRows;
        SvgWriter svg = new SvgWriter(width, height);
        svg.text(width / 2.0, 20, title, "middle", 14, true);
        Axis axis = new Axis(left, width - right, range[0], range[1]);
        axis.draw(svg, top, top + plotH, "latency (log scale)");
        double y = top + 6;
        for (String g : groups) {
            double gy = y;
            for (String s : series) {
                for (Range r : ranges) {
                    if (r.group().equals(g) && r.series().equals(s)) {
                        String c = colour(series, s);
                        double cy = y + rowH / 2.0;
                        String tip = g + " " + s + ": median " + ms(r.p50()) + ", p99 " + ms(r.p99()) + ", max "
                                + ms(r.max());
                        svg.line(axis.x(r.p50()), cy, axis.x(r.max()), cy, c, 2, false);
                        svg.circle(axis.x(r.p50()), cy, 5, c, tip);
                        svg.circle(axis.x(r.p99()), cy, 3.5, "white", tip);
                        svg.line(axis.x(r.max()), cy - 5, axis.x(r.max()), cy + 5, c, 2, false);
                        svg.text(axis.x(r.max()) + 5, cy + 4, ms(r.p50()) + " / " + ms(r.max()), "start", 9, false);
                    }
                }
                y += rowH;
            }
            svg.text(left - 6, (gy + y) / 2 + 4, g, "end", 11, false);
            y += 12;
        }
        svg.text(left, top + plotH + 70 + 20 * legendRows, "dot: median, ring: p99, bar: max (labels: median / max)",
                "start", 10, false);
        legend(svg, series, top + plotH + 36, left);
        return svg.finish();
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
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (double d : v) {
            if (d > 0 && Double.isFinite(d)) {
                lo = Math.min(lo, d);
                hi = Math.max(hi, d);
            }
        }
        if (hi == 0) {
            return new double[] {0.001, 1};
        }
        lo = Math.pow(10, Math.floor(Math.log10(lo)));
        hi = Math.pow(10, Math.ceil(Math.log10(hi)));
        if (hi <= lo) {
            hi = lo * 10;
        }
        return new double[] {lo, hi};
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
            for (double d = lo; d <= hi * 1.0001; d *= 10) {
                double x = x(d);
                svg.line(x, top, x, bottom, "#cccccc", 1, true);
                svg.text(x, bottom + 14, ms(d), "middle", 10, false);
            }
            svg.line(x0, bottom, x1, bottom, "#333333", 1, false);
            svg.text((x0 + x1) / 2, bottom + 28, label, "middle", 10, false);
        }
    }
}
