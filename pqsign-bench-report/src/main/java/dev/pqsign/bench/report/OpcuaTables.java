package dev.pqsign.bench.report;

import static dev.pqsign.bench.report.ReportCells.NONE;
import static dev.pqsign.bench.report.ReportCells.ms;
import static dev.pqsign.bench.report.ReportCells.num;
import static dev.pqsign.bench.report.ReportCells.triple;

import dev.pqsign.bench.report.BenchReport.OpcuaRun;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The signed OPC UA telemetry section of report.md: one table per link, in the layout of the study's Tables 4–6. */
final class OpcuaTables {
    private OpcuaTables() {}

    static void write(BenchReport r, StringBuilder b) {
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
            MarkdownTable t = new MarkdownTable(
                    b,
                    List.of("set"),
                    List.of(
                            "signature bytes",
                            "readings",
                            "sign",
                            "verify",
                            "transfer",
                            "end-to-end",
                            "study end-to-end ⁴"));
            for (OpcuaRun o : r.opcua()) {
                if (o.link().equals(link)) {
                    t.row(
                            o.scheme(),
                            num(o.signatureBytes()),
                            o.accepted() + "/" + o.readings(),
                            triple(o.sign()),
                            triple(o.verify()),
                            triple(o.transfer()),
                            triple(o.endToEnd()),
                            study(link, o.scheme()));
                }
            }
            b.append('\n');
        }
        b.append("⁴ ").append(StudyReference.INDUSTRIAL).append(" (other hardware and a real network).\n\n");
    }

    /** The study's end-to-end figure for {@code scheme} over {@code link}, where it gives one. */
    private static String study(String link, String scheme) {
        Double ethernet = link.equals("ethernet") ? StudyReference.END_TO_END_ETHERNET_MS.get(scheme) : null;
        if (ethernet != null) {
            return "≈ " + ms(ethernet);
        }
        return link.equals("5g") ? "+" + StudyReference.FIVE_G_EXTRA_TRANSFER + " over Ethernet" : NONE;
    }
}
