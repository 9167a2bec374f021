package dev.pqsign.cli;

import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.keys.KeyDirectoryInUseException;
import dev.pqsign.state.DurableWriteException;
import dev.pqsign.state.StateLockTimeoutException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.FileSystemException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code pqsign} command. Exit codes: 0 success, 1 the operation ran and failed (invalid
 * signature, exhausted key), 2 bad usage or unreadable / malformed input. Errors are one line on
 * stderr, never a stack trace (set PQSIGN_DEBUG=1 to get one).
 */
@Command(
        name = "pqsign",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Post-quantum signatures (XMSS, XMSS^MT, HAETAE) for industrial telemetry.",
        subcommands = {
            ParamsCommand.class,
            KeygenCommand.class,
            SignCommand.class,
            VerifyCommand.class,
            InspectCommand.class,
            CertCommand.class,
            KeyCommand.class,
            KatCommand.class,
            DemoCommand.class,
            SensorCommand.class,
            OperatorCommand.class,
            BridgeCommand.class,
            VerifierCommand.class,
            AuditCommand.class,
            BenchCommand.class,
            CommandLine.HelpCommand.class
        })
public final class PqsignCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw CliException.usage("missing command (see 'pqsign --help')");
    }

    private static void setDefault(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** Builds the command line with pqsign's error handling. */
    public static CommandLine commandLine() {
        return commandLine(new PqsignCli());
    }

    /** Builds the command line of {@code top} (pqsign, or the edge's subset in EdgeCli) with pqsign's error handling. */
    static CommandLine commandLine(Object top) {
        CommandLine cl = new CommandLine(top);
        addHelpOption(cl);
        PlainNumbers.register(cl);
        cl.setExecutionStrategy(parseResult -> {
            int exit = new CommandLine.RunLast().execute(parseResult);
            // PrintWriter swallows write errors (a full disk, /dev/full, a closed pipe); a command
            // whose output did not arrive has failed, whatever it returned.
            if (cl.getOut().checkError()) {
                PrintWriter err = cl.getErr();
                err.println("pqsign: standard output: write failed (disk full, or the reader went away)");
                err.flush();
                return exit == 0 ? CliException.FAILED : exit;
            }
            return exit;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (System.getenv("PQSIGN_DEBUG") != null) {
                ex.printStackTrace(err);
            }
            err.println("pqsign: " + oneLine(message(ex)));
            err.flush();
            return exitCode(ex);
        });
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr()
                    .println("pqsign: " + oneLine(ex.getMessage()) + " (see '"
                            + c.getCommandSpec().qualifiedName() + " --help')");
            c.getErr().flush();
            return CliException.USAGE;
        });
        return cl;
    }

    /**
     * Exit codes (README): 1 the operation ran and failed (invalid signature, exhausted key, a
     * write that failed: full disk, read-only file system; the key's lock not obtained in time); 2
     * bad usage, unreadable / malformed input, or another I/O problem to fix first; 3 a bug.
     */
    static int exitCode(Exception ex) {
        if (ex instanceof CliException) {
            return ((CliException) ex).exitCode;
        }
        if (ex instanceof KeyExhaustedException || ex instanceof StatePersistenceException) {
            return CliException.FAILED;
        }
        IOException io = ex instanceof UncheckedIOException u ? u.getCause() : ex instanceof IOException i ? i : null;
        if (io != null) {
            return failedWrite(io) ? CliException.FAILED : CliException.USAGE;
        }
        if (ex instanceof KeyFormatException || ex instanceof IllegalArgumentException) {
            return CliException.USAGE;
        }
        return 3;
    }

    /**
     * Whether an I/O error is the operation failing (a write that did not happen, a lock not
     * obtained) rather than an input or an environment the user has to fix.
     */
    static boolean failedWrite(IOException e) {
        if (e instanceof DurableWriteException
                || e instanceof StateLockTimeoutException
                || e instanceof KeyDirectoryInUseException) {
            return true;
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            String r = fse.getReason();
            return r.contains("No space left on device")
                    || r.contains("Read-only file system")
                    || r.contains("Disk quota exceeded");
        }
        return false;
    }

    /** The one-line message for an error: what is wrong, in words, never a Java class name. */
    static String message(Exception ex) {
        if (ex instanceof IOException io) {
            if (io instanceof FileSystemException fse && fse.getFile() != null) {
                return fse.getFile() + ": " + OutputFiles.reason(io);
            }
            return OutputFiles.reason(io);
        }
        if (ex instanceof UncheckedIOException u) {
            return message(u.getCause());
        }
        if (ex instanceof CliException
                || ex instanceof KeyExhaustedException
                || ex instanceof KeyFormatException
                || ex instanceof StatePersistenceException
                || ex instanceof IllegalArgumentException) {
            return String.valueOf(ex.getMessage());
        }
        return "internal error (a bug; PQSIGN_DEBUG=1 prints where): "
                + (ex.getMessage() == null ? "no message" : ex.getMessage());
    }

    /**
     * One line, and without the "SomeException: " prefixes that libraries put into their messages
     * (Milo's UaException, for one): the reader needs what went wrong, not which class said so.
     */
    static String oneLine(String s) {
        return s == null
                ? ""
                : s.strip()
                        .replaceAll("\\s*\\R\\s*", "; ")
                        .replaceAll("\\b(?:[a-z][a-z0-9]*\\.)*[A-Z][A-Za-z0-9]*(?:Exception|Error): ", "");
    }

    /** Gives every command a --help option that exits 0 (picocli adds it only where asked). */
    private static void addHelpOption(CommandLine cl) {
        CommandLine.Model.CommandSpec spec = cl.getCommandSpec();
        if (spec.findOption("--help") == null) {
            spec.addOption(CommandLine.Model.OptionSpec.builder("-h", "--help")
                    .usageHelp(true)
                    .description("Show this help message and exit.")
                    .build());
        }
        for (CommandLine sub : cl.getSubcommands().values()) {
            addHelpOption(sub);
        }
    }

    public static void main(String[] args) {
        run(new PqsignCli(), args);
    }

    /** Runs the command {@code top} with {@code args} and exits the JVM with its exit code. */
    static void run(Object top, String[] args) {
        // Library logs: one line each, and Milo's INFO chatter off unless asked for.
        setDefault("java.util.logging.SimpleFormatter.format", "%4$s %3$s: %5$s%6$s%n");
        setDefault("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        // Milo logs a port it cannot bind as a WARN with a stack trace before failing the start;
        // the start failure itself is reported in one line.
        setDefault("org.slf4j.simpleLogger.log.org.eclipse.milo.opcua.sdk.server.OpcUaServer", "error");
        CommandLine cl = commandLine(top);
        // Straight onto file descriptor 1, not through System.out: that PrintStream hides write
        // errors from the PrintWriter above it, so checkError() would never see them.
        cl.setOut(new PrintWriter(
                new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), stdoutCharset()), true));
        System.exit(cl.execute(args));
    }

    private static Charset stdoutCharset() {
        String name = System.getProperty("stdout.encoding", System.getProperty("sun.stdout.encoding"));
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }
}
