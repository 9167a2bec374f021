package dev.pqsign.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code pqsign-sensor}: the commands a sensor device runs, for the edge distribution
 * (pqsign-edge, docs/edge.md). The same command classes as {@code pqsign}, so options, output and
 * exit codes are identical; only the commands whose code needs what the edge distribution leaves
 * out (Kafka, the console's Jetty and Prometheus, Jackson, Milo's client, the bench report) are
 * not listed, because picocli loads every listed command's classes when it builds the command line.
 */
@Command(
        name = "pqsign-sensor",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "The sensor side of pqsign for a small device: run a sensor, make and inspect its key.",
            "Operators, certificates, audits, Kafka and benchmarks: the full 'pqsign' command (docs/edge.md)."
        },
        subcommands = {
            SensorCommand.class,
            KeygenCommand.class,
            InspectCommand.class,
            KeyCommand.class,
            ParamsCommand.class,
            CommandLine.HelpCommand.class
        })
public final class EdgeCli implements Runnable {

    private EdgeCli() {}

    @Override
    public void run() {
        throw CliException.usage("missing command (see 'pqsign-sensor --help')");
    }

    /**
     * Runs {@code pqsign-sensor} and exits the JVM with the command's exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        PqsignCli.run(new EdgeCli(), args);
    }
}
