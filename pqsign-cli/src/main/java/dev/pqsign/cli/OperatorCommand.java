package dev.pqsign.cli;

import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.LatencySeries;
import dev.pqsign.telemetry.ReadingVerifier;
import dev.pqsign.telemetry.ReplayGuard;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
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

    private final CountDownLatch stop = new CountDownLatch(1);
    private final Map<Verdict.Reason, Long> counts = new EnumMap<>(Verdict.Reason.class);
    private final LatencySeries verifyMs = new LatencySeries();
    private final LatencySeries endToEndMs = new LatencySeries();
    private long seen;
    private PrintWriter out;

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

        try (ReplayGuard guard = ReplayGuard.inDirectory(dataDir.resolve("replay"));
                Operator operator = new Operator(new Operator.Config(dataDir, sec, publishingMs),
                        new ReadingVerifier(guard, trusted), this::observe)) {
            serverCerts.forEach(operator::trustServer);
            out.printf("operator: pinned %s key %s%n", pinned.parameterSet().setName(), trusted.id().hex());
            if (sec != TransportSecurity.NONE) {
                Path exported = TelemetrySupport.exportApplicationCertificate(operator.applicationCertificate(), dataDir,
                        "operator-application.der");
                out.printf("application certificate (give to the sensor's --trust-client): %s%n", exported);
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
                out.printf("subscribed to %s%n", endpoint);
                out.flush();
                return;
            } catch (IOException e) {
                if (stop.getCount() == 0) {
                    throw new CliException(CliException.FAILED, "stopped before the sensor answered: " + e.getMessage(), e);
                }
                if (System.nanoTime() >= deadline) {
                    throw new CliException(CliException.FAILED, e.getMessage(), e);
                }
                if (!told) {
                    out.printf("waiting for the sensor at %s ...%n", endpoint);
                    out.flush();
                    told = true;
                }
                if (stop.await(500, TimeUnit.MILLISECONDS)) {
                    throw new CliException(CliException.FAILED, "stopped before the sensor answered: " + e.getMessage(), e);
                }
            }
        }
    }

    private void observe(Operator.Observation o) {
        synchronized (this) {
            if (stop.getCount() == 0 || (readings > 0 && seen >= readings)) {
                return;
            }
            seen++;
            Verdict v = o.verdict();
            counts.merge(v.reason(), 1L, Long::sum);
            String verdict = v.accepted() ? "ACCEPTED" : "REJECTED(" + v.reason() + ")";
            String verify = "-";
            String e2e = "-";
            if (o.latency() != null) {
                verifyMs.add(o.latency().verifyNanos());
                endToEndMs.add(o.latency().endToEndNanos());
                verify = String.format(Locale.ROOT, "%.3fms", o.latency().verifyNanos() / 1e6);
                e2e = String.format(Locale.ROOT, "%.3fms", o.latency().endToEndNanos() / 1e6);
            }
            String text = v.accepted() && o.reading() != null ? o.reading().reading() : v.detail();
            out.printf("%s index=%d verify=%s e2e=%s %s%n", verdict, v.index(), verify, e2e, SensorCommand.printable(text));
            out.flush();
            if (readings > 0 && seen >= readings) {
                stop.countDown();
            }
        }
    }

    private synchronized int summary() {
        long rejected = seen - counts.get(Verdict.Reason.ACCEPTED);
        StringBuilder sb = new StringBuilder();
        sb.append("summary: ").append(seen).append(" readings");
        for (Map.Entry<Verdict.Reason, Long> e : counts.entrySet()) {
            sb.append(", ").append(e.getKey()).append(' ').append(e.getValue());
        }
        if (verifyMs.count() > 0) {
            var v = verifyMs.summary();
            var t = endToEndMs.summary();
            sb.append(String.format(Locale.ROOT, "; verify p50 %.3f ms, e2e p50 %.3f ms p99 %.3f ms max %.3f ms",
                    v.p50(), t.p50(), t.p99(), t.max()));
        }
        out.println(sb);
        out.flush();
        return rejected > 0 ? CliException.FAILED : 0;
    }
}
