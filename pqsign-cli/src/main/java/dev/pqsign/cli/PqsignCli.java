package dev.pqsign.cli;

import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StatePersistenceException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code pqsign} command. Exit codes: 0 success, 1 the operation ran and failed (invalid
 * signature, exhausted key), 2 bad usage or unreadable / malformed input. Errors are one line on
 * stderr, never a stack trace (set PQSIGN_DEBUG=1 to get one).
 */
@Command(name = "pqsign", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Post-quantum signatures (XMSS, XMSS^MT, HAETAE) for industrial telemetry.",
        subcommands = {ParamsCommand.class, KeygenCommand.class, SignCommand.class, VerifyCommand.class,
            InspectCommand.class, CertCommand.class, KeyCommand.class, KatCommand.class, DemoCommand.class, SensorCommand.class, OperatorCommand.class, AuditCommand.class, BenchCommand.class, CommandLine.HelpCommand.class})
public final class PqsignCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw CliException.usage("missing command");
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Builds the command line with pqsign's error handling. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new PqsignCli());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (System.getenv("PQSIGN_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            if (ex instanceof CliException) {
                err.println("pqsign: " + ex.getMessage());
                err.flush();
                return ((CliException) ex).exitCode;
            }
            if (ex instanceof KeyExhaustedException) {
                err.println("pqsign: " + ex.getMessage());
                err.flush();
                return CliException.FAILED;
            }
            if (ex instanceof KeyFormatException || ex instanceof StatePersistenceException
                    || ex instanceof IllegalArgumentException || ex instanceof java.io.IOException
                    || ex instanceof java.io.UncheckedIOException) {
                err.println("pqsign: " + ex.getMessage());
                err.flush();
                return CliException.USAGE;
            }
            err.println("pqsign: internal error: " + ex);
            err.flush();
            return 3;
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("pqsign: " + ex.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
            c.getErr().flush();
            return CliException.USAGE;
        });
        return cl;
    }

    public static void main(String[] args) {
        // Library logs: one line each, and Milo's INFO chatter off unless asked for.
        setDefault("java.util.logging.SimpleFormatter.format", "%4$s %3$s: %5$s%6$s%n");
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.exit(commandLine().execute(args));
    }
}
