package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny LMS run (one height-10 tree, 3 samples, hash counts): the rows exist, not their speeds. */
class LmsRowsTest {
    private static final String SET = "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4";

    @Test
    void lmsRun_hasAlternatingRowsForEveryImplementation_hashCounts_andAMarkdownSection(@TempDir Path dir)
            throws Exception {
        List<String> log = new ArrayList<>();
        BenchOptions o = BenchOptions.quick("test", log::add)
                .withSchemes(List.of(SET))
                .withOpcua(false)
                .withIterations(1, 3);
        BenchReport r = BenchRunner.run(o);
        Set<String> rows = new HashSet<>();
        for (BenchReport.Result x : r.results()) {
            assertEquals(SET, x.scheme());
            rows.add(x.op() + " " + x.impl() + " " + x.threads());
        }
        int cores = Runtime.getRuntime().availableProcessors();
        for (String k : List.of(
                "keygen pqsign " + cores,
                "keygen pqsign 1",
                "keygen bouncycastle 1",
                "load pqsign " + cores,
                "sign pqsign 1",
                "sign bouncycastle 1",
                "verify pqsign 1",
                "verify bouncycastle 1")) {
            assertTrue(rows.contains(k), k + " in " + rows);
        }
        assertEquals(Runtime.version().feature() >= 21, rows.contains("verify jdk 1"), rows.toString());
        Set<String> counted = new HashSet<>();
        r.hashCounts().forEach(h -> counted.add(h.scheme() + " " + h.op()));
        assertTrue(
                counted.containsAll(List.of(SET + " keygen", SET + " load", SET + " sign", SET + " verify")),
                counted.toString());
        MarkdownReport.write(r, dir);
        String md = Files.readString(dir.resolve("report.md"));
        assertTrue(md.contains("## LMS / HSS timings, ms"), md);
        assertTrue(md.contains("ratio to BouncyCastle"), md);
    }

    @Test
    void theHeight20Set_runsOnlyWhenNamed() {
        BenchOptions all = BenchOptions.quick("test", s -> {});
        assertFalse(all.includes("LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8"));
        assertTrue(all.includes(SET));
        assertTrue(all.withSchemes(List.of("LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8"))
                .includes("LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8"));
    }
}
