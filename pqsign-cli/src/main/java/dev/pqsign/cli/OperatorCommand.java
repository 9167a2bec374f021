package dev.pqsign.cli;

import dev.pqsign.console.ConsoleOptions;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorEndpoint;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.operator.OperatorFailure;
import dev.pqsign.operator.OperatorRun;
import dev.pqsign.operator.OperatorSettings;
import dev.pqsign.operator.SensorTarget;
import dev.pqsign.telemetry.operator.OperatorPipeline;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign operator}: subscribes to one sensor ({@code --url}) or to every sensor of a
 * {@code --sensors} file, verifies every reading against the sensor's pinned key (replay state,
 * accepted records and evidence under {@code --data-dir}), backfills what it missed from the
 * sensors' histories, and prints one line per verdict (a live table on a terminal with
 * {@code --sensors}) and optionally JSON Lines. Exit 0 if nothing was rejected, missing or reused,
 * 1 otherwise, 2 for bad usage or input.
 */
@Command(
        name = "operator",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Run an operator console: subscribe to one sensor (--url) or several (--sensors FILE) and verify every reading",
            "against the sensor's pinned key; missed readings are fetched from the sensor's history or reported as GAP.",
            "Stops after --readings N or on Ctrl-C. Exit 0 nothing rejected, missing or reused; 1 otherwise; 2 usage / input error."
        })
