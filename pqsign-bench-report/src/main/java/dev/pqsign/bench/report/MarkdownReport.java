package dev.pqsign.bench.report;

import dev.pqsign.bench.report.BenchReport.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

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

        xmssTables(r, b);
        lmsTables(r, b);
        hashTable(r, b);
        latticeTables(r, b);
        opcuaTables(r, b);
        if (!charts.isEmpty()) {
            b.append("## Charts\n\n");
            for (String c : charts) {
                b.append("![").append(c).append("](").append(c).append(")\n\n");
            }
        }
        allTable(r, b);
        if (!r.notes().isEmpty()) {
            b.append("## Notes\n\n");
            for (String n : r.notes()) {
                b.append("- ").append(n).append('\n');
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static void xmssTables(BenchReport r, StringBuilder b) {
        Set<String> sets = new LinkedHashSet<>();
        for (BenchReport.Sizes s : r.sizes()) {
            if (s.scheme().startsWith("XMSS")) {
                sets.add(s.scheme());
            }
        }
        if (sets.isEmpty()) {
            return;
        }
        b.append("## XMSS^MT sizes (study Table 1 layout)\n\n");
        b.append("| set | public key | pqsign persisted state | BouncyCastle private key (with BDS state) ")
                .append("| signature pqsign | signature BouncyCastle | signature in the study |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (String s : sets) {
            Optional<BenchReport.Sizes> p = size(r, s, "pqsign");
            Optional<BenchReport.Sizes> c = size(r, s, "bouncycastle");
            b.append("| ")
                    .append(s)
                    .append(" | ")
                    .append(p.map(x -> num(x.publicKeyBytes())).orElse("—"))
                    .append(" | ")
                    .append(p.map(x -> num(x.stateBytes())).orElse("—"))
                    .append(" | ")
                    .append(c.map(x -> num(x.stateBytes())).orElse("—"))
                    .append(" | ")
                    .append(p.map(x -> num(x.signatureMax())).orElse("—"))
                    .append(" | ")
                    .append(c.map(x -> num(x.signatureMax())).orElse("—"))
                    .append(" | ")
                    .append(
                            StudyReference.SIGNATURE_BYTES.containsKey(s)
                                    ? num(StudyReference.SIGNATURE_BYTES.get(s)) + " ¹"
                                    : "—")
                    .append(" |\n");
        }
        b.append("\n¹ ")
                .append(StudyReference.INDUSTRIAL)
                .append(". The study assumed a 4-byte index for every ")
                .append("set; RFC 8391 encodes ceil(h/8) bytes, hence 2 bytes fewer for h = 10 and 1 fewer for h = 20.")
                .append("\n\n");

        b.append("## XMSS^MT timings (study Table 2 layout), ms\n\n");
        b.append("| set | operation | pqsign median | p99 | max | n | BouncyCastle median | p99 | max | n ")
                .append("| BC / pqsign | study (RPi 3) ² |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String s : sets) {
            for (String op : CHART_OPS) {
                List<Result> ours = find(r, s, op, "pqsign");
                Optional<Result> bc = find(r, s, op, "bouncycastle").stream().findFirst();
                for (Result x : ours) {
                    String label = op.equals("keygen")
                            ? "keygen (" + x.threads() + (x.threads() == 1 ? " thread)" : " threads)")
                            : op;
                    b.append("| ")
                            .append(s)
                            .append(" | ")
                            .append(label)
                            .append(" | ")
                            .append(cells(x.stats()))
                            .append(" | ")
                            .append(bc.map(y -> cells(y.stats())).orElse("— | — | — | —"))
                            .append(" | ")
                            .append(bc.map(y ->
                                            f1(y.stats().median() / x.stats().median()) + "×")
                                    .orElse("—"))
                            .append(" | ");
                    Double study = op.equals("sign") ? StudyReference.SIGN_MS.get(s) : null;
                    b.append(study == null ? "—" : ms(study)).append(" |\n");
                }
            }
        }
        b.append("\n² ")
                .append(StudyReference.INDUSTRIAL)
                .append(" (other hardware; only the figures cited in ")
                .append("the project brief are filled in).\n\n");
        b.append("Keygen computes the top tree only (2^(h/d) leaves: 32 for the study's three sets, 1,024 for ")
                .append("XMSSMT-SHA2_20/2_256). pqsign splits a tree across threads only when it is large ")
                .append("(`TreeBuilder` in pqsign-xmss), so for 32-leaf top trees both keygen rows run the same ")
                .append("single-threaded code and differ only by noise.\n\n");
    }

    /**
     * LMS / HSS: each operation's median per implementation, measured alternately in one run, and
     * pqsign's median as a fraction of BouncyCastle's (issue 29's targets: sign ≤ 0.25, verify ≤ 0.5,
     * keygen ≤ 0.25).
     */
    private static void lmsTables(BenchReport r, StringBuilder b) {
        List<Result> rows = new ArrayList<>();
        for (Result x : r.results()) {
            if (x.scheme().startsWith("LMS")) {
                rows.add(x);
            }
        }
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
        b.append(
                "| scheme | operation | implementation | threads | median | p99 | max | n | ratio to BouncyCastle |\n");
        b.append("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Result x : rows) {
            Result bc = null;
            for (Result y : rows) {
                if (y.scheme().equals(x.scheme())
                        && y.op().equals(x.op())
                        && y.impl().equals("bouncycastle")) {
                    bc = y;
                }
            }
            b.append("| ")
                    .append(x.scheme())
                    .append(" | ")
                    .append(x.op())
                    .append(" | ")
                    .append(x.impl())
                    .append(" | ")
                    .append(x.threads())
                    .append(" | ")
                    .append(cells(x.stats()))
                    .append(" | ")
                    .append(
                            bc == null || x.impl().equals("bouncycastle")
                                    ? "—"
                                    : f2(x.stats().median() / bc.stats().median()))
                    .append(" |\n");
        }
        b.append(
                "\n| scheme | implementation | public key | private key / state | signature |\n|---|---|---:|---:|---:|\n");
        for (BenchReport.Sizes s : r.sizes()) {
            if (s.scheme().startsWith("LMS")) {
                b.append("| ")
                        .append(s.scheme())
                        .append(" | ")
                        .append(s.impl())
                        .append(" | ")
                        .append(num(s.publicKeyBytes()))
                        .append(" | ")
                        .append(num(s.privateKeyBytes()))
                        .append(" | ")
                        .append(num(s.signatureMax()))
                        .append(" |\n");
            }
        }
        b.append('\n');
    }

    private static void hashTable(BenchReport r, StringBuilder b) {
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
        b.append("| set | operation | n | hash calls (mean) | compressions (mean) | compressions (max) |\n");
        b.append("|---|---|---:|---:|---:|---:|\n");
        for (BenchReport.HashCount h : r.hashCounts()) {
            b.append("| ")
                    .append(h.scheme())
                    .append(" | ")
                    .append(h.op())
                    .append(" | ")
                    .append(h.n())
                    .append(" | ")
                    .append(num(Math.round(h.callsMean())))
                    .append(" | ")
                    .append(num(Math.round(h.compressionsMean())))
                    .append(" | ")
                    .append(num(h.compressionsMax()))
                    .append(" |\n");
        }
        b.append('\n');
    }

    private static void latticeTables(BenchReport r, StringBuilder b) {
        List<Result> rows = new ArrayList<>();
        for (Result x : r.results()) {
            if (!x.scheme().startsWith("XMSS") && !x.scheme().startsWith("LMS")) {
                rows.add(x);
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        b.append("## HAETAE and ML-DSA timings, ms\n\n");
        b.append("`pqsign` = fast engine with the v1.2.0 sampler; `-compact` = the streaming engine; ")
                .append("`-v1.1.2` = the v1.1.2 sampler (what BouncyCastle implements). ML-DSA is BouncyCastle only.")
                .append("\n\n");
        b.append("| scheme | operation | implementation | median | p99 | max | n | allocated bytes / op (median) |\n");
        b.append("|---|---|---|---:|---:|---:|---:|---:|\n");
        for (Result x : rows) {
            b.append("| ")
                    .append(x.scheme())
                    .append(" | ")
                    .append(x.op())
                    .append(" | ")
                    .append(x.impl())
                    .append(" | ")
                    .append(cells(x.stats()))
                    .append(" | ")
                    .append(x.allocatedBytes() < 0 ? "—" : num(x.allocatedBytes()))
                    .append(" |\n");
        }
        b.append(
                "\n### Sizes, bytes\n\n| scheme | implementation | public key | private key | signature (min–max seen) |\n");
        b.append("|---|---|---:|---:|---:|\n");
        for (BenchReport.Sizes s : r.sizes()) {
            if (!s.scheme().startsWith("XMSS") && !s.scheme().startsWith("LMS")) {
                b.append("| ")
                        .append(s.scheme())
                        .append(" | ")
                        .append(s.impl())
                        .append(" | ")
                        .append(num(s.publicKeyBytes()))
                        .append(" | ")
                        .append(num(s.privateKeyBytes()))
                        .append(" | ")
                        .append(
                                s.signatureMin() == s.signatureMax()
                                        ? num(s.signatureMax())
                                        : num(s.signatureMin()) + "–" + num(s.signatureMax()))
                        .append(" |\n");
            }
        }
        haetaeMemory(r, rows, b);
    }

    /** The HAETAE memory table: working sets (JOL) and allocation beside the Cortex-M4 stack figures. */
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
        b.append("| operation | compact engine working set (JOL) | fast engine working set (JOL), ")
                .append(sets.isEmpty() ? "—" : String.join(" / ", sets))
                .append(" | compact engine allocated bytes / op (median over sets) | stack on Cortex-M4 ³ |\n");
        b.append("|---|---:|---:|---:|---:|\n");
        for (String[] ref : StudyReference.CORTEX_M4_STACK_KB) {
            List<Long> a = new ArrayList<>();
            for (Result x : rows) {
                if (x.scheme().startsWith("HAETAE")
                        && x.op().equals(ref[0])
                        && x.impl().equals("pqsign-compact")
                        && x.allocatedBytes() >= 0) {
                    a.add(x.allocatedBytes());
                }
            }
            a.sort(null);
            b.append("| ")
                    .append(ref[0])
                    .append(" | ")
                    .append(workingSet(r, "pqsign-compact", ref[0]))
                    .append(" | ")
                    .append(workingSet(r, "pqsign", ref[0]))
                    .append(" | ")
                    .append(a.isEmpty() ? "—" : num(a.get(a.size() / 2)))
                    .append(" | ")
                    .append(ref[1])
                    .append(" KB |\n");
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

    /** Working-set bytes of {@code impl} for {@code op} over the sets measured: one number if they agree. */
    private static String workingSet(BenchReport r, String impl, String op) {
        List<Long> v = new ArrayList<>();
        for (BenchReport.WorkingSet w : r.workingSets()) {
            if (w.impl().equals(impl) && w.op().equals(op)) {
                v.add(w.bytes());
            }
        }
        if (v.isEmpty()) {
            return "—";
        }
        if (v.stream().distinct().count() == 1) {
            return num(v.get(0)) + " B";
        }
        return String.join(" / ", v.stream().map(MarkdownReport::num).toList()) + " B";
    }

    private static void opcuaTables(BenchReport r, StringBuilder b) {
        b.append("## Signed OPC UA telemetry (study Tables 4–6 layout), ms\n\n");
        if (r.opcua().isEmpty()) {
            b.append("Not measured: ").append(r.opcuaNote()).append("\n\n");
            return;
        }
        b.append("`DemoRunner` from pqsign-demo in this process: one sensor server (durable file state store, one ")
                .append(
                        "fsync'd reservation per signature, made ahead in the background like `pqsign sensor`) and one ")
                .append(
                        "operator client per set (verifying like `pqsign operator`, upper XMSS^MT layers cached per bottom ")
                .append("tree), the link emulated by ")
                .append("a relay. end-to-end = start of signing → operator verdict. Each cell: median / p99 / max; ")
                .append("`opcua-end-to-end.svg` shows the distribution of every reading's end-to-end latency.\n\n");
        Set<String> links = new LinkedHashSet<>();
        r.opcua().forEach(o -> links.add(o.link()));
        for (String link : links) {
            b.append("### Link `").append(link).append("`\n\n");
            b.append(
                    "| set | signature bytes | readings | sign | verify | transfer | end-to-end | study end-to-end ⁴ |\n");
            b.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
            for (BenchReport.OpcuaRun o : r.opcua()) {
                if (!o.link().equals(link)) {
                    continue;
                }
                Double study = link.equals("ethernet") ? StudyReference.END_TO_END_ETHERNET_MS.get(o.scheme()) : null;
                b.append("| ")
                        .append(o.scheme())
                        .append(" | ")
                        .append(num(o.signatureBytes()))
                        .append(" | ")
                        .append(o.accepted())
                        .append('/')
                        .append(o.readings())
                        .append(" | ")
                        .append(triple(o.sign()))
                        .append(" | ")
                        .append(triple(o.verify()))
                        .append(" | ")
                        .append(triple(o.transfer()))
                        .append(" | ")
                        .append(triple(o.endToEnd()))
                        .append(" | ")
                        .append(
                                study != null
                                        ? "≈ " + ms(study)
                                        : link.equals("5g")
                                                ? "+" + StudyReference.FIVE_G_EXTRA_TRANSFER + " over Ethernet"
                                                : "—")
                        .append(" |\n");
            }
            b.append('\n');
        }
        b.append("⁴ ").append(StudyReference.INDUSTRIAL).append(" (other hardware and a real network).\n\n");
    }

    private static void allTable(BenchReport r, StringBuilder b) {
        b.append("## All measurements\n\n| scheme | op | impl | threads | median ms | p99 ms | max ms | n ")
                .append("| allocated bytes / op |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Result x : r.results()) {
            b.append("| ")
                    .append(x.scheme())
                    .append(" | ")
                    .append(x.op())
                    .append(" | ")
                    .append(x.impl())
                    .append(" | ")
                    .append(x.threads())
                    .append(" | ")
                    .append(cells(x.stats()))
                    .append(" | ")
                    .append(x.allocatedBytes() < 0 ? "—" : num(x.allocatedBytes()))
                    .append(" |\n");
        }
        b.append("\nAllocated bytes are those of the measuring thread (`ThreadMXBean#getThreadAllocatedBytes`); ")
                .append("keygen with all cores also allocates on worker threads, which this does not see.\n\n");
    }

    private static Optional<BenchReport.Sizes> size(BenchReport r, String scheme, String impl) {
        return r.sizes().stream()
                .filter(s -> s.scheme().equals(scheme) && s.impl().equals(impl))
                .findFirst();
    }

    private static List<Result> find(BenchReport r, String scheme, String op, String impl) {
        return r.results().stream()
                .filter(x -> x.scheme().equals(scheme)
                        && x.op().equals(op)
                        && x.impl().equals(impl))
                .toList();
    }

    private static String cells(Stats s) {
        return ms(s.median()) + " | " + ms(s.p99()) + " | " + ms(s.max()) + " | " + s.n();
    }

    private static String triple(Stats s) {
        return ms(s.median()) + " / " + ms(s.p99()) + " / " + ms(s.max());
    }

    static String ms(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.1f", v);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.4f", v);
    }

    private static String num(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    private static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String f2(double v) {
        return v < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
    }
}
