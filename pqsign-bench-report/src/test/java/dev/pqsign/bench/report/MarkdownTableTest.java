package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class MarkdownTableTest {

    @Test
    void table_textColumnsLeftNumberColumnsRight_cellsGroupsSpanAdjacentColumns() {
        StringBuilder b = new StringBuilder();
        MarkdownTable t = new MarkdownTable(b, List.of("scheme", "op"), List.of("median", "p99", "n"));
        t.row("XMSS", "sign", MarkdownTable.Cells.of("1.00", "2.00"), 5);
        t.row("LMS", "verify", MarkdownTable.Cells.none(3));
        assertEquals("""
                | scheme | op | median | p99 | n |
                |---|---|---:|---:|---:|
                | XMSS | sign | 1.00 | 2.00 | 5 |
                | LMS | verify | — | — | — |
                """, b.toString());
    }

    @Test
    void row_withTooFewOrTooManyCells_throws() {
        MarkdownTable t = new MarkdownTable(new StringBuilder(), List.of("a"), List.of("b"));
        assertThrows(IllegalArgumentException.class, () -> t.row("x"));
        assertThrows(IllegalArgumentException.class, () -> t.row("x", 1, 2));
    }
}
