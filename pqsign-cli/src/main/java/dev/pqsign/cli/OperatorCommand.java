package dev.pqsign.cli;

import dev.pqsign.console.ConsoleOptions;
import dev.pqsign.console.ConsoleServer;
import dev.pqsign.core.Hex;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.AcceptedRecords;
import dev.pqsign.telemetry.KeyChainFollower;
import dev.pqsign.telemetry.KeyStatusEvent;
import dev.pqsign.telemetry.LatencySeries;
import dev.pqsign.telemetry.ReadingVerifier;
import dev.pqsign.telemetry.ReplayGuard;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import dev.pqsign.telemetry.VerdictJsonl;
import dev.pqsign.x509.PqPublicKey;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign operator}: subscribes to one sensor, verifies every reading against a pinned key
 * (replay state persisted under {@code --data-dir}) and prints one line per verdict. Exit 0 if every
 * reading was accepted, 1 if any was rejected, 2 for bad usage or input.
 */
@Command(name = "operator", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, description = {
    "Run an operator console: subscribe to a sensor and verify every reading against a pinned key.",
    "Stops after --readings N or on Ctrl-C. Exit 0 all accepted, 1 any rejected, 2 usage / input error."})
final class OperatorCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", description = "Sensor endpoint, e.g. opc.tcp://127.0.0.1:4840/pqsign (what the sensor prints).")
    String url;

    @Option(names = "--host", description = "Sensor host (instead of --url; default 127.0.0.1).")
    String host;

    @Option(names = "--port", description = "Sensor port (instead of --url; default 4840).")
    Integer port;

    @Option(names = "--pub", description = "Pin this public key file (RFC 8391 XMSS / XMSS^MT or HAETAE; a certificate needs --cert with --trust).")
    Path pub;

    @Option(names = "--params", description = "Parameter set of --pub, for a raw key or a type code shared by XMSS and XMSS^MT.")
    String params;

    @Option(names = "--cert", description = "Pin the key of this sensor certificate, after checking it against --trust.")
    Path cert;

    @Option(names = "--trust", description = "Trusted root certificate for --cert.")
    Path trust;

    @Option(names = "--data-dir", defaultValue = "pqsign-data/operator", description = "Replay state, application certificate and trust list (default ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--readings", defaultValue = "0", description = "Stop after N readings (default 0 = until Ctrl-C).")
    long readings;

    @Option(names = "--publishing-ms", defaultValue = "5", description = "Requested publishing interval in ms (default ${DEFAULT-VALUE}; the sensor grants down to 1).")
    double publishingMs;

    @Option(names = "--security", defaultValue = "none", description = "Transport security: none or sign-encrypt (default ${DEFAULT-VALUE}).")
    String security;

    @Option(names = "--trust-server", arity = "1..*", description = "Sensor application certificate(s) to trust (sign-encrypt).")
    List<Path> trustServer = new ArrayList<>();

    @Option(names = "--connect-timeout", defaultValue = "10", description = "Seconds to keep trying to reach the sensor (default ${DEFAULT-VALUE}).")
    int connectTimeout;

    @Option(names = "--jsonl", paramLabel = "FILE", description = "Also write one JSON object per verdict to FILE (appended), or - for standard output instead of the text lines.")
    String jsonl;

    @Option(names = "--http", paramLabel = "[HOST:]PORT", description = {
            "Serve the live console page, /metrics (Prometheus) and /healthz on PORT, bound to 127.0.0.1 unless",
            "HOST is given (e.g. 0.0.0.0:8080). Read-only; docs/console.md."})
    String http;

    @Option(names = "--warn-seconds", defaultValue = "600", paramLabel = "S", description = "Warn when a sensor's key runs out within S seconds at its current rate and no next key is ready (default ${DEFAULT-VALUE}).")
    long warnSeconds;

    @Option(names = "--warn-remaining", defaultValue = "100", paramLabel = "N", description = "Warn when a sensor's key has fewer than N signatures left and no next key is ready (default ${DEFAULT-VALUE}).")
    long warnRemaining;

    @Option(names = "--queue-size", defaultValue = "10000", description = "Readings the sensor may queue for this operator between two Publish responses (default ${DEFAULT-VALUE}, at most 65535); more are lost and reported as GAP.")
    int queueSize;

    @Option(names = "--remember", defaultValue = "1024", description = "Accepted readings remembered per key to tell DUPLICATE from INDEX_REUSE (default ${DEFAULT-VALUE}).")
    int remember;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final Map<Verdict.Reason, Long> counts = new EnumMap<>(Verdict.Reason.class);
    private final Map<String, KeyStatusEvent.Kind> keyKinds = new HashMap<>();
    /** The live console (--http), else null. */
    private ConsoleServer console;
    private final Map<KeyStatusEvent.Kind, Long> keyEvents = new EnumMap<>(KeyStatusEvent.Kind.class);
    private final LatencySeries verifyMs = new LatencySeries();
    private final LatencySeries endToEndMs = new LatencySeries();
    private long seen;
    private long missing;
    private PrintWriter out;
    private VerdictJsonl json;
    private boolean textLines = true;
    private String outputError;
    private String sensorName;

    @Override
    public Integer call() throws IOException, InterruptedException {
        TelemetrySupport.quietLogging();
        out = spec.commandLine().getOut();
        String endpoint = endpoint();
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
        sensorName = endpoint;
        TransportSecurity sec = TelemetrySupport.security(security);
        if (!trustServer.isEmpty() && sec == TransportSecurity.NONE) {
            throw CliException.usage("--trust-server needs --security sign-encrypt");
        }
        var serverCerts = trustServer.stream().map(TelemetrySupport::applicationCertificate).toList();
        PqPublicKey pinned = pinnedKey();
        ReadingVerifier.TrustedKey trusted = TelemetryKeys.trusted(pinned);
        for (Verdict.Reason r : Verdict.Reason.values()) {
            counts.put(r, 0L);
        }

        try (VerdictJsonl stream = openJsonl();
                ReplayGuard guard = ReplayGuard.inDirectory(dataDir.resolve("replay"));
                AcceptedRecords accepted = AcceptedRecords.inDirectory(dataDir.resolve("accepted"), remember);
                Operator operator = newOperator(sec, guard, accepted, trusted, pinned)) {
            json = stream;
            serverCerts.forEach(operator::trustServer);
            if (textLines) {
                out.printf("operator: pinned %s key %s%n", pinned.parameterSet().setName(), trusted.id().hex());
            }
            if (sec != TransportSecurity.NONE) {
                Path exported = TelemetrySupport.exportApplicationCertificate(operator.applicationCertificate(), dataDir,
                        "operator-application.der");
                info().printf("application certificate (give to the sensor's --trust-client): %s%n", exported);
            }
            out.flush();
            try (TelemetrySupport.CtrlC ctrlC = new TelemetrySupport.CtrlC(stop::countDown, () -> false)) {
                int exit = CliException.FAILED; // if an exception ends the run, Ctrl-C's hook must not wait
                boolean summarized = false;
                try {
                    try {
                        connect(operator, endpoint);
                    } catch (CliException e) {
                        // Report here, not from picocli's handler: after Ctrl-C the hook ends the JVM
                        // as soon as finished() is called below, before the exception would be printed.
                        PrintWriter err = spec.commandLine().getErr();
                        err.println("pqsign: " + e.getMessage());
                        err.flush();
                        exit = e.exitCode;
                        return exit;
                    }
                    stop.await();
                    exit = summary();
                    summarized = true;
                } finally {
                    operator.close();
                    if (console != null) {
                        console.close();
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
     * The operator: the pinned key starts a key chain (resumed from the data directory after a
     * restart), so the operator follows the sensor's key handovers without reconfiguration.
     */
    private Operator newOperator(TransportSecurity sec, ReplayGuard guard, AcceptedRecords accepted,
            ReadingVerifier.TrustedKey trusted, PqPublicKey pinned) throws IOException {
        ReadingVerifier verifier = new ReadingVerifier(guard, List.of(trusted), accepted, dataDir.resolve("evidence"));
        KeyChainFollower chains = new KeyChainFollower(dataDir.resolve("chains"), verifier);
        KeyChain chain = chains.follow(pinned);
        if (chain.current().generation() > 0 && textLines) {
            out.printf("operator: following the sensor's key chain at generation %d%n", chain.current().generation());
        }
        Operator operator = new Operator(new Operator.Config(dataDir, sec, publishingMs, queueSize), verifier, chains,
                this::observe);
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
        operator.watchKeyState(Duration.ofSeconds(2), this::keyState);
        return operator;
    }

    private PqPublicKey pinnedKey() {
        if ((pub == null) == (cert == null)) {
            throw CliException.usage("give exactly one of --pub KEY or --cert CERT (with --trust ROOT)");
        }
        if (pub != null) {
            if (trust != null) {
                throw CliException.usage("--trust goes with --cert, not --pub");
            }
            return KeyFiles.publicKey(pub, params);
        }
        if (params != null) {
            throw CliException.usage("--params goes with --pub, not --cert");
        }
        if (trust == null) {
            throw CliException.usage("--cert needs --trust ROOT (the root certificate the sensor's certificate chains to)");
        }
        return TelemetryKeys.certifiedKey(cert, trust);
    }

    /** Tries until the sensor answers or the timeout passes (a sensor may still be starting). */
    private void connect(Operator operator, String endpoint) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(connectTimeout);
        boolean told = false;
        while (true) {
            try {
                operator.connect("sensor", endpoint);
                info().printf("subscribed to %s%n", endpoint);
                info().flush();
                return;
            } catch (IOException e) {
                if (stop.getCount() == 0) {
                    throw new CliException(CliException.FAILED, "stopped before the sensor answered: " + e.getMessage(), e);
                }
                if (System.nanoTime() >= deadline) {
                    throw new CliException(CliException.FAILED, e.getMessage(), e);
                }
                if (!told) {
                    info().printf("waiting for the sensor at %s ...%n", endpoint);
                    info().flush();
                    told = true;
                }
                if (stop.await(500, TimeUnit.MILLISECONDS)) {
                    throw new CliException(CliException.FAILED, "stopped before the sensor answered: " + e.getMessage(), e);
                }
            }
        }
    }

    /** Where status lines go: standard output, or standard error when standard output carries JSON. */
    private PrintWriter info() {
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
            return new VerdictJsonl(new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE)), true);
        } catch (IOException e) {
            throw CliException.usage("--jsonl: cannot open " + file + ": " + e.getMessage());
        }
    }

    /** Reports changes of a sensor's key state: warnings, alarms, and the return to normal. */
    private void keyState(Operator.KeyState k) {
        if (console != null) {
            console.keyStatus(k.sensor(), k.parameterSet(), k.keyIdHex(), k.remaining(),
                    Double.isNaN(k.secondsLeft()) ? null : k.secondsLeft(), k.nextKeyReady());
        }
        KeyStatusEvent e = KeyStatusEvent.classify(k.sensor(), k.generation(), k.remaining(), k.secondsLeft(),
                k.nextKeyReady(), k.alarm(), warnRemaining, warnSeconds, Instant.now());
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

    private void observe(Operator.Observation o) {
        synchronized (this) {
            if (stop.getCount() == 0 || (readings > 0 && seen >= readings)) {
                return;
            }
            Verdict v = o.verdict();
            counts.merge(v.reason(), 1L, Long::sum);
            VerdictEvent event = o.event();
            if (console != null) {
                if (o.handover() != null && o.gap() == null && o.handover().outcome() == HandoverOutcome.FOLLOWED) {
                    console.handover(o.sensor(), o.handover().generation(),
                            Hex.encode(o.handover().handover().statement().newKeyId()));
                } else if (o.handover() != null && o.gap() == null && o.handover().outcome().isAlarm()) {
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
            }
            if (o.handover() != null && o.gap() == null) {
                if (textLines) {
                    out.printf("HANDOVER %s %s%n", o.handover().outcome(), SensorCommand.printable(v.detail()));
                    out.flush();
                }
                return;
            }
            if (o.gap() != null) {
                missing += o.gap().size();
                if (textLines) {
                    out.printf("GAP from=%d to=%d missing=%d%n", o.gap().from(), o.gap().to(), o.gap().size());
                    out.flush();
                }
                return;
            }
            seen++;
            String e2e = "-";
            String verify = "-";
            if (o.latency() != null) {
                verifyMs.add(o.latency().verifyNanos());
                verify = String.format(Locale.ROOT, "%.3fms", o.latency().verifyNanos() / 1e6);
            }
            Long wall = event.wallLatencyNanos();
            if (wall != null && v.accepted()) {
                endToEndMs.add(wall);
                e2e = String.format(Locale.ROOT, "%.3fms", wall / 1e6);
            }
            if (textLines) {
                String word = event.verdictWord().equals("REJECTED") ? "REJECTED(" + v.reason() + ")" : event.verdictWord();
                String text = v.accepted() && o.reading() != null ? o.reading().reading() : v.detail();
                out.printf("%s index=%d verify=%s e2e=%s %s%n", word, v.index(), verify, e2e, SensorCommand.printable(text));
                out.flush();
            }
            if (readings > 0 && seen >= readings) {
                stop.countDown();
            }
        }
    }

    /**
     * Prints the totals (to standard error when standard output carries the JSON stream) and returns
     * the exit code: 1 if anything was rejected, missing or reused (duplicates do not count), 0 otherwise.
     */
    private synchronized int summary() {
        long alarms = 0;
        for (Map.Entry<Verdict.Reason, Long> e : counts.entrySet()) {
            if (e.getKey() != Verdict.Reason.ACCEPTED && e.getKey() != Verdict.Reason.DUPLICATE
                    && e.getKey() != Verdict.Reason.HANDOVER) {
                alarms += e.getValue();
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("summary: ").append(seen).append(" readings");
        for (Map.Entry<Verdict.Reason, Long> e : counts.entrySet()) {
            sb.append(", ").append(e.getKey()).append(' ').append(e.getValue());
        }
        sb.append(" (").append(missing).append(" missing)");
        if (!keyEvents.isEmpty()) {
            sb.append("; key warnings ").append(keyEvents.getOrDefault(KeyStatusEvent.Kind.KEY_WARNING, 0L))
                    .append(", key alarms ").append(keyEvents.getOrDefault(KeyStatusEvent.Kind.KEY_ALARM, 0L));
            alarms += keyEvents.getOrDefault(KeyStatusEvent.Kind.KEY_ALARM, 0L);
        }
        if (verifyMs.count() > 0) {
            var v = verifyMs.summary();
            sb.append(String.format(Locale.ROOT, "; verify p50 %.3f ms", v.p50()));
        }
        if (endToEndMs.count() > 0) {
            var t = endToEndMs.summary();
            sb.append(String.format(Locale.ROOT, ", e2e (wall clocks) p50 %.3f ms p99 %.3f ms max %.3f ms",
                    t.p50(), t.p99(), t.max()));
        }
        sb.append("; sensor ").append(sensorName);
        PrintWriter target = textLines ? out : spec.commandLine().getErr();
        target.println(sb);
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
