package dev.pqsign.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pqsign.console.ConsoleOptions;
import dev.pqsign.console.ConsoleServer;
import dev.pqsign.demo.DemoObserver;
import dev.pqsign.demo.DemoReport;
import dev.pqsign.demo.DemoRunner;
import dev.pqsign.demo.LinkProfile;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.kafka.KafkaDemo;
import dev.pqsign.keys.HaetaeScheme;
import dev.pqsign.keys.HssScheme;
import dev.pqsign.keys.SignatureScheme;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign demo}: the study's setup on loopback. A sensor (OPC UA server + stateful signer) and
 * an operator console (OPC UA client + verifier + replay guard) in one process, real Eclipse Milo
 * over real sockets; N readings per set, tampered and replayed readings injected, and a table like
 * the study's Table 6.
 */
@Command(
        name = "demo",
        description = {
            "Signed OPC UA telemetry on loopback: sensor and operator in one process,",
            "N readings per set, tampered and replayed readings injected, latency table (the study's Table 6)."
        })
final class DemoCommand implements Callable<Integer> {
    static final List<String> STUDY_SETS =
            List.of("XMSSMT-SHA2_10/2_256", "XMSSMT-SHA2_20/4_256", "XMSSMT-SHA2_30/6_256");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--data-dir",
            defaultValue = "pqsign-data",
            description = "Keys, certificates, replay state (default ./pqsign-data).")
    Path dataDir;

    @Option(names = "--readings", defaultValue = "100", description = "Genuine readings per set (default 100).")
    int readings;

    @Option(
            names = "--sets",
            split = ",",
            description =
                    "Parameter sets (default: the study's three XMSS^MT sets). E.g. XMSSMT-SHA2_10/2_256,HAETAE-2.")
    List<String> sets;

    @Option(
            names = "--link",
            defaultValue = "loopback",
            description = "Link emulation: loopback (default), ethernet or 5g.")
    String link;

    @Option(
            names = "--sensors",
            defaultValue = "1",
            description = "Sensors per set, each its own server and key (default 1).")
    int sensors;

    @Option(
            names = "--security",
            defaultValue = "none",
            description = "OPC UA transport security: none (default) or sign-encrypt (Basic256Sha256).")
    String security;

    @Option(
            names = "--publishing-ms",
            defaultValue = "1",
            description = "Operator's publishing interval in ms (default 1).")
    double publishingMs;

    @Option(
            names = "--inject-every",
            defaultValue = "20",
            description = "Inject one tampered and one replayed reading after every N genuine ones (0: never).")
    int injectEvery;

    @Option(
            names = "--warmup",
            defaultValue = "20",
            description = "Warm-up readings per sensor, verified but not timed (default 20).")
    int warmup;

    /** Readings per sensor in one round of the automatic JIT warm-up (fits a 2^10-signature key). */
    static final int JIT_ROUND_PER_SENSOR = 600;
    /** Rounds of the automatic warm-up at most. */
    static final int JIT_MAX_ROUNDS = 6;
    /** The automatic warm-up stops after a round in which the compiler was busy less than this share of the time. */
    static final double JIT_QUIET_SHARE = 0.05;

    @Option(
            names = "--jit-warmup",
            paramLabel = "N|auto",
            defaultValue = "auto",
            description = {
                "Unreported runs of the first set with throwaway keys in a temporary directory before",
                "measuring, so the measured run does not pay for JIT compilation. auto (default): rounds",
                "of " + JIT_ROUND_PER_SENSOR
                        + " readings per sensor until the JIT compiler was busy less than 5 %% of a",
                "round (at most " + JIT_MAX_ROUNDS + " rounds); N: exactly N readings in all; 0: none."
            })
    String jitWarmupOption;

    /** Total warm-up readings, or -1 for the automatic rounds. */
    int jitWarmup;

    @picocli.CommandLine.Mixin
    SensorSigningOptions signing = new SensorSigningOptions();

    @Option(names = "--json", description = "Also write the figures as JSON to this file.")
    Path json;

    @Option(
            names = "--http",
            paramLabel = "[HOST:]PORT",
            description = {
                "Serve the live console (every sensor of every set, verdicts, key state, latencies), /metrics and",
                "/healthz on PORT, bound to 127.0.0.1 unless HOST is given. After the last set the demo keeps",
                "serving until Ctrl-C. Read-only; docs/console.md."
            })
    String http;

    @Option(
            names = "--kafka",
            description = {
                "Then run --sensors sensors of the first XMSS / XMSS^MT set through Kafka: bridge, broker (embedded",
                "unless --bootstrap-servers), --verifier-instances verifiers; adds \"kafka\" to --json (docs/kafka.md)."
            })
    boolean kafka;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", description = "With --kafka: use this cluster.")
    String bootstrapServers;

    @Option(
            names = "--verifier-instances",
            defaultValue = "2",
            description = "With --kafka: verifier instances sharing the partitions (default ${DEFAULT-VALUE}).")
    int verifierInstances;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (http == null) {
            return runDemo(DemoObserver.NONE);
        }
        ConsoleOptions opts;
        try {
            opts = ConsoleOptions.parse(http);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--http: " + e.getMessage());
        }
        ConsoleServer console;
        try {
            console = ConsoleServer.start(opts);
        } catch (IOException e) {
            throw CliException.usage("--http " + http + ": " + e.getMessage());
        }
        // Ctrl-C ends the wait below through the JVM's shutdown: stop serving cleanly then.
        Runtime.getRuntime().addShutdownHook(new Thread(console::close, "pqsign-demo-console-stop"));
        try {
            PrintWriter out = spec.commandLine().getOut();
            out.printf("console: %s (metrics: %smetrics)%n", console.uri(), console.uri());
            out.flush();
            int exit = runDemo(new DemoConsole(console));
            out.printf(
                    "pqsign demo: finished (exit status %d); the console stays at %s until Ctrl-C%n",
                    exit, console.uri());
            out.flush();
            new CountDownLatch(1).await();
            return exit;
        } finally {
            console.close();
        }
    }

    private int runDemo(DemoObserver observer) throws IOException, InterruptedException {
        if ("auto".equalsIgnoreCase(jitWarmupOption.trim())) {
            jitWarmup = -1;
        } else {
            try {
                jitWarmup = Integer.parseInt(jitWarmupOption.trim());
            } catch (NumberFormatException e) {
                throw CliException.usage(
                        "--jit-warmup must be a number of readings or auto, got '" + jitWarmupOption + "'");
            }
        }
        if (readings < 1
                || sensors < 1
                || injectEvery < 0
                || warmup < 0
                || jitWarmup < -1
                || !(publishingMs > 0)
                || signing.batch < 1) {
            throw CliException.usage("need --readings >= 1, --sensors >= 1, --inject-every >= 0, --warmup >= 0, "
                    + "--jit-warmup >= 0 or auto, --publishing-ms > 0, --batch >= 1");
        }
        if (!kafka && (bootstrapServers != null)) {
            throw CliException.usage("--bootstrap-servers goes with --kafka");
        }
        if (verifierInstances < 1 || verifierInstances > 16) {
            throw CliException.usage("--verifier-instances must be 1..16, got " + verifierInstances);
        }
        if (json != null) {
            // Minutes of measurement must not end in a --json that cannot be written.
            OutputFiles.check(json, List.of());
        }
        LinkProfile profile;
        try {
            profile = LinkProfile.named(link);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        TransportSecurity sec = TelemetrySupport.security(security);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DemoRunner.Options options =
                new DemoRunner.Options(dataDir, readings, profile, sensors, sec, publishingMs, injectEvery, warmup);
        List<SignatureScheme> chosen = new ArrayList<>();
        for (String name : sets == null ? STUDY_SETS : sets) {
            SignatureScheme set = KeyFiles.scheme(name);
            if (set instanceof HssScheme) {
                throw CliException.usage(
                        "--sets: the demo runs XMSS / XMSS^MT and HAETAE sets, not LMS / HSS (" + name + ")");
            }
            chosen.add(set);
        }
        Files.createDirectories(dataDir);
        DemoReport report;
        // The demo injects tampered and replayed readings on purpose; their rejections are expected,
        // not warnings. The verifier's per-reading warnings stay muted and the table plus one summary
        // line below say how every injected reading was handled.
        Logger verifierLog = Logger.getLogger(ReadingVerifier.class.getName());
        Level level = verifierLog.getLevel();
        verifierLog.setLevel(Level.SEVERE);
        // Each set connects and disconnects its sensors on purpose: those connection lines are not news.
        Logger operatorLog = Logger.getLogger(Operator.class.getName());
        Level operatorLevel = operatorLog.getLevel();
        operatorLog.setLevel(Level.WARNING);
        try (DemoKeys keys = new DemoKeys(dataDir, err, signing)) {
            List<DemoRunner.SchemeSetup> setups = new ArrayList<>();
            for (SignatureScheme set : chosen) {
                setups.add(keys.setup(set, signaturesPerSensor(options)));
            }
            out.printf(
                    "pqsign demo: %d readings per set, %d sensor(s) per set, link %s, security %s, batch %d, data in %s%n",
                    readings, sensors, profile.name(), security, signing.batch, dataDir);
            out.flush();
            if (jitWarmup != 0) {
                jitWarmUp(chosen.get(0), setups.get(0).name(), options, out);
            }
            report = DemoRunner.run(
                    setups,
                    options,
                    name -> {
                        if (jitWarmup != 0) {
                            long waited = awaitCompilerIdle(COMPILER_IDLE_MS, COMPILER_WAIT_MAX_MS);
                            if (waited >= 0) {
                                out.printf(
                                        "pqsign demo: %s set up; waited %d ms for the JIT compiler to finish its queue%n",
                                        name, waited);
                                out.flush();
                            }
                        }
                    },
                    observer);
        } finally {
            verifierLog.setLevel(level);
            operatorLog.setLevel(operatorLevel);
        }
        out.print(report.toTable());
        long injected = 0;
        long rejectedInjected = 0;
        for (DemoReport.SetResult r : report.sets()) {
            injected += r.injectedTampered() + r.injectedReplayed();
            rejectedInjected += r.rejectedTampered() + r.rejectedReplayed();
        }
        if (injected > 0) {
            out.printf(
                    "pqsign demo: injected faults (expected rejections): %d tampered and replayed readings, %d rejected%n",
                    injected, rejectedInjected);
        }
        if (chosen.stream().anyMatch(set -> set instanceof HaetaeScheme)) {
            // which HAETAE code path this JVM ran is fixed at start (docs/haetae.md, "Vector API path")
            out.println("pqsign demo: HAETAE FAST engine ran its " + HaetaeEngine.fastPathDescription());
        }
        out.flush();
        KafkaDemo.Result kafkaResult = null;
        if (kafka) {
            kafkaResult = DemoKafka.run(chosen, dataDir, bootstrapServers, verifierInstances, sensors, readings, out);
        }
        if (json != null) {
            String text = report.toJsonWithThroughput();
            if (kafkaResult != null) {
                ObjectNode root = (ObjectNode) new ObjectMapper().readTree(text);
                root.set("kafka", kafkaResult.toJson());
                text = root.toString();
            }
            OutputFiles.write(json, (text + "\n").getBytes(StandardCharsets.UTF_8), false);
        }
        long bad = 0;
        if (kafkaResult != null) {
            bad += Math.abs(kafkaResult.readings() - kafkaResult.accepted())
                    + Math.abs(kafkaResult.injected() - kafkaResult.rejected())
                    + Math.abs(kafkaResult.garbage() - kafkaResult.deadLetter())
                    + kafkaResult.lagAtEnd();
        }
        for (DemoReport.SetResult r : report.sets()) {
            bad += (r.readings() - r.accepted())
                    + (r.injectedTampered() - r.rejectedTampered())
                    + (r.injectedReplayed() - r.rejectedReplayed());
        }
        if (bad > 0) {
            err.println("pqsign demo: " + bad
                    + " readings were not handled as expected (lost, rejected genuine, or accepted injected)");
            err.flush();
            return CliException.FAILED;
        }
        return 0;
    }

    /**
     * Runs {@code set} unreported, with fresh keys in a temporary directory (deleted afterwards), so
     * that the measured sets run compiled code. Without it the first set is measured while the JIT
     * compiler still competes for the CPU, and a fixed warm-up was not enough with many sensors
     * (docs/telemetry.md, "Steady state"), so the automatic warm-up repeats rounds until the
     * compiler is nearly idle during one. The real
     * keys and replay state are not touched. Always over loopback: the relay adds no code worth
     * warming and an emulated 5G link would make the warm-up take minutes.
     */
    private void jitWarmUp(SignatureScheme set, String name, DemoRunner.Options measured, PrintWriter out)
            throws IOException, InterruptedException {
        // The warm-up injects tampered and replayed readings too (their code paths need compiling);
        // the verifier's warnings are muted for the whole demo (see call()).
        int perRound = (int) Math.min(Integer.MAX_VALUE, (long) JIT_ROUND_PER_SENSOR * measured.sensors());
        long left = jitWarmup;
        for (int round = 1; jitWarmup < 0 ? round <= JIT_MAX_ROUNDS : left > 0; round++) {
            int n = jitWarmup < 0 ? perRound : (int) Math.min(left, perRound);
            left -= n;
            long jitBefore = DemoRunner.jitCompileMillis();
            long start = System.nanoTime();
            warmUpRound(set, n, measured);
            double ms = (System.nanoTime() - start) / 1e6;
            long compiled = jitBefore < 0 ? -1 : DemoRunner.jitCompileMillis() - jitBefore;
            double share = compiled < 0 ? Double.NaN : compiled / ms;
            out.printf(
                    Locale.ROOT,
                    "pqsign demo: JIT warm-up round %d, %d unreported readings of %s: %.1f s, compiler busy %s%n",
                    round,
                    n,
                    name,
                    ms / 1000,
                    compiled < 0
                            ? "(not reported by this JVM)"
                            : String.format(Locale.ROOT, "%d ms (%.0f %%)", compiled, 100 * share));
            out.flush();
            if (jitWarmup < 0 && !(share >= JIT_QUIET_SHARE)) {
                break;
            }
        }
    }

    private void warmUpRound(SignatureScheme set, int n, DemoRunner.Options measured)
            throws IOException, InterruptedException {
        Path tmp = Files.createTempDirectory("pqsign-demo-warmup");
        try {
            DemoRunner.Options o = new DemoRunner.Options(
                    tmp,
                    n,
                    LinkProfile.named("loopback"),
                    measured.sensors(),
                    measured.security(),
                    measured.publishingIntervalMs(),
                    measured.injectEvery(),
                    0);
            try (DemoKeys keys = new DemoKeys(tmp, new PrintWriter(java.io.Writer.nullWriter()), signing)) {
                DemoRunner.run(List.of(keys.setup(set, signaturesPerSensor(o))), o);
            }
        } finally {
            try (java.util.stream.Stream<Path> files = Files.walk(tmp)) {
                for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    /** How long the JIT compiler must have finished nothing before the measured run starts. */
    static final long COMPILER_IDLE_MS = 500;
    /** Longest wait for that. */
    static final long COMPILER_WAIT_MAX_MS = 15_000;

    /**
     * Waits until the JIT compiler has completed no compilation for {@code idleMs}, at most
     * {@code maxMs}: starting the servers and connections of a set (RSA application certificates,
     * key loading) queues compilations that otherwise run during the measured readings.
     *
     * @return milliseconds waited, or -1 if the JVM does not report compilation time
     */
    static long awaitCompilerIdle(long idleMs, long maxMs) throws InterruptedException {
        long last = DemoRunner.jitCompileMillis();
        if (last < 0) {
            return -1;
        }
        long start = System.nanoTime();
        long quietSince = start;
        while (true) {
            Thread.sleep(50);
            long now = System.nanoTime();
            long total = DemoRunner.jitCompileMillis();
            if (total != last) {
                last = total;
                quietSince = now;
            } else if (now - quietSince >= idleMs * 1_000_000L) {
                break;
            }
            if (now - start >= maxMs * 1_000_000L) {
                break;
            }
        }
        return (System.nanoTime() - start) / 1_000_000L;
    }

    /** Signatures one sensor may need: its share, warm-up, and the injected tampered readings (upper bound). */
    static long signaturesPerSensor(DemoRunner.Options o) {
        long share = ((long) o.readings() + o.sensors() - 1) / o.sensors();
        return share + o.warmupReadings() + (o.injectEvery() == 0 ? 0 : 2L * (share / o.injectEvery())) + 1;
    }
}
