package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.ReportCells.allocated;
import static dev.pqsign.bench.report.ReportCells.timing;

import dev.pqsign.bench.report.BenchReport.Result;
import java.util.List;

/** The last table of report.md: every timing the run made, in the order measured. */
final class AllResultsTable {
    private AllResultsTable() {}

    static void write(BenchReport r, StringBuilder b) {
        b.append("## All measurements\n\n");
        MarkdownTable t = new MarkdownTable(
                b,
                List.of("scheme", "op", "impl"),
                List.of("threads", "median ms", "p99 ms", "max ms", "n", "allocated bytes / op"));
        for (Result x : r.results()) {
            t.row(x.scheme(), x.op(), x.impl(), x.threads(), timing(x.stats()), allocated(x.allocatedBytes()));
        }
        b.append("\nAllocated bytes are those of the measuring thread (`ThreadMXBean#getThreadAllocatedBytes`); ")
                .append("keygen with all cores also allocates on worker threads, which this does not see.\n\n");
    }
}
