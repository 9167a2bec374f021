package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.ReportCells.num;

import java.util.List;

/** The section of report.md with the SHA-256 compressions per XMSS^MT and LMS / HSS operation. */
final class HashCountTable {
    private HashCountTable() {}

    static void write(BenchReport r, StringBuilder b) {
        b.append("## SHA-256 compressions per XMSS^MT and LMS / HSS operation\n\n");
        if (r.hashCounts().isEmpty()) {
            b.append("Not measured: ").append(r.hashCountNote()).append("\n\n");
            return;
        }
        b.append("Counted by `XmssHashCounter` / `LmsHashCounter` in child JVMs started with ")
                .append("`-Dpqsign.xmss.countHashes=true` / `-Dpqsign.lms.countHashes=true` ")
                .append("(the timed runs do not count). keygen: one thread; load: opening the stateful signer ")
                .append("(rebuilding its caches from the seeds); sign: mean and maximum over n consecutive ")
                .append("signatures of a fresh key.\n\n");
        MarkdownTable t = new MarkdownTable(
                b,
                List.of("set", "operation"),
                List.of("n", "hash calls (mean)", "compressions (mean)", "compressions (max)"));
        for (BenchReport.HashCount h : r.hashCounts()) {
            t.row(
                    h.scheme(),
                    h.op(),
                    h.n(),
                    num(Math.round(h.callsMean())),
                    num(Math.round(h.compressionsMean())),
                    num(h.compressionsMax()));
        }
        b.append('\n');
    }
}
