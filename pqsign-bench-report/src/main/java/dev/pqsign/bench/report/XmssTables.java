package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.ReportCells.NONE;
import static dev.pqsign.bench.report.ReportCells.f1;
import static dev.pqsign.bench.report.ReportCells.ms;
import static dev.pqsign.bench.report.ReportCells.num;
import static dev.pqsign.bench.report.ReportCells.timing;

import dev.pqsign.bench.report.BenchReport.Result;
import dev.pqsign.bench.report.BenchReport.Sizes;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;

/** The XMSS^MT sections of report.md: sizes and timings in the layout of the industrial study's Tables 1 and 2. */
final class XmssTables {
    private XmssTables() {}

    static void write(BenchReport r, StringBuilder b) {
        Set<String> sets = new LinkedHashSet<>();
        for (Sizes s : r.sizes()) {
            if (s.scheme().startsWith("XMSS")) {
                sets.add(s.scheme());
            }
        }
        if (sets.isEmpty()) {
            return;
        }
        sizes(r, sets, b);
        timings(r, sets, b);
    }

    private static void sizes(BenchReport r, Set<String> sets, StringBuilder b) {
        b.append("## XMSS^MT sizes (study Table 1 layout)\n\n");
        MarkdownTable t = new MarkdownTable(
                b,
                List.of("set"),
                List.of(
                        "public key",
                        "pqsign persisted state",
                        "BouncyCastle private key (with BDS state)",
                        "signature pqsign",
                        "signature BouncyCastle",
                        "signature in the study"));
        for (String s : sets) {
            Optional<Sizes> p = size(r, s, "pqsign");
            Optional<Sizes> c = size(r, s, BouncyCastleBaseline.IMPL);
            Integer study = StudyReference.SIGNATURE_BYTES.get(s);
            t.row(
                    s,
                    bytes(p, Sizes::publicKeyBytes),
                    bytes(p, Sizes::stateBytes),
                    bytes(c, Sizes::stateBytes),
                    bytes(p, Sizes::signatureMax),
                    bytes(c, Sizes::signatureMax),
                    study == null ? NONE : num(study) + " ¹");
        }
        b.append("\n¹ ")
                .append(StudyReference.INDUSTRIAL)
                .append(". The study assumed a 4-byte index for every ")
                .append("set; RFC 8391 encodes ceil(h/8) bytes, hence 2 bytes fewer for h = 10 and 1 fewer for h = 20.")
                .append("\n\n");
    }

    private static void timings(BenchReport r, Set<String> sets, StringBuilder b) {
        b.append("## XMSS^MT timings (study Table 2 layout), ms\n\n");
        MarkdownTable t = new MarkdownTable(
                b,
                List.of("set", "operation"),
                List.of(
                        "pqsign median",
                        "p99",
                        "max",
                        "n",
                        "BouncyCastle median",
                        "p99",
                        "max",
                        "n",
                        "BC / pqsign",
                        "study (RPi 3) ²"));
        for (String s : sets) {
            for (String op : MarkdownReport.CHART_OPS) {
                Optional<Result> bc = BouncyCastleBaseline.of(r.results(), s, op);
                Double study = op.equals("sign") ? StudyReference.SIGN_MS.get(s) : null;
                for (Result x : pqsign(r, s, op)) {
                    t.row(
                            s,
                            op.equals("keygen") ? "keygen (" + threads(x.threads()) + ")" : op,
                            timing(x.stats()),
                            bc.map(y -> timing(y.stats())).orElse(MarkdownTable.Cells.none(4)),
                            bc.map(y -> f1(y.stats().median() / x.stats().median()) + "×")
                                    .orElse(NONE),
                            study == null ? NONE : ms(study));
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

    private static String threads(int n) {
        return n + (n == 1 ? " thread" : " threads");
    }

    private static String bytes(Optional<Sizes> s, ToIntFunction<Sizes> field) {
        return s.map(x -> num(field.applyAsInt(x))).orElse(NONE);
    }

    private static Optional<Sizes> size(BenchReport r, String scheme, String impl) {
        return r.sizes().stream()
                .filter(s -> s.scheme().equals(scheme) && s.impl().equals(impl))
                .findFirst();
    }

    private static List<Result> pqsign(BenchReport r, String scheme, String op) {
        return r.results().stream()
                .filter(x -> x.scheme().equals(scheme)
                        && x.op().equals(op)
                        && x.impl().equals("pqsign"))
                .toList();
    }
}
