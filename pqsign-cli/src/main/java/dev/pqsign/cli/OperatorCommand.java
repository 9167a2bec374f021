package dev.pqsign.cli;

import dev.pqsign.console.ConsoleOptions;
import dev.pqsign.console.ConsoleServer;
import dev.pqsign.core.Hex;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.RecordSubscription;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.opcua.gateway.GatewayServer;
import dev.pqsign.telemetry.KeyStatusEvent;
import dev.pqsign.telemetry.LatencySeries;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import dev.pqsign.telemetry.VerdictJsonl;
import dev.pqsign.telemetry.operator.ConnectionState;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.OperatorPipeline;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.operator.SensorVerification;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
            names = "--serve",
            paramLabel = "[HOST:]PORT",
            description = {
                "Serve the verified readings as an OPC UA server (read-only) on PORT, bound to 127.0.0.1 unless HOST",
                "is given; prints 'serving opc.tcp://HOST:PORT/pqsign/gateway'. docs/gateway.md."
            })
    String serve;

    @Option(
            names = "--serve-security",
            arity = "1..*",
            paramLabel = "MODE",
            description =
                    "Endpoints of --serve: none, sign, sign-encrypt (Basic256Sha256), one or more (default none).")
    List<String> serveSecurity = new ArrayList<>();

    @Option(
            names = "--serve-trust-client",
            arity = "1..*",
            paramLabel = "CERT",
            description = "Client application certificate(s) the --serve endpoints trust (sign, sign-encrypt).")
    List<Path> serveTrustClient = new ArrayList<>();

    @Option(
            names = "--serve-history",
            defaultValue = "100000",
            paramLabel = "N",
            description =
                    "Accepted readings kept per sensor for HistoryRead of --serve (default ${DEFAULT-VALUE}; 0: none).")
    long serveHistory;

    @Option(
            names = "--serve-history-mib",
            defaultValue = "32",
            paramLabel = "M",
            description = "MiB of history kept per sensor for --serve (default ${DEFAULT-VALUE}).")
    long serveHistoryMib;

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

    private final CountDownLatch stop = new CountDownLatch(1);
    /** Per sensor, in the order given. */
    private final Map<String, SensorStats> stats = new LinkedHashMap<>();

    private final Map<String, SensorVerification> verifiers = new LinkedHashMap<>();
    private final Map<String, KeyStatusEvent.Kind> keyKinds = new HashMap<>();
    private final Map<KeyStatusEvent.Kind, Long> keyEvents = new EnumMap<>(KeyStatusEvent.Kind.class);
    /** The live console (--http), else null. */
    private ConsoleServer console;
    /** The OPC UA server of verified data (--serve), else null. */
    private GatewayServer gateway;

    private final LatencySeries verifyMs = new LatencySeries();
    private long seen;
    private PrintWriter out;
    private VerdictJsonl json;
    private boolean textLines = true;
    private boolean liveTable;
    private String outputError;

    /** What the summary and the live table show for one sensor. */
    private static final class SensorStats {
        final Map<Verdict.Reason, Long> counts = new EnumMap<>(Verdict.Reason.class);
        final LatencySeries endToEndMs = new LatencySeries();
        long readings;
        long missing;
        long lastIndex = -1;
        String lastReading = "-";
        double lastLatencyMs = Double.NaN;
        String state = "connecting";
        String url;
        boolean everConnected;
        boolean toldWaiting;

        SensorStats() {
            for (Verdict.Reason r : Verdict.Reason.values()) {
                counts.put(r, 0L);
            }
        }

        long alarms() {
            long n = 0;
            for (Map.Entry<Verdict.Reason, Long> e : counts.entrySet()) {
                if (e.getKey() != Verdict.Reason.ACCEPTED
                        && e.getKey() != Verdict.Reason.DUPLICATE
                        && e.getKey() != Verdict.Reason.HANDOVER
                        && e.getKey() != Verdict.Reason.SKIPPED) {
                    n += e.getValue();
                }
            }
            return n;
        }
    }

    @Override
    // The operator is closed before the summary, so no verdict arrives while it is printed; the
    // try-with-resources closes it once more, which does nothing.
    @SuppressWarnings("try")
    public Integer call() throws IOException, InterruptedException {
        TelemetrySupport.quietLogging();
        out = spec.commandLine().getOut();
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
        if (remember < 1 || remember > 1 << 20) {
            throw CliException.usage("--remember must be 1..1048576, got " + remember);
        }
        List<SensorList.Target> targets = targets();
        for (SensorList.Target t : targets) {
            SensorStats st = new SensorStats();
            st.url = t.url();
            stats.put(t.name(), st);
        }
        TransportSecurity sec = TelemetrySupport.security(security);

        try (VerdictJsonl stream = openJsonl();
                OperatorPipeline pipeline = openPipeline();
                Operator operator = newOperator(sec, targets.get(0), pipeline)) {
            json = stream;
            liveTable = textLines && sensorsFile != null && Terminal.isInteractive();
            operator.onConnectionChange(this::connectionChanged);
            boolean secure = false;
            for (SensorList.Target t : targets) {
                t.serverCertificates().forEach(operator::trustServer);
                secure |= t.security() != TransportSecurity.NONE;
                verifierFor(t, pipeline);
                if (textLines) {
                    out.printf(
                            "operator: %spinned %s key %s%n",
                            sensorsFile == null ? "" : t.name() + ": ",
                            t.pinned().parameterSet().setName(),
                            TelemetryKeys.trusted(t.pinned()).id().hex());
                }
            }
            for (ReplayGuard.RebuiltMark m : pipeline.rebuiltMarks()) {
                info().printf(
                                "operator: replay mark of key %s… rebuilt at %d from %s (%s held %d: lost or older)%n",
                                m.key().hex().substring(0, 16),
                                m.floor(),
                                dataDir,
                                pipeline.markFile().getFileName(),
                                m.stored());
            }
            if (secure) {
                Path exported = TelemetrySupport.exportApplicationCertificate(
                        operator.applicationCertificate(), dataDir, "operator-application.der");
                info().printf("application certificate (give to the sensor's --trust-client): %s%n", exported);
            }
            out.flush();
            reportUnreported(targets);
            ScheduledExecutorService ticker = null;
            try (TelemetrySupport.CtrlC ctrlC = new TelemetrySupport.CtrlC(stop::countDown, () -> false)) {
                int exit = CliException.FAILED; // if an exception ends the run, Ctrl-C's hook must not wait
                boolean summarized = false;
                try {
                    try {
                        connectAll(operator, targets);
                    } catch (CliException e) {
                        // Report here, not from picocli's handler: after Ctrl-C the hook ends the JVM
                        // as soon as finished() is called below, before the exception would be printed.
                        PrintWriter err = spec.commandLine().getErr();
                        err.println("pqsign: " + e.getMessage());
                        err.flush();
                        exit = e.exitCode;
                        return exit;
                    }
                    if (liveTable) {
                        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                            Thread th = new Thread(r, "pqsign-operator-table");
                            th.setDaemon(true);
                            return th;
                        });
                        // runs until ticker.shutdownNow() below; printTable does not throw
                        var unused = ticker.scheduleAtFixedRate(this::printTable, 0, 1, TimeUnit.SECONDS);
                    }
                    stop.await();
                    if (ticker != null) {
                        ticker.shutdownNow();
                    }
                    exit = summary();
                    summarized = true;
                } finally {
                    if (ticker != null) {
                        ticker.shutdownNow();
                    }
                    operator.close();
                    if (console != null) {
                        console.close();
                    }
                    if (gateway != null) {
                        gateway.close();
                    }
                    if (!summarized && seen > 0) {
                        summary(); // ended by an error after some readings: the totals still count
                    }
                    ctrlC.finished(exit);
                }
                return exit;
            }
        }
    }

    /** The sensors to watch: from --sensors, or the one given by --url / --host / --port and --pub / --cert. */
    private List<SensorList.Target> targets() {
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
                new SensorList.Target(endpoint, endpoint, key.key(), sec, serverCerts, key.deviceCa(), key.resumed()));
    }

    /** The data directory's replay marks, accepted records, chains and evidence; one line naming what is damaged. */
    private OperatorPipeline openPipeline() {
        try {
            return OperatorPipeline.builder(dataDir).remember(remember).open();
        } catch (IOException e) {
            throw CliException.usage("--data-dir " + dataDir + ": " + e.getMessage());
        }
    }

    /** One verification per sensor (its own pinned key), all sharing the data directory. */
    private SensorVerification verifierFor(SensorList.Target t, OperatorPipeline pipeline) {
        SensorVerification v = verifiers.get(t.name());
        if (v == null) {
            try {
                v = pipeline.sensor(t.name(), t.pinned(), t.deviceCa());
            } catch (IOException e) {
                throw CliException.usage("--data-dir " + dataDir + ": " + e.getMessage());
            }
            verifiers.put(t.name(), v);
            KeyChain chain =
                    pipeline.chains().chain(KeyChain.startingAt(t.pinned()).chainId());
            if (t.resumed() != null) {
                // One line wherever status lines go: the operator trusts a first chain that is not valid now.
                info().printf(
                                "operator: %s%s; resuming its followed key chain at generation %d%n",
                                sensorsFile == null ? "" : t.name() + ": ",
                                t.resumed(),
                                chain.current().generation());
            }
            if (chain.current().generation() > 0 && textLines) {
                out.printf(
                        "operator: %s follows its key chain at generation %d%n",
                        t.name(), chain.current().generation());
            }
        }
        return v;
    }

    /**
     * Readings accepted by an earlier run that was killed before it wrote their verdicts: written
     * now (as ACCEPTED, marked as recovered), so every accepted index is reported once.
     */
    private void reportUnreported(List<SensorList.Target> targets) throws IOException {
        for (SensorList.Target t : targets) {
            SensorVerification v = verifiers.get(t.name());
            for (SignedRecord r : v.verifier().acceptedUnreported()) {
                observe(new Observation(
                        t.name(),
                        r.sequence(),
                        new Verdict(
                                Verdict.Reason.ACCEPTED,
                                r.index(),
                                "accepted before the operator stopped; reported now"),
                        r.reading(),
                        null,
                        r,
                        Instant.now(),
                        null));
            }
        }
    }

    private String endpoint() {
        if (url != null && (host != null || port != null)) {
            throw CliException.usage("give either --url or --host/--port, not both");
        }
        if (url != null) {
            if (!url.startsWith("opc.tcp://")) {
                throw CliException.usage("--url must start with opc.tcp://, got '" + url + "'");
            }
            return url;
        }
        int p = port == null ? 4840 : port;
        if (p < 1 || p > 65535) {
            throw CliException.usage("--port must be 1..65535, got " + p);
        }
        String h = host == null ? "127.0.0.1" : host;
        return "opc.tcp://" + (h.contains(":") && !h.startsWith("[") ? "[" + h + "]" : h) + ":" + p
                + dev.pqsign.opcua.SensorServer.PATH;
    }

    /**
     * The operator: every sensor's pinned key starts a key chain (resumed from the data directory
     * after a restart), so the operator follows the sensors' key handovers without reconfiguration.
     */
    private Operator newOperator(TransportSecurity sec, SensorList.Target first, OperatorPipeline pipeline)
            throws IOException {
        verifierFor(first, pipeline);
        Operator operator = new Operator(new Operator.Config(dataDir, sec, publishingMs, queueSize), this::observe);
        operator.watchKeyState(Duration.ofSeconds(2), this::keyState);
        if (http != null) {
            ConsoleOptions opts;
            try {
                opts = ConsoleOptions.parse(http);
            } catch (IllegalArgumentException e) {
                operator.close();
                throw CliException.usage("--http: " + e.getMessage());
            }
            try {
                console = ConsoleServer.start(opts);
            } catch (IOException e) {
                operator.close();
                throw CliException.usage("--http " + http + ": " + e.getMessage());
            }
            info().printf("console: %s (metrics: %smetrics)%n", console.uri(), console.uri());
        }
        if (serve != null) {
            try {
                gateway = GatewayCli.start(this);
            } catch (CliException e) {
                operator.close();
                if (console != null) {
                    console.close();
                }
                throw e;
            }
        }
        return operator;
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

    /**
     * Starts watching every sensor at once; each keeps trying by itself. Waits up to
     * {@code --connect-timeout} for them: with one sensor ({@code --url}) one that never answered
     * ends the run (exit 1); with {@code --sensors} each one still unreachable is reported and
     * the others run on.
     */
    private void connectAll(Operator operator, List<SensorList.Target> targets) throws InterruptedException {
        List<RecordSubscription> started = new ArrayList<>();
        for (SensorList.Target t : targets) {
            try {
                started.add(operator.watch(t.name(), t.url(), t.security(), verifiers.get(t.name())));
            } catch (IllegalArgumentException e) {
                throw CliException.usage(
                        (sensorsFile == null ? "--url: " : sensorsFile + ": " + t.name() + ": ") + e.getMessage());
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(connectTimeout);
        for (RecordSubscription s : started) {
            while (!s.connected() && System.nanoTime() < deadline) {
                if (stop.await(50, TimeUnit.MILLISECONDS)) {
                    throw new CliException(
                            CliException.FAILED,
                            "stopped before the sensor answered: " + s.state().detail());
                }
            }
            if (!s.connected() && sensorsFile == null) {
                throw new CliException(
                        CliException.FAILED,
                        "cannot reach the sensor at " + s.name() + " within " + connectTimeout + " s: "
                                + s.state().detail());
            }
        }
    }

    /** Prints and records each change of a sensor's connection (not the repeats of a status). */
    private void connectionChanged(ConnectionState state) {
        synchronized (this) {
            SensorStats st = stats.get(state.sensor());
            if (st == null) {
                return;
            }
            boolean first = state.connected() && !st.everConnected;
            st.state = state.status().label();
            if (gateway != null) {
                gateway.connectionChanged(state);
            }
            if (console != null) {
                console.connectionState(state.sensor(), state.status().label());
            }
            if (liveTable) {
                st.everConnected |= state.connected();
                return;
            }
            PrintWriter w = info();
            switch (state.status()) {
                case CONNECTED -> {
                    w.printf("CONNECTED %s%n", state.sensor());
                    if (first) {
                        w.printf("subscribed to %s%n", targetUrl(state.sensor()));
                    }
                    st.everConnected = true;
                }
                case RECONNECTING -> w.printf("DISCONNECTED %s%n", state.sensor());
                case DOWN -> {
                    if (!st.everConnected && !st.toldWaiting) {
                        w.printf("waiting for the sensor at %s ...%n", targetUrl(state.sensor()));
                        st.toldWaiting = true;
                    }
                    w.printf("DOWN %s: %s (retrying)%n", state.sensor(), SensorCommand.printable(state.detail()));
                }
                default -> {
                    // CONNECTING and CLOSED are not news
                }
            }
            w.flush();
        }
    }

    private String targetUrl(String sensor) {
        SensorStats st = stats.get(sensor);
        return st == null || st.url == null ? sensor : st.url;
    }

    /** The sensors' names, in the order given. */
    List<String> sensorNames() {
        return List.copyOf(stats.keySet());
    }

    /** Where status lines go: standard output, or standard error when standard output carries JSON. */
    PrintWriter info() {
        return textLines ? out : spec.commandLine().getErr();
    }

    /** Opens the --jsonl stream (null without the option); {@code -} replaces the text lines on standard output. */
    private VerdictJsonl openJsonl() {
        if (jsonl == null) {
            return null;
        }
        if (jsonl.equals("-")) {
            textLines = false;
            return new VerdictJsonl(out, false);
        }
        Path file = Path.of(jsonl);
        try {
            return new VerdictJsonl(
                    new BufferedOutputStream(Files.newOutputStream(
                            file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE)),
                    true);
        } catch (IOException e) {
            throw CliException.usage("--jsonl: cannot open " + file + ": " + e.getMessage());
        }
    }

    /** Reports changes of a sensor's key state: warnings, alarms, and the return to normal. */
    private void keyState(Operator.KeyState k) {
        if (gateway != null) {
            gateway.keyState(k);
        }
        if (console != null) {
            console.keyStatus(
                    k.sensor(),
                    k.parameterSet(),
                    k.keyIdHex(),
                    k.remaining(),
                    Double.isNaN(k.secondsLeft()) ? null : k.secondsLeft(),
                    k.nextKeyReady());
        }
        KeyStatusEvent e = KeyStatusEvent.classify(
                k.sensor(),
                k.generation(),
                k.remaining(),
                k.secondsLeft(),
                k.nextKeyReady(),
                k.alarm(),
                warnRemaining,
                (double) warnSeconds,
                Instant.now());
        synchronized (this) {
            KeyStatusEvent.Kind before = keyKinds.put(k.sensor(), e.kind());
            if (before == e.kind() || (before == null && e.kind() == KeyStatusEvent.Kind.KEY_OK)) {
                return;
            }
            keyEvents.merge(e.kind(), 1L, Long::sum);
            if (console != null && e.kind() == KeyStatusEvent.Kind.KEY_ALARM) {
                console.alarm(k.sensor(), e.detail());
            }
            if (json != null) {
                try {
                    json.write(e);
                } catch (IOException ex) {
                    outputError = "--jsonl: cannot write " + jsonl + ": " + ex.getMessage();
                    stop.countDown();
                    return;
                }
            }
            if (textLines) {
                out.printf("%s %s: %s%n", e.kind(), k.sensor(), SensorCommand.printable(e.detail()));
                out.flush();
            }
        }
    }

    private void observe(Observation o) {
        synchronized (this) {
            if (stop.getCount() == 0 || (readings > 0 && seen >= readings)) {
                return;
            }
            if (gateway != null) {
                gateway.observe(
                        o); // before the reading is marked reported: a kill in between repeats it, never loses it
            }
            SensorStats st = stats.get(o.sensor());
            Verdict v = o.verdict();
            st.counts.merge(v.reason(), 1L, Long::sum);
            VerdictEvent event = o.event();
            if (console != null) {
                if (o.handover() != null && o.gap() == null && o.handover().outcome() == HandoverOutcome.FOLLOWED) {
                    console.handover(
                            o.sensor(),
                            o.handover().generation(),
                            Hex.encode(o.handover().handover().statement().newKeyId()));
                } else if (o.handover() != null
                        && o.gap() == null
                        && o.handover().outcome().isAlarm()) {
                    console.alarm(o.sensor(), o.verdict().detail());
                } else if (o.handover() == null || o.gap() != null) {
                    console.verdict(event, o.latency());
                }
            }
            if (json != null) {
                try {
                    json.write(event);
                } catch (IOException e) {
                    // Every verdict must reach its consumer: a stream that cannot be written ends the run.
                    outputError = "--jsonl: cannot write " + jsonl + ": " + e.getMessage();
                    stop.countDown();
                    return;
                }
                // The JSON line is the record consumers rely on: mark the reading reported right after
                // it, before anything else, so a kill after the line leaves the least chance of the
                // verdict being written once more after a restart.
                markReported(o);
            }
            if (o.handover() != null && o.gap() == null) {
                if (textLines) {
                    out.printf("HANDOVER %s %s%n", o.handover().outcome(), SensorCommand.printable(v.detail()));
                    out.flush();
                }
                return;
            }
            if (o.gap() != null && v.reason() == Verdict.Reason.SKIPPED) {
                if (textLines && !liveTable) {
                    out.printf(
                            "%sSKIPPED from=%d to=%d (burned by the sensor without publishing)%n",
                            prefix(o), o.gap().from(), o.gap().to());
                    out.flush();
                }
                return;
            }
            if (o.gap() != null) {
                st.missing += o.gap().size();
                if (textLines && !liveTable) {
                    out.printf(
                            "%sGAP from=%d to=%d missing=%d%n",
                            prefix(o), o.gap().from(), o.gap().to(), o.gap().size());
                    out.flush();
                }
                return;
            }
            seen++;
            st.readings++;
            String e2e = "-";
            String verify = "-";
            if (o.latency() != null) {
                verifyMs.add(o.latency().verifyNanos());
                verify = Milliseconds.threeDecimals(o.latency().verifyNanos()) + "ms";
            }
            Long wall = event.wallLatencyNanos();
            if (wall != null && v.accepted() && o.latency() != null) {
                st.endToEndMs.add(wall);
                st.lastLatencyMs = wall / 1e6;
                e2e = Milliseconds.threeDecimals(wall) + "ms";
            }
            if (v.accepted() && o.reading() != null) {
                st.lastIndex = v.index();
                st.lastReading = SensorCommand.printable(o.reading().reading());
            }
            if (textLines && !liveTable) {
                String word =
                        event.verdictWord().equals("REJECTED") ? "REJECTED(" + v.reason() + ")" : event.verdictWord();
                String text = v.accepted() && o.reading() != null ? o.reading().reading() : v.detail();
                // Appended, not printf: one verdict line per reading, and a format string is parsed per call.
                out.append(prefix(o))
                        .append(word)
                        .append(" index=")
                        .append(Long.toString(v.index()))
                        .append(" verify=")
                        .append(verify)
                        .append(" e2e=")
                        .append(e2e)
                        .append(' ')
                        .append(SensorCommand.printable(text))
                        .append(System.lineSeparator());
                out.flush();
                if (out.checkError()) {
                    outputError = "cannot write the verdict lines to standard output";
                    stop.countDown();
                    return;
                }
            }
            if (json == null) {
                markReported(o);
            }
            if (readings > 0 && seen >= readings) {
                stop.countDown();
            }
        }
    }

    /** Notes that an accepted reading's verdict was written out (not offered again after a restart). */
    private void markReported(Observation o) {
        if (o.verdict().accepted() && o.record() != null && o.handover() == null && o.gap() == null) {
            try {
                verifiers.get(o.sensor()).verifier().reported(o.record());
            } catch (IOException e) {
                // only means the verdict may be written once more after a restart
            }
        }
    }

    /** With several sensors every line starts with the sensor's name. */
    private String prefix(Observation o) {
        return sensorsFile == null ? "" : o.sensor() + " ";
    }

    /** The live table on a terminal: one row per sensor, redrawn every second. */
    private synchronized void printTable() {
        StringBuilder sb = new StringBuilder("\033[H\033[2J");
        sb.append(String.format(
                Locale.ROOT,
                "%-20s %-12s %10s %9s %9s %7s %6s %11s  %s%n",
                "sensor",
                "state",
                "index",
                "accepted",
                "rejected",
                "gaps",
                "dups",
                "latency ms",
                "latest value"));
        for (Map.Entry<String, SensorStats> e : stats.entrySet()) {
            SensorStats st = e.getValue();
            long rejected = st.alarms() - st.counts.get(Verdict.Reason.GAP);
            sb.append(String.format(
                    Locale.ROOT,
                    "%-20s %-12s %10s %9d %9d %7d %6d %11s  %s%n",
                    e.getKey(),
                    st.state,
                    st.lastIndex < 0 ? "-" : Long.toString(st.lastIndex),
                    st.counts.get(Verdict.Reason.ACCEPTED),
                    rejected,
                    st.missing,
                    st.counts.get(Verdict.Reason.DUPLICATE),
                    Double.isNaN(st.lastLatencyMs) ? "-" : String.format(Locale.ROOT, "%.1f", st.lastLatencyMs),
                    st.lastReading));
        }
        out.print(sb);
        out.flush();
    }

    /**
     * Prints the totals (to standard error when standard output carries the JSON stream) and returns
     * the exit code: 1 if anything was rejected, missing or reused (duplicates do not count), 0 otherwise.
     */
    private synchronized int summary() {
        long alarms = 0;
        PrintWriter target = textLines ? out : spec.commandLine().getErr();
        for (Map.Entry<String, SensorStats> e : stats.entrySet()) {
            SensorStats st = e.getValue();
            alarms += st.alarms();
            StringBuilder sb = new StringBuilder();
            sb.append(sensorsFile == null ? "summary: " : "summary " + e.getKey() + ": ");
            sb.append(st.readings).append(" readings");
            for (Map.Entry<Verdict.Reason, Long> c : st.counts.entrySet()) {
                sb.append(", ").append(c.getKey()).append(' ').append(c.getValue());
            }
            sb.append(" (").append(st.missing).append(" missing)");
            if (st.endToEndMs.count() > 0) {
                var t = st.endToEndMs.summary();
                sb.append(String.format(
                        Locale.ROOT,
                        "; e2e (wall clocks) p50 %.3f ms p99 %.3f ms max %.3f ms",
                        t.p50(),
                        t.p99(),
                        t.max()));
            }
            if (sensorsFile == null) {
                if (verifyMs.count() > 0) {
                    sb.append(String.format(
                            Locale.ROOT,
                            "; verify p50 %.3f ms",
                            verifyMs.summary().p50()));
                }
                sb.append("; sensor ").append(e.getKey());
            }
            target.println(sb);
        }
        if (!keyEvents.isEmpty()) {
            long keyAlarms = keyEvents.getOrDefault(KeyStatusEvent.Kind.KEY_ALARM, 0L);
            target.printf(
                    "keys: %d warnings, %d alarms (a sensor could not prepare its next key)%n",
                    keyEvents.getOrDefault(KeyStatusEvent.Kind.KEY_WARNING, 0L), keyAlarms);
            alarms += keyAlarms;
        }
        target.flush();
        if (outputError != null) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("pqsign: " + outputError);
            err.flush();
            return CliException.FAILED;
        }
        return alarms > 0 ? CliException.FAILED : 0;
    }
}
