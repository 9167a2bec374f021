package dev.pqsign.cli;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.KeyDirectoryAudit;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.telemetry.operator.StreamAudit;
import dev.pqsign.x509.PqPublicKey;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign audit}: re-verifies an operator's archived JSON Lines from the sensor's first public
 * key alone, across every key rollover recorded in it; or, with {@code --key-dir}, a sensor key
 * directory's whole handover chain (the compacted generations in its handover log, then the
 * generation directories). Exit 0 only when the whole history verifies.
 */
@Command(
        name = "audit",
        description = {
            "Re-verify an operator's JSON Lines (--jsonl) from the sensor's first public key,",
            "following every key handover in it; or (--key-dir) every key handover a sensor key directory holds.",
            "Exit 0 only if everything verifies and nothing is missing or reused; 1 otherwise; 2 for unreadable input."
        })
final class AuditCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--pub",
            description = "The sensor's first public key (generation 0: DIR/key.pub of its key directory);"
                    + " required with --jsonl, with --key-dir the key the directory's chain must start at.")
    Path pub;

    @Option(
            names = "--params",
            description = "Parameter set of --pub, for a raw key or a type code shared by XMSS and XMSS^MT.")
    String params;

    @Option(names = "--jsonl", description = "The operator's JSON Lines file, or - for standard input.")
    String jsonl;

    @Option(
            names = "--key-dir",
            description = "Instead of --jsonl: a sensor key directory whose handover chain to re-verify"
                    + " (docs/key-directory.md).")
    Path keyDir;

    @Override
    public Integer call() {
        if (keyDir != null) {
            if (jsonl != null) {
                throw CliException.usage("give either --jsonl or --key-dir, not both");
            }
            return auditKeyDirectory();
        }
        if (jsonl == null || pub == null) {
            throw CliException.usage("give --pub and --jsonl, or --key-dir");
        }
        PqPublicKey first = KeyFiles.publicKey(pub, params);
        StreamAudit.Report r;
        try (InputStream in = open()) {
            r = StreamAudit.run(first, in);
        } catch (IOException e) {
            throw CliException.usage(jsonl + ": " + OutputFiles.reason(e));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                "audit: %d lines, %d readings verified, %d duplicates, %d rejected, %d missing, %d index reuses;"
                        + " %d key handovers followed (generation %d), %d handover alarms: %s%n",
                r.lines(),
                r.accepted(),
                r.duplicates(),
                r.rejected(),
                r.gaps(),
                r.indexReuse(),
                r.handoversFollowed(),
                r.generation(),
                r.handoverAlarms(),
                r.passed() ? "PASSED" : "FAILED");
        return finish(out, r.problems(), r.passed());
    }

    /** Every handover of a key directory, from its first key (or the pinned --pub) on. */
    private int auditKeyDirectory() {
        if (!Files.isDirectory(keyDir) || !Files.isRegularFile(keyDir.resolve(SensorKeyDirectory.PUBLIC_KEY))) {
            throw CliException.usage(
                    keyDir + ": not a sensor key directory (no " + SensorKeyDirectory.PUBLIC_KEY + ")");
        }
        KeyDirectoryAudit.Report r;
        try {
            r = pub == null
                    ? KeyDirectoryAudit.run(keyDir)
                    : KeyDirectoryAudit.run(keyDir, KeyFiles.publicKey(pub, params));
        } catch (KeyFormatException | IOException e) {
            throw CliException.usage(keyDir + ": " + e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf(
                "audit: key directory %s: generation %d, %d key handovers verified (%d from %s): %s%n",
                keyDir,
                r.generation(),
                r.verified(),
                r.logEntries(),
                SensorKeyDirectory.HANDOVER_LOG,
                r.passed() ? "PASSED" : "FAILED");
        return finish(out, r.problems(), r.passed());
    }

    /** Prints the problems under the summary line; the exit code says whether the audit passed. */
    private static int finish(PrintWriter out, List<String> problems, boolean passed) {
        for (String p : problems) {
            out.println("  " + SensorCommand.printable(p));
        }
        out.flush();
        if (out.checkError()) {
            throw new CliException(CliException.FAILED, "cannot write to standard output");
        }
        return passed ? 0 : CliException.FAILED;
    }

    private InputStream open() throws IOException {
        if (jsonl.equals("-")) {
            return new FilterInputStream(System.in) {
                @Override
                public void close() {
                    // standard input stays open
                }
            };
        }
        Path file = Path.of(jsonl);
        if (!Files.isRegularFile(file)) {
            throw CliException.usage(file + (Files.exists(file) ? " is not a regular file" : " does not exist"));
        }
        try {
            return Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw CliException.usage(file + " does not exist");
        }
    }
}
