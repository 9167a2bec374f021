package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.ReportCells.NONE;
import static dev.pqsign.bench.report.ReportCells.allocated;
import static dev.pqsign.bench.report.ReportCells.num;
import static dev.pqsign.bench.report.ReportCells.timing;

import dev.pqsign.bench.report.BenchReport.Result;
import dev.pqsign.bench.report.BenchReport.Sizes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The HAETAE and ML-DSA section of report.md: timings, sizes, and the HAETAE memory table (working
 * sets and allocation beside the Cortex-M4 stack figures of the low-memory study).
 */
final class LatticeTables {
    private LatticeTables() {}

    /** Whether {@code scheme} is a lattice scheme (every scheme not hash-based). */
    static boolean lattice(String scheme) {
        return !scheme.startsWith("XMSS") && !scheme.startsWith("LMS");
    }

    static void write(BenchReport r, StringBuilder b) {
        List<Result> rows =
                r.results().stream().filter(x -> lattice(x.scheme())).toList();
        if (rows.isEmpty()) {
            return;
        }
        b.append("## HAETAE and ML-DSA timings, ms\n\n");
        b.append("`pqsign` = fast engine with the v1.2.0 sampler; `-compact` = the streaming engine; ")
                .append("`-v1.1.2` = the v1.1.2 sampler (what BouncyCastle implements). ML-DSA is BouncyCastle only.")
                .append("\n\n");
        MarkdownTable t = new MarkdownTable(
                b,
                List.of("scheme", "operation", "implementation"),
                List.of("median", "p99", "max", "n", "allocated bytes / op (median)"));
        for (Result x : rows) {
            t.row(x.scheme(), x.op(), x.impl(), timing(x.stats()), allocated(x.allocatedBytes()));
        }
        b.append("\n### Sizes, bytes\n\n");
        MarkdownTable sizes = new MarkdownTable(
                b,
                List.of("scheme", "implementation"),
                List.of("public key", "private key", "signature (min–max seen)"));
        for (Sizes s : r.sizes()) {
            if (lattice(s.scheme())) {
                sizes.row(
                        s.scheme(),
                        s.impl(),
                        num(s.publicKeyBytes()),
                        num(s.privateKeyBytes()),
                        s.signatureMin() == s.signatureMax()
                                ? num(s.signatureMax())
                                : num(s.signatureMin()) + "–" + num(s.signatureMax()));
            }
        }
        haetaeMemory(r, rows, b);
    }

    private static void haetaeMemory(BenchReport r, List<Result> rows, StringBuilder b) {
        if (rows.stream().noneMatch(x -> x.scheme().startsWith("HAETAE"))) {
            return;
        }
        Set<String> sets = new LinkedHashSet<>();
        r.workingSets().forEach(w -> sets.add(w.scheme()));
        b.append("\n### HAETAE memory\n\n");
        if (r.workingSets().isEmpty()) {
            b.append("Working set not measured: ").append(r.workingSetNote()).append("\n\n");
        }
        MarkdownTable t = new MarkdownTable(
                b,
                List.of("operation"),
                List.of(
                        "compact engine working set (JOL)",
                        "fast engine working set (JOL), " + (sets.isEmpty() ? NONE : String.join(" / ", sets)),
                        "compact engine allocated bytes / op (median over sets)",
                        "stack on Cortex-M4 ³"));
        for (String[] ref : StudyReference.CORTEX_M4_STACK_KB) {
            t.row(
                    ref[0],
                    workingSet(r, "pqsign-compact", ref[0]),
                    workingSet(r, "pqsign", ref[0]),
                    compactAllocatedMedian(rows, ref[0]),
                    ref[1] + " KB");
        }
        b.append("\n³ ")
                .append(StudyReference.LOW_MEMORY)
                .append(" (other hardware: C on bare metal, stack bytes). ")
                .append("Working set here: deep size (JOL `GraphLayout.totalSize`, object headers and the SHAKE state ")
                .append(
                        "included) of the per-thread work area the engine keeps between calls (`HaetaeWorkAreaProbe`). ")
                .append("The compact engine keeps one per operation, sized for the largest set, so it is the same for ")
                .append("every set; the fast engine keeps one per set for all three operations, so its figure repeats ")
                .append("in each row. Each call also allocates the bytes in the allocation column (outputs and ")
                .append("short-lived objects), which the garbage collector reclaims.\n\n");
    }

    /** The compact engine's allocated bytes per {@code op}: the median over the HAETAE sets measured. */
    private static String compactAllocatedMedian(List<Result> rows, String op) {
        List<Long> a = new ArrayList<>();
        for (Result x : rows) {
            if (x.scheme().startsWith("HAETAE")
                    && x.op().equals(op)
                    && x.impl().equals("pqsign-compact")
                    && x.allocatedBytes() >= 0) {
                a.add(x.allocatedBytes());
            }
        }
        a.sort(null);
        return a.isEmpty() ? NONE : num(a.get(a.size() / 2));
    }

    /** Working-set bytes of {@code impl} for {@code op} over the sets measured: one number if they agree. */
    private static String workingSet(BenchReport r, String impl, String op) {
        List<Long> v = new ArrayList<>();
        for (BenchReport.WorkingSet w : r.workingSets()) {
            if (w.impl().equals(impl) && w.op().equals(op)) {
                v.add(w.bytes());
            }
        }
        if (v.isEmpty()) {
            return NONE;
        }
        if (v.stream().distinct().count() == 1) {
            return num(v.get(0)) + " B";
        }
        return String.join(" / ", v.stream().map(ReportCells::num).toList()) + " B";
    }
}
