package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.pqsign.bench.report.BenchReport.HashCount;
import dev.pqsign.bench.report.BenchReport.Machine;
import dev.pqsign.bench.report.BenchReport.OpcuaRun;
import dev.pqsign.bench.report.BenchReport.Result;
import dev.pqsign.bench.report.BenchReport.Sizes;
import dev.pqsign.bench.report.BenchReport.WorkingSet;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's output for fixed, synthetic measurements, byte for byte: report.md, its charts and the
 * JSON of a report that fills every table (XMSS^MT with and without BouncyCastle, LMS / HSS with the
 * JDK's verifier, HAETAE with both engines and samplers, ML-DSA, working sets, hash counts, three OPC
 * UA links, notes, a busy machine) and of one that has only lattice rows and a note for every part
 * not run. The golden files under {@code golden/} were written by the code as it stood when this test
 * was added; on a mismatch the actual output is left under {@code target/golden-actual/} to diff.
 */
class ReportGoldenTest {
    private static final String A = "XMSSMT-SHA2_10/2_256";
    private static final String B = "XMSSMT-SHA2_20/4_256";
    private static final String D = "XMSSMT-SHA2_20/2_256";
    private static final String LMS = "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4";
    private static final String LMS_TALL = "LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8";

    /** Samples whose order statistics are {@code median}, {@code p99} and {@code max}, n = 5. */
    private static Stats stats(double median, double p99, double max) {
        return new Stats(5, median, p99, max, (median + p99 + max) / 3);
    }

    private static Result result(String scheme, String op, String impl, int threads, double median, long alloc) {
        return new Result(scheme, op, impl, threads, stats(median, median * 1.5, median * 2.25), alloc);
    }

