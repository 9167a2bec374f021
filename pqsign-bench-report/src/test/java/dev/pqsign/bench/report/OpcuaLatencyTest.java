package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** The OPC UA demo through the report: a few readings of set 1 over both link profiles (shape only). */
class OpcuaLatencyTest {

    @Test
    void run_setOneOverEthernetAnd5g_everyReadingAcceptedAndChartWellFormed(@TempDir Path dir) throws Exception {
        List<String> log = new ArrayList<>();
        BenchOptions o = new BenchOptions(
                List.of("XMSSMT-SHA2_10/2_256"), 0, 1, 0, 1, 1, false, false, 1, true, 3, 1, "test", log::add);
        List<BenchReport.OpcuaRun> runs = OpcuaLatency.run(List.of("XMSSMT-SHA2_10/2_256"), o);
        assertEquals(2, runs.size(), runs.toString());
        assertEquals(
                List.of("ethernet", "5g"),
                runs.stream().map(BenchReport.OpcuaRun::link).toList());
        for (BenchReport.OpcuaRun r : runs) {
            assertEquals("XMSSMT-SHA2_10/2_256", r.scheme());
            assertEquals(3, r.readings());
            assertEquals(3, r.accepted(), r.toString());
            assertEquals(4642, r.signatureBytes());
            Stats e = r.endToEnd();
            assertEquals(3, e.n());
            assertTrue(e.median() > 0 && e.median() <= e.p99() && e.p99() <= e.max(), e.toString());
            // the samples behind the summary
            assertEquals(3, r.endToEndSamplesMs().size());
            assertEquals(e.max(), Collections.max(r.endToEndSamplesMs()), 1e-9);
        }
        BenchReport report = new BenchReport(
                "test",
                MachineInfo.describe(1, 1),
                "now",
                1,
                List.of(),
                List.of(),
                List.of(),
                "off",
                List.of(),
                "off",
                runs,
                null,
                List.of());
        MarkdownReport.write(report, dir);
        Document svg = SvgWriterTest.parse(Files.readString(dir.resolve("opcua-end-to-end.svg")));
        String text = svg.getDocumentElement().getTextContent();
        assertTrue(
                text.contains("ethernet · XMSSMT-SHA2_10/2_256 (n = 3)")
                        && text.contains("5g · XMSSMT-SHA2_10/2_256 (n = 3)"),
                text);
        @SuppressWarnings("unchecked")
        List<Object> samples = (List<Object>) ((Map<String, Object>)
                        ((List<Object>) ((Map<String, Object>) MiniJson.parse(JsonReport.toJson(report))).get("opcua"))
                                .get(0))
                .get("end_to_end_samples_ms");
        assertEquals(3, samples.size(), "the JSON carries every reading's latency");
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("### Link `ethernet`") && md.contains("### Link `5g`"), md);
        assertTrue(md.contains("≈ 1,036.7"), "the study's set-1 Ethernet figure beside ours");
    }
}
