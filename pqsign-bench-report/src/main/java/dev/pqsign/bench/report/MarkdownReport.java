package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.ReportCells.f1;
import static dev.pqsign.bench.report.ReportCells.f2;

import dev.pqsign.bench.report.BenchReport.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@code report.md} and its SVG charts into a directory: tables in the layout of the
 * industrial study (sizes and timings per XMSS^MT set, OPC UA latency per link) and the HAETAE /
 * ML-DSA comparison, with the studies' published figures beside ours, labelled as other hardware.
 */
public final class MarkdownReport {
    static final String[] CHART_OPS = {"keygen", "sign", "verify"};

    private MarkdownReport() {}

    /**
     * Writes report.md and the charts.
     *
     * @param r the report to render
     * @param dir the output directory; created if missing, files of the same names are replaced
     * @return the files written: report.md, then the charts
     * @throws IOException if the directory or a file cannot be written
     */
    public static List<Path> write(BenchReport r, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        List<String> charts = new ArrayList<>();
        for (String op : CHART_OPS) {
            List<Charts.Bar> bars = new ArrayList<>();
            for (Result x : r.results()) {
                if (x.op().equals(op)) {
                    bars.add(new Charts.Bar(x.scheme(), series(x), x.stats().median()));
                }
            }
            if (!bars.isEmpty()) {
                Path f = dir.resolve("time-" + op + ".svg");
                String title = op + ": median time per operation, pqsign vs BouncyCastle 1.87"
                        + (op.equals("keygen")
                                ? " (XMSS pqsign: all " + r.machine().cores() + " cores and 1 thread)"
                                : "");
                Files.writeString(f, Charts.bars(title, bars), StandardCharsets.UTF_8);
                written.add(f);
                charts.add(f.getFileName().toString());
            }
        }
        if (!r.opcua().isEmpty()) {
            Path f = dir.resolve("opcua-end-to-end.svg");
            Files.writeString(f, opcuaChart(r.opcua()), StandardCharsets.UTF_8);
            written.add(f);
            charts.add(f.getFileName().toString());
        }
        Path md = dir.resolve("report.md");
        Files.writeString(md, markdown(r, charts), StandardCharsets.UTF_8);
        written.add(0, md);
        return written;
    }

    /** The OPC UA chart: distribution of every reading's end-to-end latency, one series per set and link. */
    static String opcuaChart(List<BenchReport.OpcuaRun> runs) {
        List<Charts.Distribution> series = new ArrayList<>();
        for (BenchReport.OpcuaRun o : runs) {
            series.add(new Charts.Distribution(o.link(), o.scheme(), o.endToEndSamplesMs()));
        }
        return Charts.distributions(
                "OPC UA end-to-end latency per reading (sign → verdict), by link profile",
                "end-to-end latency (log scale)",
                series);
    }

    /** Chart series of a result: XMSS keygen with one thread is its own series ("pqsign" = all cores). */
    static String series(Result x) {
        if (x.op().equals("keygen") && x.scheme().startsWith("XMSS") && x.impl().equals("pqsign") && x.threads() == 1) {
            return "pqsign (1 thread)";
        }
        return x.impl();
    }

    static String markdown(BenchReport r, List<String> charts) {
        StringBuilder b = new StringBuilder(16384);
        header(r, b);
        XmssTables.write(r, b);
        LmsTables.write(r, b);
        HashCountTable.write(r, b);
        LatticeTables.write(r, b);
        OpcuaTables.write(r, b);
        if (!charts.isEmpty()) {
            b.append("## Charts\n\n");
            for (String c : charts) {
                b.append("![").append(c).append("](").append(c).append(")\n\n");
            }
        }
        AllResultsTable.write(r, b);
        if (!r.notes().isEmpty()) {
            b.append("## Notes\n\n");
            for (String n : r.notes()) {
                b.append("- ").append(n).append('\n');
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** The title, the command, the machine and its load, and how the timings were taken. */
    private static void header(BenchReport r, StringBuilder b) {
        BenchReport.Machine m = r.machine();
        b.append("# pqsign benchmark report\n\n");
        b.append("- Command: `").append(r.command()).append("`\n");
        b.append("- Started: ")
                .append(r.startedUtc())
                .append(", took ")
                .append(f1(r.seconds()))
                .append(" s\n");
        b.append("- Machine: ")
                .append(m.cores())
                .append(" cores, ")
                .append(m.cpuModel())
                .append("; ")
                .append(m.os())
                .append("\n");
        b.append("- JVM: ")
                .append(m.jvm())
                .append(", max heap ")
                .append(m.maxHeapBytes() / (1024 * 1024))
                .append(" MiB\n");
        b.append("- Load average (1 min) at start / end: ")
                .append(f2(m.loadStart()))
                .append(" / ")
                .append(f2(m.loadEnd()))
                .append(" on ")
                .append(m.cores())
                .append(" cores")
                .append(
                        m.loadStart() > m.cores() || m.loadEnd() > m.cores()
                                ? " — **the machine was busy: timings, especially p99 and max, are noisy**"
                                : "")
                .append("\n\n");
        b.append("All operations run on one thread (XMSS keygen also with all cores), after a warm-up; times are ")
                .append("wall-clock milliseconds per call (median, p99 by nearest rank, max, n samples). pqsign signs ")
                .append("XMSS^MT through `XmssStatefulSigner` with an in-memory state store (no fsync; an exhausted ")
                .append("key is replaced outside the timed call). BouncyCastle is 1.87 (`XMSSMTSigner`, ")
                .append("`pqc.crypto.haetae.HAETAESigner` with the v1.1.2 sampler, `MLDSASigner`). Figures from the ")
                .append("studies were measured on **other hardware** and are shown for orientation only.\n\n");
    }
}
