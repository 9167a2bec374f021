package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.ReportCells.NONE;
import static dev.pqsign.bench.report.ReportCells.num;
import static dev.pqsign.bench.report.ReportCells.timing;

import dev.pqsign.bench.report.BenchReport.Result;
import dev.pqsign.bench.report.BenchReport.Sizes;
import java.util.List;

/**
 * The LMS / HSS section of report.md: each operation's median per implementation, measured
 * alternately in one run, and its median as a fraction of BouncyCastle's (issue 29's targets: sign
 * ≤ 0.25, verify ≤ 0.5, keygen ≤ 0.25); then the sizes.
 */
final class LmsTables {
    private LmsTables() {}

    static void write(BenchReport r, StringBuilder b) {
        List<Result> rows =
                r.results().stream().filter(x -> x.scheme().startsWith("LMS")).toList();
        if (rows.isEmpty()) {
            return;
        }
        b.append("## LMS / HSS timings, ms\n\n");
        b.append("pqsign, BouncyCastle 1.87 (`HSSSigner`) and, for verification, the JDK's own `HSS/LMS` where ")
                .append("the JDK has it, measured **alternately** (one sample of each per round). pqsign signs ")
                .append("through `HssStatefulSigner` with an in-memory state store; keygen makes the top tree (the ")
                .append("signer builds the lower trees when the key is loaded: the load row), BouncyCastle's keygen ")
                .append("makes every level's first tree. Ratio = median / BouncyCastle's median for the same ")
                .append("operation (targets: sign ≤ 0.25, verify ≤ 0.5, keygen ≤ 0.25).\n\n");
        MarkdownTable t = new MarkdownTable(
                b,
                List.of("scheme", "operation", "implementation"),
                List.of("threads", "median", "p99", "max", "n", "ratio to BouncyCastle"));
        for (Result x : rows) {
            t.row(
                    x.scheme(),
                    x.op(),
                    x.impl(),
                    x.threads(),
                    timing(x.stats()),
                    BouncyCastleBaseline.ratio(rows, x).map(ReportCells::f2).orElse(NONE));
        }
        b.append('\n');
        MarkdownTable sizes = new MarkdownTable(
                b, List.of("scheme", "implementation"), List.of("public key", "private key / state", "signature"));
        for (Sizes s : r.sizes()) {
            if (s.scheme().startsWith("LMS")) {
                sizes.row(
                        s.scheme(), s.impl(), num(s.publicKeyBytes()), num(s.privateKeyBytes()), num(s.signatureMax()));
            }
        }
        b.append('\n');
    }
}