    static BenchReport full() {
        List<Result> r = new ArrayList<>();
        r.add(result(A, "keygen", "pqsign", 2, 12.5, 1_048_576));
        r.add(result(A, "keygen", "pqsign", 1, 13.25, 1_048_000));
        r.add(result(A, "sign", "pqsign", 1, 0.4321, 9_400));
        r.add(result(A, "verify", "pqsign", 1, 0.2107, 3_200));
        r.add(result(A, "keygen", "bouncycastle", 1, 250.75, 88_000_000));
        r.add(result(A, "sign", "bouncycastle", 1, 3.5, 120_000));
        r.add(result(A, "verify", "bouncycastle", 1, 0.9876, 40_000));
        r.add(result(B, "keygen", "pqsign", 2, 25.0, -1));
        r.add(result(B, "keygen", "pqsign", 1, 26.0, -1));
        r.add(result(B, "sign", "pqsign", 1, 0.61, -1));
        r.add(result(B, "verify", "pqsign", 1, 0.42, -1));
        r.add(result(D, "keygen", "pqsign", 2, 1234.5678, 5_000_000));
        r.add(result(D, "keygen", "pqsign", 1, 2222.0, 5_000_000));
        r.add(result(D, "sign", "pqsign", 1, 0.5, 9_000));
        r.add(result(D, "verify", "pqsign", 1, 0.25, 3_000));
        r.add(result(LMS, "keygen", "pqsign", 2, 20.0, -1));
        r.add(result(LMS, "keygen", "pqsign", 1, 38.0, -1));
        r.add(result(LMS, "keygen", "bouncycastle", 1, 160.0, -1));
        r.add(result(LMS, "load", "pqsign", 2, 21.0, -1));
        r.add(result(LMS, "sign", "pqsign", 1, 0.05, -1));
        r.add(result(LMS, "sign", "bouncycastle", 1, 0.3, -1));
        r.add(result(LMS, "verify", "pqsign", 1, 0.04, -1));
        r.add(result(LMS, "verify", "bouncycastle", 1, 0.12, -1));
        r.add(result(LMS, "verify", "jdk", 1, 0.09, -1));
        r.add(result(LMS_TALL, "keygen", "pqsign", 2, 9000.0, -1));
        r.add(result(LMS_TALL, "sign", "pqsign", 1, 0.07, -1));
        r.add(result("HAETAE-2", "keygen", "pqsign", 1, 0.11, 30_000));
        r.add(result("HAETAE-2", "keygen", "pqsign-compact", 1, 0.19, 12_000));
        r.add(result("HAETAE-2", "sign", "pqsign", 1, 0.6, 60_000));
        r.add(result("HAETAE-2", "sign", "pqsign-v1.1.2", 1, 0.7, 61_000));
        r.add(result("HAETAE-2", "sign", "pqsign-compact", 1, 1.9, 14_000));
        r.add(result("HAETAE-2", "sign", "pqsign-compact-v1.1.2", 1, 2.1, -1));
        r.add(result("HAETAE-2", "verify", "pqsign", 1, 0.08, 20_000));
        r.add(result("HAETAE-2", "verify", "pqsign-compact", 1, 0.15, 9_000));
        r.add(result("HAETAE-2", "keygen", "bouncycastle", 1, 0.9, 400_000));
        r.add(result("HAETAE-2", "sign", "bouncycastle", 1, 4.4, 900_000));
        r.add(result("HAETAE-2", "verify", "bouncycastle", 1, 0.5, 200_000));
        r.add(result("HAETAE-3", "sign", "pqsign-compact", 1, 2.9, 18_000));
        r.add(result("HAETAE-3", "verify", "pqsign-compact", 1, 0.21, 11_000));
        r.add(result("ML-DSA-44", "keygen", "bouncycastle", 1, 0.1, 50_000));
        r.add(result("ML-DSA-44", "sign", "bouncycastle", 1, 0.3, 80_000));
        r.add(result("ML-DSA-44", "verify", "bouncycastle", 1, 0.09, 30_000));

        List<Sizes> s = List.of(
                new Sizes(A, "pqsign", 68, 172, 172, 4642, 4642),
                new Sizes(A, "bouncycastle", 68, 14_211, 14_211, 4642, 4642),
                new Sizes(B, "pqsign", 68, 172, 172, 9251, 9251),
                new Sizes(D, "pqsign", 68, 172, 172, 4963, 4963),
                new Sizes(LMS, "pqsign", 60, 140, 140, 2644, 2644),
                new Sizes(LMS, "bouncycastle", 60, 1_200, 1_200, 2644, 2644),
                new Sizes("HAETAE-2", "pqsign", 992, 1408, -1, 1460, 1474),
                new Sizes("HAETAE-2", "bouncycastle", 992, 1408, -1, 1463, 1463),
                new Sizes("ML-DSA-44", "bouncycastle", 1312, 2560, -1, 2420, 2420));
        List<WorkingSet> w = List.of(
                new WorkingSet("HAETAE-2", "keygen", "pqsign", 51_200),
                new WorkingSet("HAETAE-2", "sign", "pqsign", 51_200),
                new WorkingSet("HAETAE-2", "verify", "pqsign", 51_200),
                new WorkingSet("HAETAE-2", "keygen", "pqsign-compact", 7_000),
                new WorkingSet("HAETAE-2", "sign", "pqsign-compact", 9_500),
                new WorkingSet("HAETAE-2", "verify", "pqsign-compact", 6_100),
                new WorkingSet("HAETAE-3", "keygen", "pqsign", 73_728),
                new WorkingSet("HAETAE-3", "sign", "pqsign", 73_728),
                new WorkingSet("HAETAE-3", "verify", "pqsign", 73_728),
                new WorkingSet("HAETAE-3", "keygen", "pqsign-compact", 7_000),
                new WorkingSet("HAETAE-3", "sign", "pqsign-compact", 9_500),
                new WorkingSet("HAETAE-3", "verify", "pqsign-compact", 6_100));
        List<HashCount> h = List.of(
                new HashCount(A, "keygen", 1, 69_632.0, 139_264.4, 139_264),
                new HashCount(A, "load", 1, 69_700.0, 139_400.0, 139_400),
                new HashCount(A, "sign", 64, 2_345.5, 4_690.49, 9_001),
                new HashCount(A, "verify", 64, 1_123.25, 2_246.5, 2_400),
                new HashCount(LMS, "sign", 64, 300.5, 601.5, 700));
        List<OpcuaRun> o = List.of(
                new OpcuaRun(
                        "ethernet",
                        A,
                        5,
                        5,
                        4642,
                        stats(0.5, 0.75, 0.8),
                        stats(0.3, 0.4, 0.45),
                        stats(1.5, 2.5, 3.0),
                        stats(2.5, 3.75, 4.5),
                        List.of(2.5, 2.25, 3.75, 4.5, 2.0)),
                new OpcuaRun(
                        "ethernet",
                        B,
                        5,
                        4,
                        9251,
                        stats(0.6, 0.9, 1.1),
                        stats(0.35, 0.5, 0.55),
                        stats(1.75, 2.75, 3.5),
                        stats(2.75, 4.25, 5.5),
                        List.of(2.75, 2.5, 4.25, 5.5)),
                new OpcuaRun(
                        "5g",
                        A,
                        3,
                        3,
                        4642,
                        stats(0.5, 0.7, 0.7),
                        stats(0.3, 0.35, 0.35),
                        stats(30.0, 45.5, 45.5),
                        stats(31.0, 46.5, 46.5),
                        List.of(31.0, 46.5, 29.0)),
                new OpcuaRun(
                        "wifi",
                        A,
                        2,
                        2,
                        4642,
                        stats(0.5, 0.6, 0.6),
                        stats(0.3, 0.3, 0.3),
                        stats(150.0, 180.0, 180.0),
                        stats(151.0, 181.0, 181.0),
                        List.of(151.0, 181.0)));
        return new BenchReport(
                "pqsign bench --quick --out golden",
                new Machine(
                        2,
                        "Example CPU @ 2.00GHz",
                        "Example VM 17.0.1 (Example)",
                        "Linux 6.1 amd64",
                        8L << 30,
                        3.5,
                        1.25),
                "2026-01-02T03:04:05Z",
                123.456,
                r,
                s,
                w,
                null,
                h,
                null,
                o,
                null,
                List.of("First note.", "Second note with `code`."));
    }

