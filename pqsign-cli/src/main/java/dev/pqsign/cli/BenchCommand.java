package dev.pqsign.cli;

import dev.pqsign.bench.report.BenchOptions;
import dev.pqsign.bench.report.BenchReport;
import dev.pqsign.bench.report.BenchRunner;
import dev.pqsign.bench.report.JsonReport;
import dev.pqsign.bench.report.MarkdownReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign bench}: keygen, sign and verify of the study's XMSS^MT sets, XMSSMT-SHA2_20/2_256,
 * HAETAE-2/3/5 and ML-DSA, pqsign beside BouncyCastle 1.87 in the same run; sizes, SHA-256
 * compressions per XMSS operation, allocation per operation and the OPC UA demo's end-to-end latency.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = {
            "Measure keygen, sign and verify (median, p99, max) of XMSS^MT, HAETAE and ML-DSA, pqsign beside "
                    + "BouncyCastle 1.87; sizes, SHA-256 compressions per XMSS operation, allocated bytes per operation, "
                    + "and OPC UA end-to-end latency over the ethernet and 5g link profiles.",
            "The full run takes about 8-10 minutes on 2 cores, --quick about 2-3. Progress goes to stderr, a summary to stdout."
        })
final class BenchCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--quick",
            description = "Short warm-up and measuring time per case (about 2-3 minutes on 2 cores).")
    boolean quick;

    @Option(names = "--json", paramLabel = "FILE", description = "Write all results as JSON to FILE.")
    Path json;

    @Option(names = "--out-dir", paramLabel = "DIR", description = "Write report.md and SVG charts into DIR.")
    Path outDir;

    @Option(
            names = "--schemes",
            split = ",",
            paramLabel = "NAME",
            description =
                    "Only these schemes (comma-separated), e.g. XMSSMT-SHA2_10/2_256,HAETAE-2,ML-DSA-44. Default: all.")
    List<String> schemes = List.of();

    @Option(names = "--no-bouncycastle", description = "Skip BouncyCastle (and so ML-DSA).")
    boolean noBouncyCastle;

    @Option(names = "--no-hash-counts", description = "Skip the child JVM that counts SHA-256 compressions.")
    boolean noHashCounts;

    @Option(names = "--no-opcua", description = "Skip the OPC UA demo (ethernet and 5g link profiles).")
    boolean noOpcua;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        checkOutputs();
        String command =
                "pqsign " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        BenchOptions o = quick
                ? BenchOptions.quick(command, line -> log(err, line))
                : BenchOptions.full(command, line -> log(err, line));
        o = o.withSchemes(schemes)
                .withBouncyCastle(!noBouncyCastle)
                .withHashCounts(!noHashCounts)
                .withOpcua(!noOpcua);
        BenchReport r = BenchRunner.run(o);
        if (json != null) {
            OutputFiles.write(json, JsonReport.toJson(r).getBytes(StandardCharsets.UTF_8), true);
        }
        if (outDir != null) {
            MarkdownReport.write(r, outDir);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                Locale.ROOT,
                "%-22s %-7s %-22s %3s %11s %11s %11s %6s%n",
                "SCHEME",
                "OP",
                "IMPL",
                "THR",
                "MEDIAN ms",
                "P99 ms",
                "MAX ms",
                "N");
        for (BenchReport.Result x : r.results()) {
            out.printf(
                    Locale.ROOT,
                    "%-22s %-7s %-22s %3d %11.4f %11.4f %11.4f %6d%n",
                    x.scheme(),
                    x.op(),
                    x.impl(),
                    x.threads(),
                    x.stats().median(),
                    x.stats().p99(),
                    x.stats().max(),
                    x.stats().n());
        }
        for (BenchReport.OpcuaRun x : r.opcua()) {
            out.printf(
                    Locale.ROOT,
                    "opcua %-8s %-22s end-to-end median %.2f ms p99 %.2f ms max %.2f ms (n %d)%n",
                    x.link(),
                    x.scheme(),
                    x.endToEnd().median(),
                    x.endToEnd().p99(),
                    x.endToEnd().max(),
                    x.endToEnd().n());
        }
        out.printf(
                Locale.ROOT,
                "%d cores, load average %.2f → %.2f, %.0f s%n",
                r.machine().cores(),
                r.machine().loadStart(),
                r.machine().loadEnd(),
                r.seconds());
        out.flush();
        return 0;
    }

    /** Minutes of measurement must not end in an output that cannot be written: checked first. */
    private void checkOutputs() throws IOException {
        if (json != null) {
            Path parent = json.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent);
            }
            OutputFiles.check(json, List.of());
        }
        if (outDir != null && Files.exists(outDir) && !Files.isDirectory(outDir)) {
            throw CliException.usage(outDir + ": --out-dir exists and is not a directory");
        }
    }

    private static void log(PrintWriter err, String line) {
        err.println(line);
        err.flush();
    }
}
