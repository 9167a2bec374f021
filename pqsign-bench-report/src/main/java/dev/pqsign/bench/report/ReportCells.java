package dev.pqsign.bench.report;

import java.util.Locale;

/** How the Markdown report writes its numbers: milliseconds, byte counts, ratios and load averages. */
final class ReportCells {
    /** A cell with nothing measured. */
    static final String NONE = "—";

    private ReportCells() {}

    /** Median, p99, max and n of a timing, as four cells. */
    static MarkdownTable.Cells timing(Stats s) {
        return MarkdownTable.Cells.of(ms(s.median()), ms(s.p99()), ms(s.max()), Integer.toString(s.n()));
    }

    /** Median / p99 / max of a timing in one cell. */
    static String triple(Stats s) {
        return ms(s.median()) + " / " + ms(s.p99()) + " / " + ms(s.max());
    }

    /** Bytes allocated per call, or {@link #NONE} when not measured (negative). */
    static String allocated(long bytes) {
        return bytes < 0 ? NONE : num(bytes);
    }

    /** Milliseconds with three or four significant digits (one decimal from 100 ms). */
    static String ms(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.1f", v);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.4f", v);
    }

    /** A count with thousands separators. */
    static String num(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Two decimals, or n/a for a negative value (a load average the OS did not give). */
    static String f2(double v) {
        return v < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }
}
