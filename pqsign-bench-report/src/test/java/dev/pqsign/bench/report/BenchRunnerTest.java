package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run (one XMSS^MT set, HAETAE-2, ML-DSA-44, 3 samples each, hash counts, no OPC UA): shapes, not speeds. */
class BenchRunnerTest {
    static BenchReport report;
    static final List<String> log = new ArrayList<>();

    @BeforeAll
    static void runTiny() throws Exception {
        BenchOptions o = BenchOptions.quick("test", log::add)
                .withSchemes(List.of("XMSSMT-SHA2_10/2_256", "HAETAE-2", "ML-DSA-44"))
                .withOpcua(false)
                .withIterations(1, 3);
        report = BenchRunner.run(o);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> json() {
        return (Map<String, Object>) MiniJson.parse(JsonReport.toJson(report));
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> j, String key) {
        return (List<Map<String, Object>>) j.get(key);
    }

    @Test
    void json_resultsHaveTheDocumentedShapeAndValidNumbers() {
        Map<String, Object> j = json();
        List<Map<String, Object>> results = list(j, "results");
        Set<String> keys = new HashSet<>();
        for (Map<String, Object> r : results) {
            assertTrue(
                    r.keySet().containsAll(List.of("scheme", "op", "impl", "median_ms", "p99_ms", "max_ms", "n")),
                    r.toString());
            assertTrue(List.of("keygen", "sign", "verify").contains(r.get("op")), r.toString());
            assertTrue(((String) r.get("impl")).matches("pqsign(-compact)?(-v1\\.1\\.2)?|bouncycastle"), r.toString());
            double median = (Double) r.get("median_ms");
            double p99 = (Double) r.get("p99_ms");
            double max = (Double) r.get("max_ms");
            assertTrue(median > 0 && median <= p99 && p99 <= max, r.toString());
            assertEquals(3.0, r.get("n"));
            keys.add(r.get("scheme") + " " + r.get("op") + " " + r.get("impl") + " " + r.get("threads"));
        }
        int cores = Runtime.getRuntime().availableProcessors();
        for (String k : List.of(
                "XMSSMT-SHA2_10/2_256 keygen pqsign " + cores + ".0",
                "XMSSMT-SHA2_10/2_256 keygen pqsign 1.0",
                "XMSSMT-SHA2_10/2_256 sign pqsign 1.0",
                "XMSSMT-SHA2_10/2_256 verify pqsign 1.0",
                "XMSSMT-SHA2_10/2_256 keygen bouncycastle 1.0",
                "XMSSMT-SHA2_10/2_256 sign bouncycastle 1.0",
                "XMSSMT-SHA2_10/2_256 verify bouncycastle 1.0",
                "HAETAE-2 keygen pqsign 1.0",
                "HAETAE-2 sign pqsign 1.0",
                "HAETAE-2 sign pqsign-v1.1.2 1.0",
                "HAETAE-2 verify pqsign 1.0",
                "HAETAE-2 keygen bouncycastle 1.0",
                "HAETAE-2 sign bouncycastle 1.0",
                "HAETAE-2 verify bouncycastle 1.0",
                "ML-DSA-44 keygen bouncycastle 1.0",
                "ML-DSA-44 sign bouncycastle 1.0",
                "ML-DSA-44 verify bouncycastle 1.0")) {
            assertTrue(keys.contains(k), "missing " + k + " in " + keys);
        }
    }

    @Test
    void json_sizesMatchTheParameterSets() {
        Map<String, Object> xmss = null;
        for (Map<String, Object> s : list(json(), "sizes")) {
            if (s.get("scheme").equals("XMSSMT-SHA2_10/2_256") && s.get("impl").equals("pqsign")) {
                xmss = s;
            }
        }
        assertNotNull(xmss);
        assertEquals(4642.0, xmss.get("signature_bytes_max"));
        assertEquals(4642.0, xmss.get("signature_bytes_min"));
        assertEquals(172.0, xmss.get("state_bytes"));
        assertEquals(68.0, xmss.get("public_key_bytes"));
    }

    @Test
    void json_workingSetOfBothHaetaeEnginesPerOperation() {
        Map<String, Object> j = json();
        assertNull(j.get("working_set_note"), String.valueOf(j.get("working_set_note")));
        Map<String, Double> bytes = new java.util.HashMap<>();
        for (Map<String, Object> w : list(j, "working_set")) {
            assertEquals("HAETAE-2", w.get("scheme"));
            bytes.put(w.get("impl") + " " + w.get("op"), (Double) w.get("bytes"));
        }
        assertEquals(6, bytes.size(), bytes.toString());
        for (String op : List.of("keygen", "sign", "verify")) {
            double compact = bytes.get("pqsign-compact " + op);
            double fast = bytes.get("pqsign " + op);
            assertTrue(compact > 0, op);
            // the compact engine streams what the fast engine holds as whole vectors
            assertTrue(compact < fast, op + ": compact " + compact + " B, fast " + fast + " B");
            // one fast area per set serves all three operations
            assertEquals(bytes.get("pqsign keygen"), fast);
        }
    }

    @Test
    void json_hashCountsComeFromTheCountingChildJvm() {
        Map<String, Object> j = json();
        assertNull(j.get("hash_counts_note"), String.valueOf(j.get("hash_counts_note")));
        List<Map<String, Object>> h = list(j, "hash_counts");
        assertEquals(4, h.size(), h.toString());
        for (Map<String, Object> x : h) {
            assertEquals("XMSSMT-SHA2_10/2_256", x.get("scheme"));
            assertTrue((Double) x.get("sha256_compressions_mean") > 0, x.toString());
        }
    }

    @Test
    void json_hasAllocationMachineAndOpcuaSections() {
        Map<String, Object> j = json();
        assertEquals(list(j, "results").size(), list(j, "allocation").size());
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) j.get("machine");
        assertEquals((double) Runtime.getRuntime().availableProcessors(), m.get("cores"));
        assertNotNull(m.get("jvm"));
        assertNotNull(m.get("os"));
        assertNotNull(m.get("cpu_model"));
        assertTrue(list(j, "opcua").isEmpty());
        assertEquals("not run (disabled)", j.get("opcua_note"));
        assertEquals("test", j.get("command"));
    }

    @Test
    void markdown_writesReportAndWellFormedCharts(@TempDir Path dir) throws Exception {
        List<Path> files = MarkdownReport.write(report, dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("Command: `test`"));
        assertTrue(md.contains("| XMSSMT-SHA2_10/2_256 | 68 | 172 |"), md);
        assertTrue(md.contains("4,644 ¹"), "study signature size beside ours");
        assertTrue(md.contains("other hardware"));
        assertTrue(
                md.matches("(?s).*\\| sign \\| [0-9,]+ B \\| [0-9,]+ B \\| [0-9,]+ \\| 5\\.8–6\\.1 KB \\|.*"),
                "working sets beside the Cortex-M4 stack figure: " + md);
        int svgs = 0;
        for (Path f : files) {
            if (f.toString().endsWith(".svg")) {
                SvgWriterTest.parse(Files.readString(f));
                assertTrue(md.contains("](" + f.getFileName() + ")"), f.toString());
                svgs++;
            }
        }
        assertEquals(3, svgs, "keygen, sign, verify (no OPC UA chart without the demo)");
        assertFalse(log.isEmpty());
    }
}
