package dev.pqsign.cli;

import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.opcua.upstream.UpstreamSource;
import dev.pqsign.opcua.upstream.UpstreamUri;
import dev.pqsign.telemetry.LineReadingSource;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.ReadingSource;
import dev.pqsign.telemetry.SimulatedSpeedSensor;
import dev.pqsign.telemetry.upstream.UpstreamText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign sensor}: an OPC UA server that signs and publishes readings until Ctrl-C or
 * {@code --readings N}. Every index is reserved durably before its signature; on exit the signer is
 * closed, so the key state on disk is exactly what was used.
 */
@Command(
        name = "sensor",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Run a sensor: an OPC UA server publishing signed readings (simulated, stdin, a file or a named pipe).",
            "Stops after --readings N or on Ctrl-C; the key state stays consistent."
        })
final class SensorCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--key",
            required = true,
            description =
                    "Private key: DIR/key.state (XMSS / XMSS^MT) or DIR/key.sk (HAETAE; index counter in key.sk.counter).")
    Path key;

    @Option(
            names = "--cert",
            description = "The sensor's certificate (PEM or DER) for its key, published on the certificate node.")
    Path cert;

    @Option(
            names = "--device-ca",
            paramLabel = "DIR",
            description = {
                "Device CA directory (pqsign cert device-ca): it certifies the current key and every next key before the",
                "handover; each key's certificate and the device CA's are published with the handover. Needs a key",
                "directory whose set has an RFC 9802 encoding, and no --cert."
            })
    Path deviceCa;

    @Option(
            names = "--port",
            defaultValue = "4840",
            description = "TCP port (default ${DEFAULT-VALUE}; 0 = any free port).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to bind (default ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--name", defaultValue = "sensor", description = "Application name (default ${DEFAULT-VALUE}).")
    String name;

    @Option(
            names = "--rate",
            description = "Simulated readings per second (default 1; 0 = as fast as possible). Only with --source sim.")
    Double rate;

    @Option(
            names = "--source",
            defaultValue = "sim",
            description = {
                "sim (simulated speed sensor), stdin (one reading per line), a FILE / named pipe, or an upstream OPC UA",
                "server: 'opcua:opc.tcp://HOST:PORT/PATH?node=NODEID[&node=NODEID]...' (every value change is signed;",
                "docs/telemetry.md)."
            })
    String source;

    @Option(
            names = "--source-security",
            defaultValue = "none",
            description = "With --source opcua:..., the upstream channel: none, sign or sign-encrypt (Basic256Sha256;"
                    + " default ${DEFAULT-VALUE}).")
    String sourceSecurity;

    @Option(
            names = "--source-credentials",
            paramLabel = "FILE",
            description = "With --source opcua:..., a file of two lines user=NAME and password=SECRET for the upstream"
                    + " session (default: anonymous). Never on the command line.")
    Path sourceCredentials;

    @Option(
            names = "--source-trust",
            arity = "1..*",
            paramLabel = "CERT",
            description = "With --source opcua:..., upstream server application certificate(s) to trust (sign,"
                    + " sign-encrypt); kept in DATA_DIR/upstream-pki.")
    List<Path> sourceTrust = new ArrayList<>();

    @Option(
            names = "--readings",
            defaultValue = "0",
            description = "Stop after N readings (default 0 = until Ctrl-C or the end of the input).")
    long readings;

    @Option(
            names = "--data-dir",
            defaultValue = "pqsign-data/sensor",
            description = "Application certificate and trust list (default ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(
            names = "--security",
            defaultValue = "none",
            description = "Transport security: none or sign-encrypt (default ${DEFAULT-VALUE}).")
    String security;

    @Option(
            names = "--trust-client",
            arity = "1..*",
            description = "Operator application certificate(s) to trust (sign-encrypt).")
    List<Path> trustClient = new ArrayList<>();

    @picocli.CommandLine.Mixin
    SensorSigningOptions signing = new SensorSigningOptions();

    @Option(
            names = "--lock-timeout",
            defaultValue = "10",
            description = "Seconds to wait for another process holding the key (default ${DEFAULT-VALUE}).")
    int lockTimeout;

    @Option(
            names = "--rollover-at",
            defaultValue = "0",
            paramLabel = "N",
            description = {
                "Prepare the next key when the current XMSS / XMSS^MT key has N signatures left (default 0 = right after",
                "its first signature); the sensor hands over to it, with a signed key handover, when 8 are left. Needs --key",
                "DIR/key.state with DIR/key.pub (a key directory: docs/key-directory.md)."
            })
    long rolloverAt;

    @Option(
            names = "--no-rollover",
            description = "Sign with the key until it is exhausted, without preparing or handing over to a next key.")
    boolean noRollover;

    @Option(names = "--summary", description = "Print a summary every second instead of one line per reading.")
    boolean summary;

    @Option(names = "--seed", description = "Seed of the simulated sensor's noise (default: random).")
    Long seed;

    @Option(
            names = "--history",
            defaultValue = "10000",
            description =
                    "Signed readings (and, separately, key handovers) kept for operators that were away, served by OPC UA HistoryRead and kept in DATA_DIR/history.pqhl across restarts (default ${DEFAULT-VALUE}; 0 = none).")
    int historyCount;

    @Option(
            names = "--history-bytes",
            defaultValue = "134217728",
            paramLabel = "BYTES",
            description = {
                "Bytes of the history (readings and key handovers together, as stored in DATA_DIR/history.pqhl) at most,",
                "65536 ... 1099511627776 (default ${DEFAULT-VALUE} = 128 MiB; the oldest readings go first, the newest",
                "always stays). The history file holds at most about twice this; memory holds only an index of it."
            })
    long historyBytes;

    @Option(
            names = "--history-age",
            defaultValue = "86400",
            description =
                    "Seconds a reading stays in the history at most (default ${DEFAULT-VALUE}; the newest always stays).")
    long historyAge;

    /** Guards the hand-over between the main loop and the Ctrl-C hook. */
    private final Object lock = new Object();

    private boolean stopping;
    private boolean waitingForSource;
    private Thread mainThread;

    private SensorServer server;
    private ReadingHistory history;
    private TelemetryKeys.OpenSensorKey openKey;
    private ReadingSource readingSource;
    /** The checked upstream options, for --source opcua:..., else null. */
    private UpstreamOptions upstream;

    private PrintWriter out;
    private long published;
    private long lastIndex = -1;
    private double signMsTotal;
    private boolean cleanedUp;
    /** Why the loop ended, for the last line; what it says if nothing else was said. */
    private String endReason = "unexpected end";

    /**
     * Whether this sensor rolls its key over: an XMSS / XMSS^MT key in a key directory, without a
     * certificate (a certified key would need a certificate for every next key), unless disabled.
     */
    private boolean rolls() {
        refuseGenerationKey();
        if (rolloverAt < 0) {
            throw CliException.usage("--rollover-at must be 0 (default) or positive, got " + rolloverAt);
        }
        if (deviceCa != null && (noRollover || cert != null || !TelemetryKeys.isKeyDirectory(key))) {
            throw CliException.usage("--device-ca needs --key DIR/key.state of a key directory, rollover (no"
                    + " --no-rollover) and no --cert (the device CA issues the keys' certificates)");
        }
        if (!noRollover && cert == null && TelemetryKeys.isKeyDirectory(key) && TelemetryKeys.isHssKeyState(key)) {
            throw CliException.usage(key + ": an LMS / HSS key does not roll over (key directories roll over XMSS /"
                    + " XMSS^MT keys only); give --no-rollover to sign with it until it is used up");
        }
        if (noRollover || cert != null || !TelemetryKeys.isKeyDirectory(key)) {
            if (rolloverAt != 0 && !noRollover) {
                throw CliException.usage(
                        "--rollover-at needs --key DIR/key.state of a key directory (DIR/key.pub beside"
                                + " it) and no --cert");
            }
            return false;
        }
        return true;
    }

    /**
     * A generation's key ({@code DIR/generations/N/key.state}) is refused, with or without rollover:
     * its directory looks like a key directory, and a sensor on it would start a second chain inside
     * the first (or sign with a prepared key no operator was told of).
     */
    private void refuseGenerationKey() {
        Path parent =
                key.getParent() != null ? key.getParent() : key.toAbsolutePath().getParent();
        if (parent == null) {
            return;
        }
        SensorKeyDirectory.enclosingKeyDirectory(parent).ifPresent(outer -> {
            throw CliException.usage(key + " is generation "
                    + Long.parseLong(parent.getFileName().toString())
                    + " of the key directory " + outer + "; run the sensor with --key "
                    + outer.resolve(SensorKeyDirectory.STATE)
                    + " (it signs with the current generation and rolls over from there)");
        });
    }

    @Override
    public Integer call() throws IOException {
        TelemetrySupport.quietLogging();
        out = spec.commandLine().getOut();
        if (readings < 0) {
            throw CliException.usage("--readings must be 0 (no limit) or positive, got " + readings);
        }
        Bounds.lockTimeout(lockTimeout);
        if (port < 0 || port > 65535) {
            throw CliException.usage("--port must be 0..65535, got " + port);
        }
        TransportSecurity sec = TelemetrySupport.security(security);
        if (!trustClient.isEmpty() && sec == TransportSecurity.NONE) {
            throw CliException.usage("--trust-client needs --security sign-encrypt");
        }
        var clientCerts = trustClient.stream()
                .map(TelemetrySupport::applicationCertificate)
                .toList();
        checkSource();
        if (upstream != null && upstream.passwordInTheClear()) {
            spec.commandLine()
                    .getErr()
                    .println("pqsign: sensor: warning: --source-credentials over --source-security none: the"
                            + " password goes to an upstream whose certificate nobody checks, in the clear unless"
                            + " its server asks for an encrypted user token; use --source-security sign-encrypt");
        }
        try {
            openKey = rolls()
                    ? TelemetryKeys.openRollingKey(key, signing, lockTimeout, rolloverAt, deviceCa)
                    : TelemetryKeys.openSensorKey(key, cert, signing, lockTimeout);
            history = openHistory();
            server = SensorServer.start(
                    new SensorServer.Config(name, dataDir, bind, port, sec), openKey.sensorKey, history);
            if (openKey.rolling != null) {
                server.rollWith(openKey.rolling);
            }
            clientCerts.forEach(server::trustClient);
            out.printf("sensor %s: %s%n", name, openKey.description);
            if (sec != TransportSecurity.NONE) {
                Path exported = TelemetrySupport.exportApplicationCertificate(
                        server.applicationCertificate(), dataDir, "sensor-application.der");
                out.printf("application certificate (give to operators' --trust-server): %s%n", exported);
            }
            if (history != null) {
                out.printf(
                        "history: %d readings held (%d bytes), at most %d, %d bytes, %d s%n",
                        history.size(), history.bytes(), historyCount, historyBytes, historyAge);
            }
            out.printf("endpoint %s%n", server.endpointUrl());
            out.flush();
        } catch (IOException | RuntimeException e) {
            cleanup(); // server, key (signer closed, state intact), source
            throw e;
        }

        mainThread = Thread.currentThread();
        int exit = CliException.FAILED; // if an exception ends the loop, Ctrl-C's hook must not wait for it
        ScheduledExecutorService ticker = null;
        try (TelemetrySupport.CtrlC ctrlC = new TelemetrySupport.CtrlC(this::requestStop, this::forceCleanup)) {
            try {
                if (summary) {
                    ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                        Thread t = new Thread(r, "pqsign-sensor-summary");
                        t.setDaemon(true);
                        return t;
                    });
                    // runs until ticker.shutdownNow() below; printSummary does not throw
                    var unused = ticker.scheduleAtFixedRate(this::printSummary, 1, 1, TimeUnit.SECONDS);
                }
                // after start-up, so a simulated sensor's schedule starts now; and under the Ctrl-C
                // hook, which can stop a sensor whose named pipe has no writer yet (the open waits)
                exit = openSourceUnlessStopped() ? loop() : 0;
            } catch (RuntimeException e) {
                endReason = "internal error: " + PqsignCli.oneLine(String.valueOf(e.getMessage()));
                throw e; // reported as an internal error, exit 3
            } catch (OutOfMemoryError e) {
                // What the loop held is unreachable now: there is memory again to say what happened.
                endReason = "out of memory: " + e.getMessage();
                spec.commandLine()
                        .getErr()
                        .println("pqsign: sensor: out of memory (" + e.getMessage()
                                + "); give the JVM more memory (-Xmx); the key state is intact");
                exit = CliException.FAILED;
            } finally {
                if (ticker != null) {
                    ticker.shutdownNow();
                }
                cleanup();
                ctrlC.finished(exit);
            }
        }
        return exit;
    }

    private ReadingHistory openHistory() {
        if (historyCount < 0) {
            throw CliException.usage("--history must be 0 (none) or positive, got " + historyCount);
        }
        if (historyAge < 1) {
            throw CliException.usage("--history-age must be positive, got " + historyAge);
        }
        if (historyBytes < MIN_HISTORY_BYTES || historyBytes > MAX_HISTORY_BYTES) {
            throw CliException.usage("--history-bytes must be " + MIN_HISTORY_BYTES + " ... " + MAX_HISTORY_BYTES
                    + ", got " + historyBytes);
        }
        if (historyCount == 0) {
            return null;
        }
        Path file = dataDir.resolve(HISTORY_FILE);
        try {
            Files.createDirectories(dataDir);
            return ReadingHistory.open(
                    file, historyCount, historyBytes, Duration.ofSeconds(historyAge), Clock.systemUTC());
        } catch (IOException e) {
            String m = PqsignCli.message(e);
            throw CliException.usage(m.startsWith(file.toString()) ? m : file + ": " + m);
        }
    }

    /** The history file under --data-dir. */
    static final String HISTORY_FILE = "history.pqhl";

    /** Slowest --rate: a reading every thousand seconds. */
    static final double MIN_RATE = 0.001;

    /** Fastest --rate: more readings a second than any signer here can sign. */
    static final double MAX_RATE = 100_000;

    /** Range of --history-bytes: 64 KiB (a few records) to 1 TiB. */
    static final long MIN_HISTORY_BYTES = 1L << 16;

    static final long MAX_HISTORY_BYTES = 1L << 40;

    /** Checks the source options before anything is opened. */
    private void checkSource() {
        if (UpstreamUri.isUpstream(source)) {
            upstream = UpstreamOptions.check(source, sourceSecurity, sourceCredentials, sourceTrust, rate, seed);
            return;
        }
        if (sourceCredentials != null || !sourceTrust.isEmpty() || !sourceSecurity.equalsIgnoreCase("none")) {
            throw CliException.usage(
                    "--source-security, --source-credentials and --source-trust apply to --source" + " opcua:... only");
        }
        String s = source.toLowerCase(Locale.ROOT);
        if (!s.equals("sim") && rate != null) {
            throw CliException.usage("--rate applies to --source sim only (lines are published as they arrive)");
        }
        if (s.equals("sim")) {
            // 0 is "as fast as possible"; a positive rate below one reading a day, or above what one
            // signer can sign, is a typo.
            if (rate != null && rate != 0 && (rate < MIN_RATE || rate > MAX_RATE)) {
                throw CliException.usage("--rate must be 0 (as fast as possible) or " + MIN_RATE + " ... " + MAX_RATE
                        + " readings per second, got " + rate);
            }
            return;
        }
        if (seed != null) {
            throw CliException.usage("--seed applies to --source sim only");
        }
        if (s.equals("stdin") || s.equals("-")) {
            return;
        }
        Path p = Path.of(source);
        if (!Files.exists(p) || Files.isDirectory(p)) {
            throw CliException.usage(
                    "--source: " + p + " does not exist or is a directory (use sim, stdin or a file / named pipe)");
        }
        if (!Files.isReadable(p)) {
            throw CliException.usage("--source: cannot read " + p);
        }
    }

    private ReadingSource openSource() {
        if (upstream != null) {
            PrintWriter err = spec.commandLine().getErr();
            UpstreamSource u = upstream.open(dataDir, name, line -> {
                synchronized (err) {
                    err.println("pqsign: sensor: " + line);
                    err.flush();
                }
            });
            if (upstream.secured()) {
                Path exported;
                try {
                    exported = TelemetrySupport.exportApplicationCertificate(
                            u.clientCertificate(), dataDir, "sensor-upstream-client.der");
                } catch (IOException e) {
                    throw CliException.usage("cannot export the upstream client certificate: " + e.getMessage());
                }
                out.printf("upstream client certificate (give to the upstream server's trust list): %s%n", exported);
                out.flush();
            }
            return u;
        }
        String s = source.toLowerCase(Locale.ROOT);
        if (s.equals("sim")) {
            double hz = rate == null ? 1.0 : rate;
            return new SimulatedSpeedSensor(1500, 5, hz, seed != null ? seed : System.nanoTime(), Clock.systemUTC());
        }
        if (s.equals("stdin") || s.equals("-")) {
            return new LineReadingSource(System.in);
        }
        Path p = Path.of(source);
        try {
            return LineReadingSource.open(p);
        } catch (IOException e) {
            throw CliException.usage("--source: cannot open " + p + ": " + e.getMessage());
        }
    }

    /**
     * Opens the source, as "waiting for the source": the open of a named pipe waits for its writer,
     * and no interrupt ends that wait, so a stop meanwhile is finished by the hook
     * ({@link #forceCleanup}). Returns false if a stop came first.
     */
    private boolean openSourceUnlessStopped() {
        synchronized (lock) {
            if (stopping) {
                endReason = "stopped";
                return false;
            }
            waitingForSource = true;
        }
        ReadingSource opened;
        try {
            opened = openSource();
        } finally {
            synchronized (lock) {
                waitingForSource = false;
            }
        }
        synchronized (this) {
            readingSource = opened;
        }
        synchronized (lock) {
            if (stopping) {
                endReason = "stopped";
                return false;
            }
        }
        return true;
    }

    private boolean stdin() {
        return source.equalsIgnoreCase("stdin") || source.equals("-");
    }

    /** Publishes until N readings, the end of the input, or a stop request. */
    private int loop() {
        while (readings == 0 || published < readings) {
            String reading;
            synchronized (lock) {
                if (stopping) {
                    endReason = "stopped";
                    return 0;
                }
                waitingForSource = true;
            }
            try {
                reading = readingSource.next();
            } catch (InterruptedException e) {
                reading = null;
            } catch (IOException e) {
                synchronized (lock) {
                    waitingForSource = false;
                    // a stop closed the source and interrupted us: the key's close must not see the interrupt
                    Thread.interrupted();
                    if (stopping) {
                        endReason = "stopped";
                        return 0;
                    }
                }
                endReason = "input failed";
                spec.commandLine()
                        .getErr()
                        .println("pqsign: sensor: cannot read --source " + source + ": " + e.getMessage());
                return CliException.USAGE;
            }
            synchronized (lock) {
                waitingForSource = false;
                Thread.interrupted(); // an interrupt meant for the wait must not reach the signer's file I/O
                if (stopping) {
                    endReason = "stopped";
                    return 0;
                }
            }
            if (reading == null) {
                endReason = "end of input";
                return 0;
            }
            try {
                SensorServer.Publication p = readingSource.sensorStatements() && UpstreamText.isUpstream(reading)
                        ? server.publishUpstream(UpstreamText.parse(reading))
                        : server.publish(reading);
                synchronized (this) {
                    published++;
                    lastIndex = p.reading().index();
                    signMsTotal += p.signNanos() / 1e6;
                }
                if (!summary) {
                    out.printf(
                            Locale.ROOT,
                            "index=%d sign=%.3fms gen=%d %s%n",
                            p.reading().index(),
                            p.signNanos() / 1e6,
                            server.keyGeneration(),
                            printable(reading));
                    out.flush();
                }
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("pqsign: sensor: skipped reading: " + e.getMessage());
            } catch (KeyExhaustedException | StatePersistenceException | IllegalStateException e) {
                endReason = "signing stopped";
                spec.commandLine().getErr().println("pqsign: sensor: " + e.getMessage());
                return CliException.FAILED;
            }
        }
        endReason = readings + " readings";
        return 0;
    }

    /** Ctrl-C: make the loop end; wake it if it is waiting for the next reading (never while signing). */
    private void requestStop() {
        synchronized (lock) {
            stopping = true;
            if (waitingForSource && mainThread != null) {
                mainThread.interrupt();
                // An interrupt does not end a read of a file or named pipe: closing its channel does
                // (the read ends with an IOException, which the loop takes as the stop). Standard
                // input stays open, as always; the hook cleans up around its read.
                ReadingSource waiting;
                synchronized (this) {
                    waiting = readingSource;
                }
                if (waiting instanceof LineReadingSource && !stdin()) {
                    try {
                        waiting.close();
                    } catch (IOException ignored) {
                        // the source is going away either way
                    }
                }
            }
        }
    }

    /**
     * From the hook, if the loop did not end (an uninterruptible read of stdin, or the open of a
     * named pipe without a writer): clean up here.
     */
    private boolean forceCleanup() {
        synchronized (lock) {
            if (!waitingForSource) {
                return false; // the loop is signing or already cleaning up; the hook keeps waiting for it
            }
        }
        endReason = "stopped";
        cleanup();
        return true;
    }

    /** Closes server, key and source (idempotent); prints the totals. */
    private synchronized void cleanup() {
        if (cleanedUp) {
            return;
        }
        cleanedUp = true;
        if (server != null) {
            server.close();
        }
        if (history != null) {
            try {
                history.close();
            } catch (IOException e) {
                spec.commandLine().getErr().println("pqsign: sensor: closing the history: " + e.getMessage());
            }
        }
        if (openKey != null) {
            try {
                openKey.close();
            } catch (IOException e) {
                spec.commandLine().getErr().println("pqsign: sensor: closing the key: " + e.getMessage());
            }
        }
        if (readingSource != null && !(readingSource instanceof LineReadingSource && stdin())) {
            try {
                readingSource.close();
            } catch (IOException ignored) {
                // input is finished either way
            }
        }
        if (upstream != null) {
            upstream.wipe(); // also when the source was never opened (the key or the port failed)
        }
        if (server != null) {
            String skipped = readingSource instanceof LineReadingSource
                    ? ", " + ((LineReadingSource) readingSource).skipped() + " input lines skipped"
                    : "";
            out.printf(
                    Locale.ROOT,
                    "sensor stopped (%s): %d readings published, last index %s, sign avg %.3f ms%s%n",
                    endReason,
                    published,
                    lastIndex < 0 ? "-" : Long.toString(lastIndex),
                    published == 0 ? 0.0 : signMsTotal / published,
                    skipped);
            out.flush();
        }
    }

    private synchronized void printSummary() {
        out.printf(
                Locale.ROOT,
                "%d readings published, last index %s, sign avg %.3f ms%n",
                published,
                lastIndex < 0 ? "-" : Long.toString(lastIndex),
                published == 0 ? 0.0 : signMsTotal / published);
        out.flush();
    }

    static String printable(String s) {
        return dev.pqsign.telemetry.ReadingText.printable(s);
    }
}
