package dev.pqsign.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One Markdown table of the report, written straight into it: the header row and the alignment row
 * when the table is made, then a row per {@link #row} call. As in every table of the report, the text
 * columns come first and are left-aligned, the number columns after them right-aligned.
 */
final class MarkdownTable {
    private final StringBuilder b;
    private final int columns;

    /**
     * Several adjacent cells given to {@link #row} as one argument, e.g. a timing's median, p99, max
     * and n.
     *
     * @param values the cells, left to right
     */
    record Cells(List<String> values) {
        Cells {
            values = List.copyOf(values);
        }

        static Cells of(String... values) {
            return new Cells(Arrays.asList(values));
        }

        /** {@code n} cells that each say "not measured". */
        static Cells none(int n) {
            String[] v = new String[n];
            Arrays.fill(v, ReportCells.NONE);
            return of(v);
        }
    }

    /**
     * Starts a table: writes its header and alignment rows.
     *
     * @param b the report
     * @param text headers of the left-aligned text columns, first
     * @param numbers headers of the right-aligned number columns, after them
     */
    MarkdownTable(StringBuilder b, List<String> text, List<String> numbers) {
        this.b = b;
        this.columns = text.size() + numbers.size();
        List<String> headers = new ArrayList<>(text);
        headers.addAll(numbers);
        line(headers);
        b.append('|');
        text.forEach(h -> b.append("---|"));
        numbers.forEach(h -> b.append("---:|"));
        b.append('\n');
    }

    /**
     * Writes one row.
     *
     * @param cells one argument per column ({@link String#valueOf} of it), or a {@link Cells} for several
     * @throws IllegalArgumentException if the cells do not fill the columns exactly
     */
    void row(Object... cells) {
        List<String> values = new ArrayList<>(columns);
        for (Object c : cells) {
            if (c instanceof Cells several) {
                values.addAll(several.values());
            } else {
                values.add(String.valueOf(c));
            }
        }
        if (values.size() != columns) {
            throw new IllegalArgumentException(values.size() + " cells for " + columns + " columns: " + values);
        }
        line(values);
    }

    private void line(List<String> cells) {
        b.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }
}