final class OperatorCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--url",
            description = "Sensor endpoint, e.g. opc.tcp://127.0.0.1:4840/pqsign (what the sensor prints).")
    String url;

    @Option(names = "--host", description = "Sensor host (instead of --url; default 127.0.0.1).")
    String host;

    @Option(names = "--port", description = "Sensor port (instead of --url; default 4840).")
    Integer port;

    @Option(
            names = "--pub",
            description =
                    "Pin this public key file (RFC 8391 XMSS / XMSS^MT or HAETAE; a certificate needs --cert with --trust).")
    Path pub;

    @Option(
            names = "--params",
            description = "Parameter set of --pub, for a raw key or a type code shared by XMSS and XMSS^MT.")
    String params;

    @Option(
            names = "--cert",
            description = "Pin the key of this sensor certificate, after checking it against --trust.")
    Path cert;

    @Option(names = "--trust", description = "Trusted root certificate for --cert.")
    Path trust;

    @Option(
            names = "--data-dir",
            defaultValue = "pqsign-data/operator",
            description = "Replay state, application certificate and trust list (default ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--readings", defaultValue = "0", description = "Stop after N readings (default 0 = until Ctrl-C).")
    long readings;

    @Option(
            names = "--publishing-ms",
            defaultValue = "5",
            description =
                    "Requested publishing interval in ms (default ${DEFAULT-VALUE}; the sensor grants down to 1).")
    double publishingMs;

    @Option(
            names = "--security",
            defaultValue = "none",
            description = "Transport security: none or sign-encrypt (default ${DEFAULT-VALUE}).")
    String security;

    @Option(
            names = "--trust-server",
            arity = "1..*",
            description = "Sensor application certificate(s) to trust (sign-encrypt).")
    List<Path> trustServer = new ArrayList<>();

    @Option(
            names = "--connect-timeout",
            defaultValue = "10",
            description = "Seconds to keep trying to reach the sensor (default ${DEFAULT-VALUE}).")
    int connectTimeout;

    @Option(
            names = "--jsonl",
            paramLabel = "FILE",
            description =
                    "Also write one JSON object per verdict to FILE (appended), or - for standard output instead of the text lines.")
    String jsonl;

    @Option(
            names = "--http",
            paramLabel = "[HOST:]PORT",
            description = {
                "Serve the live console page, /metrics (Prometheus) and /healthz on PORT, bound to 127.0.0.1 unless",
                "HOST is given (e.g. 0.0.0.0:8080). Read-only; docs/console.md."
            })
    String http;

    @Option(
            names = "--warn-seconds",
            defaultValue = "600",
            paramLabel = "S",
            description =
                    "Warn when a sensor's key runs out within S seconds at its current rate and no next key is ready (default ${DEFAULT-VALUE}).")
    long warnSeconds;

    @Option(
            names = "--warn-remaining",
            defaultValue = "100",
            paramLabel = "N",
            description =
                    "Warn when a sensor's key has fewer than N signatures left and no next key is ready (default ${DEFAULT-VALUE}).")
    long warnRemaining;

    @Option(
            names = "--silent-after",
            defaultValue = "30",
            paramLabel = "S",
            description =
                    "Report a sensor that sent no reading for S seconds (SILENT line, console feed, pqsign_sensor_silent); 0 = never (default ${DEFAULT-VALUE}).")
    long silentAfter;

    @Option(
            names = "--queue-size",
            defaultValue = "10000",
            description =
                    "Readings the sensor may queue for this operator between two Publish responses (default ${DEFAULT-VALUE}, at most 65535); more are lost and reported as GAP.")
    int queueSize;

    @Option(
            names = "--remember",
            defaultValue = "1024",
            description =
                    "Accepted readings remembered per key to tell DUPLICATE from INDEX_REUSE (default ${DEFAULT-VALUE}).")
    int remember;

    @Option(
            names = "--sensors",
            paramLabel = "FILE",
            description =
                    "Watch every sensor listed in FILE (JSON: name, url, pub/params or cert/trust, security, trust_server) instead of --url.")
    Path sensorsFile;

    @Override
    public Integer call() throws InterruptedException {
        TelemetrySupport.quietLogging();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OperatorSettings settings;
        try {
            settings = settings();
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        OperatorRun run = new OperatorRun(settings, out, err);
        try (TelemetrySupport.CtrlC ctrlC = new TelemetrySupport.CtrlC(run::stop, () -> false)) {
            int exit = CliException.FAILED; // if an exception ends the run, Ctrl-C's hook must not wait
            try {
                exit = run.run();
            } catch (OperatorFailure e) {
                // Reported here, not by picocli's handler: after Ctrl-C the hook ends the JVM as soon
                // as finished() is called, before an exception would be printed.
                err.println("pqsign: " + e.getMessage());
                err.flush();
                exit = e.exitCode();
            } finally {
                ctrlC.finished(exit);
            }
            return exit;
        }
    }

    /** The run's settings from the options: every check that needs only the options is made here. */
    private OperatorSettings settings() {
        if (readings < 0) {
            throw CliException.usage("--readings must be 0 (no limit) or positive, got " + readings);
        }
        if (!(publishingMs > 0) || Double.isInfinite(publishingMs)) {
            throw CliException.usage("--publishing-ms must be positive, got " + publishingMs);
        }
        if (connectTimeout < 0) {
            throw CliException.usage("--connect-timeout must not be negative, got " + connectTimeout);
        }
        if (queueSize < 1 || queueSize > Operator.MAX_QUEUE_SIZE) {
            throw CliException.usage("--queue-size must be 1.." + Operator.MAX_QUEUE_SIZE + ", got " + queueSize);
        }
        if (silentAfter < 0 || silentAfter > 86_400) {
            throw CliException.usage("--silent-after must be 0..86400 seconds, got " + silentAfter);
        }
        if (remember < 1 || remember > 1 << 20) {
            throw CliException.usage("--remember must be 1..1048576, got " + remember);
        }
        ConsoleOptions console = null;
        if (http != null) {
            try {
                console = ConsoleOptions.parse(http);
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--http: " + e.getMessage());
            }
        }
        boolean jsonToStdout = "-".equals(jsonl);
        return OperatorSettings.builder(dataDir, targets())
                .named(sensorsFile != null)
                .publishingMs(publishingMs)
                .queueSize(queueSize)
                .remember(remember)
                .readings(readings)
                .connectTimeout(Duration.ofSeconds(connectTimeout))
                .jsonl(jsonl == null || jsonToStdout ? null : Path.of(jsonl))
                .jsonlToStandardOutput(jsonToStdout)
                .console(console)
                .warnSeconds(warnSeconds)
                .warnRemaining(warnRemaining)
                .liveTable(Terminal.isInteractive())
                .silentAfter(Duration.ofSeconds(silentAfter))
                .build();
    }

    /** The sensors to watch: from --sensors, or the one given by --url / --host / --port and --pub / --cert. */
    private List<SensorTarget> targets() {
        if (sensorsFile != null) {
            if (url != null
                    || host != null
                    || port != null
                    || pub != null
                    || cert != null
                    || params != null
                    || trust != null
                    || !trustServer.isEmpty()
                    || !security.equals("none")) {
                throw CliException.usage("--sensors takes every sensor's endpoint, key and security from the file;"
                        + " drop --url, --host, --port, --pub, --params, --cert, --trust, --security, --trust-server");
            }
            return SensorList.read(sensorsFile, dataDir.resolve(OperatorPipeline.CHAINS));
        }
        String endpoint = endpoint();
        TransportSecurity sec = TelemetrySupport.security(security);
        if (!trustServer.isEmpty() && sec == TransportSecurity.NONE) {
            throw CliException.usage("--trust-server needs --security sign-encrypt");
        }
        var serverCerts = trustServer.stream()
                .map(TelemetrySupport::applicationCertificate)
                .toList();
        TelemetryKeys.CertifiedKey key = pinnedKey();
        return List.of(
                new SensorTarget(endpoint, endpoint, key.key(), sec, serverCerts, key.deviceCa(), key.resumed()));
    }

    private String endpoint() {
        if (url != null && (host != null || port != null)) {
            throw CliException.usage("give either --url or --host/--port, not both");
        }
        if (url != null) {
            try {
                return SensorEndpoint.parse(url).url();
            } catch (IllegalArgumentException e) {
                throw CliException.usage("--url: " + e.getMessage());
            }
        }
        int p = port == null ? SensorEndpoint.DEFAULT_PORT : port;
        if (p < 1 || p > 65535) {
            throw CliException.usage("--port must be 1..65535, got " + p);
        }
        String h = host == null ? "127.0.0.1" : host;
        return "opc.tcp://" + (h.contains(":") && !h.startsWith("[") ? "[" + h + "]" : h) + ":" + p
                + dev.pqsign.opcua.SensorServer.PATH;
    }

    private TelemetryKeys.CertifiedKey pinnedKey() {
        if ((pub == null) == (cert == null)) {
            throw CliException.usage("give exactly one of --pub KEY or --cert CERT (with --trust ROOT)");
        }
        if (pub != null) {
            if (trust != null) {
                throw CliException.usage("--trust goes with --cert, not --pub");
            }
            return new TelemetryKeys.CertifiedKey(KeyFiles.publicKey(pub, params), null, null);
        }
        if (params != null) {
            throw CliException.usage("--params goes with --pub, not --cert");
        }
        if (trust == null) {
            throw CliException.usage(
                    "--cert needs --trust ROOT (the root certificate the sensor's certificate chains to)");
        }
        return TelemetryKeys.certifiedKey(cert, trust, dataDir.resolve(OperatorPipeline.CHAINS));
    }
}
