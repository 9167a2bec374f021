package dev.pqsign.operator;

import dev.pqsign.console.ConsoleServer;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.opcua.ApplicationIdentity;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.RecordSubscription;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.opcua.gateway.GatewaySecurity;
import dev.pqsign.opcua.gateway.GatewayServer;
import dev.pqsign.telemetry.KeyStatusEvent;
import dev.pqsign.telemetry.ReadingText;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictJsonl;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.OperatorPipeline;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.operator.SensorVerification;
import dev.pqsign.telemetry.operator.TrustedKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One run of the operator, as {@code pqsign operator} runs it: opens the data directory
 * ({@link OperatorPipeline}), reports readings it had accepted but not written out before a kill,
 * watches every sensor at once ({@link Operator#watch}), writes each verdict ({@code VerdictReport};
 * with {@link OperatorSettings.Builder#serve} also served over OPC UA by a {@link GatewayServer}),
 * follows the sensors' key states, and ends — after {@code readings} readings or on {@link #stop()}
 * — with a summary and an exit code: 0 if nothing was rejected, missing or reused, 1 otherwise.
 *
 * <pre>{@code
 * OperatorRun run = new OperatorRun(settings, out, err);
 * Runtime.getRuntime().addShutdownHook(new Thread(run::stop));
 * int exit = run.run();
 * }</pre>
 */
public final class OperatorRun {
    private final OperatorSettings settings;
    private final PrintWriter out;
    private final PrintWriter err;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Map<String, SensorVerification> sensors = new LinkedHashMap<>();
    private final Map<String, KeyStatusEvent.Kind> keyKinds = new HashMap<>();
    private final Map<KeyStatusEvent.Kind, Long> keyEvents = new EnumMap<>(KeyStatusEvent.Kind.class);
    private VerdictReport report;
    private ConsoleServer console;
    /** The OPC UA server of verified data ({@code --serve}), else null. */
    private GatewayServer gateway;

    /**
     * A run with these settings, writing to {@code out} (verdict and status lines) and {@code err}
     * (errors, and status lines when {@code out} carries JSON).
     *
     * @param settings what to watch and where to report
     * @param out standard output
     * @param err standard error
     */
    public OperatorRun(OperatorSettings settings, PrintWriter out, PrintWriter err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    /** Ends the run: {@link #run()} writes the summary and returns. Safe from any thread, e.g. a shutdown hook. */
    public void stop() {
        stop.countDown();
    }

    /**
     * Runs until stopped or until the settings' number of readings was reported.
     *
     * @return the exit code: 0 nothing rejected, missing or reused; 1 otherwise (or an output failed)
     * @throws OperatorFailure if the run cannot start (exit 2: data directory, endpoint, console) or a
     *     sensor was not reached in time (exit 1)
     * @throws InterruptedException if interrupted
     */
    public int run() throws OperatorFailure, InterruptedException {
        VerdictJsonl json = openJsonl();
        int exit = OperatorFailure.FAILED;
        try {
            exit = runWith(json);
        } finally {
            if (json != null && !closeJsonl(json)) {
                exit = OperatorFailure.FAILED; // a verdict line that never reached the disk is a failed write
            }
        }
        return exit;
    }

    /** Closes (flushes) the JSON Lines; false after saying why it failed. */
    private boolean closeJsonl(VerdictJsonl json) {
        try {
            json.close();
            return true;
        } catch (IOException e) {
            if (report != null && report.outputFailed()) {
                return false; // the failed write was already reported, once
            }
            err.println("pqsign: --jsonl: cannot write " + settings.jsonlFile + ": " + e.getMessage());
            err.flush();
            return false;
        }
    }

    @SuppressWarnings("try") // the operator is closed before the summary, and once more (no-op) by the try
    private int runWith(VerdictJsonl json) throws OperatorFailure, InterruptedException {
        try (OperatorPipeline pipeline = openPipeline();
                Operator operator = newOperator()) {
            report = new VerdictReport(settings, out, err, json, console, gateway, sensors, stop);
            operator.onConnectionChange(report::connectionChanged);
            operator.watchKeyState(Duration.ofSeconds(2), this::keyState);
            boolean secure = false;
            for (SensorTarget t : settings.sensors) {
                t.serverCertificates().forEach(operator::trustServer);
                secure |= t.security() != TransportSecurity.NONE;
                openSensor(t, pipeline);
            }
            for (ReplayGuard.RebuiltMark m : pipeline.rebuiltMarks()) {
                report.status(String.format(
                        "operator: replay mark of key %s… rebuilt at %d from %s (%s held %d: lost or older)",
                        m.key().hex().substring(0, 16),
                        m.floor(),
                        settings.dataDir,
                        pipeline.markFile().getFileName(),
                        m.stored()));
            }
            if (secure) {
                Path exported = ApplicationIdentity.export(
                        operator.applicationCertificate(),
                        settings.dataDir.resolve("pki").resolve("operator-application.der"));
                report.status("application certificate (give to the sensor's --trust-client): " + exported);
            }
            exportGatewayCertificate();
            if (console != null) {
                List<SensorVerification> all = List.copyOf(sensors.values());
                console.signatureCost(
                        () -> all.stream()
                                .mapToLong(v -> v.verifier().signatureCost().checks())
                                .sum(),
                        () -> all.stream()
                                .mapToLong(v -> v.verifier().signatureCost().cpuNanos())
                                .sum());
            }
            reportUnreported();
            return watch(operator);
        } catch (IOException e) {
            throw OperatorFailure.badInput("--data-dir " + settings.dataDir + ": " + e.getMessage());
        } finally {
            // The operator is closed by now: nothing observes any more.
            if (gateway != null) {
                gateway.close();
            }
            if (console != null) {
                console.close();
            }
        }
    }

    private int watch(Operator operator) throws OperatorFailure, InterruptedException {
        ScheduledExecutorService ticker = null;
        boolean summarized = false;
        try {
            connectAll(operator);
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread th = new Thread(r, "pqsign-operator-ticker");
                th.setDaemon(true);
                return th;
            });
            // both run until ticker.shutdownNow() below; neither throws
            var unused = ticker.scheduleAtFixedRate(report::checkSilence, 1, 1, TimeUnit.SECONDS);
            if (settings.liveTable) {
                unused = ticker.scheduleAtFixedRate(report::printTable, 0, 1, TimeUnit.SECONDS);
            }
            stop.await();
            if (ticker != null) {
                ticker.shutdownNow();
            }
            operator.close();
            report.close();
            summarized = true;
            return summary();
        } finally {
            if (ticker != null) {
                ticker.shutdownNow();
            }
            operator.close();
            if (!summarized && report.sawReadings()) {
                report.close();
                summary(); // ended by an error after some readings: the totals still count
            }
        }
    }

    private int summary() {
        long keyAlarms = keyEvents.getOrDefault(KeyStatusEvent.Kind.KEY_ALARM, 0L);
        String keyLine = keyEvents.isEmpty()
                ? null
                : String.format(
                        "keys: %d warnings, %d alarms (a sensor could not prepare its next key)",
                        keyEvents.getOrDefault(KeyStatusEvent.Kind.KEY_WARNING, 0L), keyAlarms);
        return report.summary(keyAlarms, keyLine);
    }

    /** Opens the --jsonl stream (null without it); to standard output it replaces the text lines. */
    private VerdictJsonl openJsonl() throws OperatorFailure {
        if (settings.jsonlToStandardOutput) {
            return new VerdictJsonl(out, false);
        }
        if (settings.jsonlFile == null) {
            return null;
        }
        try {
            return VerdictJsonl.appendingTo(settings.jsonlFile, notice -> {
                err.println("operator: --jsonl: " + notice);
                err.flush();
            });
        } catch (IOException e) {
            throw OperatorFailure.badInput("--jsonl: cannot open " + settings.jsonlFile + ": " + e.getMessage());
        }
    }

    /** The data directory's replay marks, accepted records, chains and evidence; one line naming what is damaged. */
    private OperatorPipeline openPipeline() throws OperatorFailure {
        try {
            return OperatorPipeline.builder(settings.dataDir)
                    .remember(settings.remember)
                    .open();
        } catch (IOException e) {
            throw OperatorFailure.badInput("--data-dir " + settings.dataDir + ": " + e.getMessage());
        }
    }

    private Operator newOperator() throws IOException, OperatorFailure {
        Operator operator = new Operator(
                new Operator.Config(
                        settings.dataDir,
                        settings.sensors.get(0).security(),
                        settings.publishingMs,
                        settings.queueSize),
                this::observe);
        if (settings.console != null) {
            try {
                console = ConsoleServer.start(settings.console);
            } catch (IOException e) {
                operator.close();
                throw OperatorFailure.badInput("--http " + settings.console + ": " + e.getMessage());
            }
            String b = settings.console.bindAddress();
            // A console on every interface is opened locally at 127.0.0.1; say that it listens wider.
            String where = b.equals("0.0.0.0") || b.equals("::") || b.equals("[::]")
                    ? "; listening on all interfaces, port " + console.port()
                    : "";
            String line = "console: " + console.uri() + " (metrics: " + console.uri() + "metrics" + where + ")";
            (settings.jsonlToStandardOutput ? err : out).println(line);
        }
        if (settings.gateway != null) {
            startGateway(operator);
        }
        return operator;
    }

    /** Starts the gateway for the sensors and prints its {@code serving} line; one line if it cannot. */
    private void startGateway(Operator operator) throws OperatorFailure {
        try {
            gateway = GatewayServer.start(
                    settings.gateway,
                    settings.sensors.stream().map(SensorTarget::name).toList());
        } catch (IOException | IllegalArgumentException e) {
            operator.close(); // the console is closed by runWith
            throw OperatorFailure.badInput("--serve " + settings.gateway.bindAddress() + ":" + settings.gateway.port()
                    + ": " + ReadingText.printable(String.valueOf(e.getMessage())));
        }
        PrintWriter w = settings.jsonlToStandardOutput ? err : out;
        w.println("serving " + gateway.endpointUrl());
        w.flush();
    }

    /** With a signing gateway endpoint, its application certificate for the clients' trust lists. */
    private void exportGatewayCertificate() throws OperatorFailure {
        if (gateway == null || settings.gateway.security().equals(java.util.Set.of(GatewaySecurity.NONE))) {
            return;
        }
        try {
            Path exported = ApplicationIdentity.export(
                    gateway.applicationCertificate(),
                    settings.gateway.dir().resolve("pki").resolve("gateway-application.der"));
            report.status("gateway application certificate (give to the clients' trust lists): " + exported);
        } catch (IOException e) {
            throw OperatorFailure.badInput("--serve: cannot export the application certificate: " + e.getMessage());
        }
    }

    private void observe(Observation o) {
        report.observe(o);
    }

    /** The sensor's verification (its chain resumed from the data directory) and what the run says about it. */
    private void openSensor(SensorTarget t, OperatorPipeline pipeline) throws OperatorFailure {
        SensorVerification v;
        try {
            v = pipeline.sensor(t.name(), t.firstKey(), t.deviceCa());
        } catch (IOException e) {
            throw OperatorFailure.badInput("--data-dir " + settings.dataDir + ": " + e.getMessage());
        }
        sensors.put(t.name(), v);
        String named = settings.named ? t.name() + ": " : "";
        if (!settings.jsonlToStandardOutput) {
            out.printf(
                    "operator: %spinned %s key %s%n",
                    named,
                    t.firstKey().parameterSet().setName(),
                    TrustedKeys.of(t.firstKey()).id().hex());
        }
        KeyChain chain =
                pipeline.chains().chain(KeyChain.startingAt(t.firstKey()).chainId());
        if (t.resumed() != null) {
            // One line wherever status lines go: the operator trusts a first chain that is not valid now.
            report.status(String.format(
                    "operator: %s%s; resuming its followed key chain at generation %d",
                    named, t.resumed(), chain.current().generation()));
        }
        if (chain.current().generation() > 0 && !settings.jsonlToStandardOutput) {
            out.printf(
                    "operator: %s follows its key chain at generation %d%n",
                    t.name(), chain.current().generation());
        }
        out.flush();
    }

    /**
     * Readings accepted by an earlier run that was killed before it wrote their verdicts: written
     * now (as ACCEPTED, marked as recovered), so every accepted index is reported once.
     */
    private void reportUnreported() throws IOException {
        for (Map.Entry<String, SensorVerification> e : sensors.entrySet()) {
            for (SignedRecord r : e.getValue().verifier().acceptedUnreported()) {
                report.observe(new Observation(
                        e.getKey(),
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

    /**
     * Starts watching every sensor at once; each keeps trying by itself. Waits up to the connect
     * timeout: with one sensor one that never answered ends the run (exit 1); with a list each one
     * still unreachable is reported and the others run on.
     */
    private void connectAll(Operator operator) throws OperatorFailure, InterruptedException {
        List<RecordSubscription> started = new ArrayList<>();
        for (SensorTarget t : settings.sensors) {
            try {
                started.add(operator.watch(t.name(), t.url(), t.security(), sensors.get(t.name())));
            } catch (IllegalArgumentException e) {
                throw OperatorFailure.badInput((settings.named ? t.name() + ": " : "--url: ") + e.getMessage());
            }
        }
        long deadline = System.nanoTime() + settings.connectTimeout.toNanos();
        for (RecordSubscription s : started) {
            while (!s.connected() && System.nanoTime() < deadline) {
                if (stop.await(50, TimeUnit.MILLISECONDS)) {
                    if (s.connected() || report.sawReadings()) {
                        return; // stopped after readings came (e.g. --readings reached): a normal end
                    }
                    throw OperatorFailure.failed(
                            "stopped before the sensor answered: " + s.state().detail());
                }
            }
            if (!s.connected() && !settings.named) {
                throw OperatorFailure.failed(
                        "cannot reach the sensor at " + s.name() + " within " + settings.connectTimeout.toSeconds()
                                + " s: " + s.state().detail());
            }
        }
    }

    /** How long a warning on the time left alone must hold before it is raised. */
    static final Duration WARNING_SETTLES = Duration.ofSeconds(6);

    /** Since when each sensor's key has been short of time (with signatures to spare) and without a next key. */
    private final Map<String, Long> shortOfTimeSince = new HashMap<>();

    /**
     * Whether the state is one to report now. Right after a handover the new key's successor is
     * still being prepared, so a fast sensor's key is briefly "short of time with no next key
     * ready": a warning on the time left alone, with signatures to spare, is raised only once it
     * has held for {@link #WARNING_SETTLES} (a warning on the remaining count, and every alarm, at once).
     */
    private boolean settled(Operator.KeyState k, KeyStatusEvent e) {
        boolean timeOnly = e.kind() == KeyStatusEvent.Kind.KEY_WARNING && k.remaining() >= settings.warnRemaining;
        if (!timeOnly) {
            shortOfTimeSince.remove(k.sensor());
            return true;
        }
        long now = System.nanoTime();
        long since = shortOfTimeSince.computeIfAbsent(k.sensor(), s -> now);
        return now - since >= WARNING_SETTLES.toNanos();
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
                settings.warnRemaining,
                (double) settings.warnSeconds,
                Instant.now());
        synchronized (this) {
            if (!settled(k, e)) {
                return;
            }
            KeyStatusEvent.Kind before = keyKinds.put(k.sensor(), e.kind());
            if (before == e.kind() || (before == null && e.kind() == KeyStatusEvent.Kind.KEY_OK)) {
                return;
            }
            keyEvents.merge(e.kind(), 1L, Long::sum);
            if (console != null && e.kind() == KeyStatusEvent.Kind.KEY_ALARM) {
                console.alarm(k.sensor(), e.detail());
            }
            if (report.write(e)) {
                report.keyLine(e.kind() + " " + k.sensor() + ": " + ReadingText.printable(e.detail()));
            }
        }
    }
}