    /** Only lattice rows, no working sets, and a note for every part that did not run. */
    static BenchReport partial() {
        List<Result> r = List.of(
                result("HAETAE-5", "keygen", "pqsign", 1, 0.2, -1),
                result("HAETAE-5", "sign", "pqsign-compact", 1, 3.3, -1),
                result("HAETAE-5", "verify", "pqsign", 1, 0.12, -1),
                result("ML-DSA-87", "sign", "bouncycastle", 1, 0.55, 120_000));
        List<Sizes> s = List.of(new Sizes("HAETAE-5", "pqsign", 2080, 2816, -1, 2900, 2900));
        return new BenchReport(
                "pqsign bench --schemes HAETAE-5,ML-DSA-87",
                new Machine(4, "unknown", "Example VM 25 (Example)", "Linux 6.1 aarch64", 512L << 20, -1, 0.5),
                "2026-01-02T03:04:05Z",
                7.0,
                r,
                s,
                List.of(),
                "not measured: reason",
                List.of(),
                "not run (no XMSS set selected)",
                List.of(),
                "not run (disabled)",
                List.of());
    }

    @Test
    void markdownAndCharts_ofAFullReport_areTheGoldenFiles(@TempDir Path dir) throws IOException {
        assertWritesGolden(full(), dir, "full");
    }

    @Test
    void markdownAndCharts_ofAReportWithOnlyLatticeRows_areTheGoldenFiles(@TempDir Path dir) throws IOException {
        assertWritesGolden(partial(), dir, "partial");
    }

    @Test
    void json_ofAFullReport_isTheGoldenFile() throws IOException {
        assertGolden("full/report.json", JsonReport.toJson(full()));
    }

    @Test
    void json_ofAReportWithOnlyLatticeRows_isTheGoldenFile() throws IOException {
        assertGolden("partial/report.json", JsonReport.toJson(partial()));
    }

    private static void assertWritesGolden(BenchReport r, Path dir, String name) throws IOException {
        List<Path> files = MarkdownReport.write(r, dir);
        List<String> names = files.stream().map(f -> f.getFileName().toString()).toList();
        List<Executable> checks = new ArrayList<>();
        checks.add(() -> assertGolden(name + "/files.txt", String.join("\n", names) + "\n"));
        for (Path f : files) {
            String content = Files.readString(f, StandardCharsets.UTF_8);
            checks.add(() -> assertGolden(name + "/" + f.getFileName(), content));
        }
        assertAll(checks);
    }

    private static void assertGolden(String name, String actual) throws IOException {
        String expected;
        try (InputStream in = ReportGoldenTest.class.getResourceAsStream("golden/" + name)) {
            expected = in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (actual.equals(expected)) {
            return;
        }
        Path out = Path.of("target", "golden-actual", name);
        Files.createDirectories(out.getParent());
        Files.writeString(out, actual, StandardCharsets.UTF_8);
        assertNotNull(expected, "no golden file " + name + "; this run's output is in " + out.toAbsolutePath());
        assertEquals(expected, actual, name + " differs; this run's output is in " + out.toAbsolutePath());
    }
}
