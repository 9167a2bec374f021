package dev.pqsign.demo;

import dev.pqsign.core.IndexedSigner;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.core.Verifier;
import dev.pqsign.keys.SignatureScheme;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.LatencyStats;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SimulatedSpeedSensor;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.OperatorPipeline;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the sensor ↔ operator demonstration in one process on loopback: for each scheme setup, K
 * sensor servers (each with its own key), optionally behind {@link LinkEmulator} relays, and one
 * operator subscribed to all of them. Each sensor publishes its share of N simulated readings in a
 * closed loop (the next reading is published once the operator has decided on the previous one, so
 * the latencies are those of an unloaded link and nothing is overwritten unseen), and injects
 * tampered and replayed readings which the operator must reject.
 *
 * <p>This is the API behind {@code pqsign demo}: build {@link SchemeSetup}s, call
 * {@link #run(List, Options)}, print {@link DemoReport#toTable()} and write
 * {@link DemoReport#toJson()}.
 */
public final class DemoRunner {

    /**
     * A sensor key together with the operator's verifier for it.
     *
     * @param sensorKey what the sensor signs with
     * @param verifier verifier of the sensor's public key
     */
    public record DemoKey(SensorKey sensorKey, Verifier verifier) {
        /**
         * Checks that both parts are given.
         *
         * @param sensorKey what the sensor signs with
         * @param verifier verifier of the sensor's public key
         */
        public DemoKey {
            Objects.requireNonNull(sensorKey, "sensorKey");
            Objects.requireNonNull(verifier, "verifier");
        }
    }

    /**
     * Creates (or loads) the key of sensor number {@code i} (0-based) of a set. The runner does
     * not close the signers it is given; the caller owns them (and their state stores).
     */
    @FunctionalInterface
    public interface KeyFactory {
        /**
         * Creates (or loads) the key of one sensor.
         *
         * @param sensorIndex the sensor's number in its set, 0-based
         * @return the sensor's key and the operator's verifier for it
         * @throws IOException if the key cannot be created or loaded
         */
        DemoKey create(int sensorIndex) throws IOException;
    }

    /**
     * One parameter set to demonstrate.
     *
     * @param name row label, normally the parameter-set name
     * @param embeddedIndex how to read the index inside signatures ({@link EmbeddedIndex#NONE} for HAETAE)
     * @param keys one key per sensor
     */
    public record SchemeSetup(String name, EmbeddedIndex embeddedIndex, KeyFactory keys) {
        /**
         * Checks that every part is given.
         *
         * @param name row label, normally the parameter-set name
         * @param embeddedIndex how to read the index inside signatures ({@link EmbeddedIndex#NONE} for HAETAE)
         * @param keys one key per sensor
         */
        public SchemeSetup {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(embeddedIndex, "embeddedIndex");
            Objects.requireNonNull(keys, "keys");
        }

        /**
         * A setup with one key, usable with one sensor only.
         *
         * @param name row label, normally the parameter-set name
         * @param signer the sensor's signer; the caller keeps owning it
         * @param verifier verifier of {@code publicKey}
         * @param publicKey the public key encoding (its SHA-256 is the key id)
         * @param embeddedIndex how to read the index inside signatures ({@link EmbeddedIndex#NONE} for HAETAE)
         * @return a setup whose key factory refuses every sensor but number 0
         */
        public static SchemeSetup single(
                String name, IndexedSigner signer, Verifier verifier, byte[] publicKey, EmbeddedIndex embeddedIndex) {
            DemoKey key = new DemoKey(new SensorKey(signer, KeyId.ofPublicKey(publicKey)), verifier);
            return new SchemeSetup(name, embeddedIndex, i -> {
                if (i != 0) {
                    throw new IllegalArgumentException(
                            "setup '" + name + "' has a single key; use a KeyFactory for several sensors");
                }
                return key;
            });
        }
    }

    /**
     * Demo options.
     *
     * @param dataDir where sensors and the operator keep certificates, trust lists and replay state
     * @param readings genuine readings per set, spread over the sensors
     * @param link link profile between operator and each sensor
     * @param sensors number of sensors K (each with its own key)
     * @param security transport security
     * @param publishingIntervalMs the operator's requested publishing interval
     * @param injectEvery inject one tampered and one replayed reading after every this many genuine
     *     readings of a sensor (0: never)
     * @param warmupReadings readings each sensor publishes before measuring (JIT, connections); they
     *     are verified like all others but not counted or timed
     */
    public record Options(
            Path dataDir,
            int readings,
            LinkProfile link,
            int sensors,
            TransportSecurity security,
            double publishingIntervalMs,
            int injectEvery,
            int warmupReadings) {
        /**
         * Checks the options.
         *
         * @param dataDir where sensors and the operator keep certificates, trust lists and replay state
         * @param readings genuine readings per set, spread over the sensors
         * @param link link profile between operator and each sensor
         * @param sensors number of sensors K (each with its own key)
         * @param security transport security
         * @param publishingIntervalMs the operator's requested publishing interval
         * @param injectEvery inject one tampered and one replayed reading after every this many genuine readings of a
         *     sensor (0: never)
         * @param warmupReadings readings each sensor publishes before measuring, not counted or timed
         * @throws IllegalArgumentException if {@code readings} or {@code sensors} is below 1, or {@code injectEvery} or
         *     {@code warmupReadings} is negative
         */
        public Options {
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(link, "link");
            Objects.requireNonNull(security, "security");
            if (readings < 1 || sensors < 1 || injectEvery < 0 || warmupReadings < 0) {
                throw new IllegalArgumentException(
                        "need readings >= 1, sensors >= 1, injectEvery >= 0, warmupReadings >= 0");
            }
        }

        /**
         * Defaults: no transport security, 1 ms publishing interval, injections every 20 readings,
         * 20 warm-up readings per sensor.
         *
         * @param dataDir where sensors and the operator keep certificates, trust lists and replay state
         * @param readings genuine readings per set, spread over the sensors (at least 1)
         * @param link link profile between operator and each sensor
         * @param sensors number of sensors K (at least 1)
         * @return the options
         */
        public static Options of(Path dataDir, int readings, LinkProfile link, int sensors) {
            return new Options(dataDir, readings, link, sensors, TransportSecurity.NONE, 1.0, 20, 20);
        }
    }

    private static final long OBSERVATION_TIMEOUT_MS = 30_000;

    private DemoRunner() {}

    /**
     * Called once per set after its servers, connections and warm-up readings, right before the
     * measured readings start (e.g. to let the JIT compiler finish what the set-up queued).
     */
    @FunctionalInterface
    public interface BeforeMeasuring {
        /**
         * Called before the measured readings of set {@code setName}.
         *
         * @param setName the set about to be measured ({@link SchemeSetup#name()})
         * @throws InterruptedException if interrupted while waiting; the run stops
         */
        void run(String setName) throws InterruptedException;
    }

    /**
     * Runs every set in turn and returns their results.
     *
     * @param sets the sets to run, in order
     * @param options readings, sensors, link and data directory for every set
     * @return one result per set, in run order
     * @throws IOException if a key cannot be made or has too few signatures left for the run, or a sensor server,
     *     relay, connection or sensor loop fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static DemoReport run(List<SchemeSetup> sets, Options options) throws IOException, InterruptedException {
        return run(sets, options, name -> {});
    }

    /**
     * Like {@link #run(List, Options)}, calling {@code beforeMeasuring} before each set's measured readings.
     *
     * @param sets the sets to run, in order
     * @param options readings, sensors, link and data directory for every set
     * @param beforeMeasuring called with each set's name
     * @return one result per set, in run order
     * @throws IOException if a key cannot be made or has too few signatures left for the run, or a sensor server,
     *     relay, connection or sensor loop fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static DemoReport run(List<SchemeSetup> sets, Options options, BeforeMeasuring beforeMeasuring)
            throws IOException, InterruptedException {
        return run(sets, options, beforeMeasuring, DemoObserver.NONE);
    }

    /**
     * Like {@link #run(List, Options, BeforeMeasuring)}, telling {@code observer} about every
     * sensor's connection, key and verdicts as they happen.
     *
     * @param sets the sets to run, in order
     * @param options readings, sensors, link and data directory for every set
     * @param beforeMeasuring called with each set's name
     * @param observer told about connections, keys and verdicts; must not block
     * @return one result per set, in run order
     * @throws IOException if a key cannot be made or has too few signatures left for the run, or a sensor server,
     *     relay, connection or sensor loop fails
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static DemoReport run(
            List<SchemeSetup> sets, Options options, BeforeMeasuring beforeMeasuring, DemoObserver observer)
            throws IOException, InterruptedException {
        Objects.requireNonNull(beforeMeasuring, "beforeMeasuring");
        Objects.requireNonNull(observer, "observer");
        List<DemoReport.SetResult> results = new ArrayList<>();
        for (SchemeSetup s : sets) {
            results.add(runSet(s, options, beforeMeasuring, observer));
        }
        return new DemoReport(results);
    }

    /**
     * The name {@link DemoObserver} knows sensor {@code i} of {@code set} by.
     *
     * @param setName the set's name
     * @param i the sensor's number in the set, 0-based
     * @return {@code SET/sensor-N}
     */
    public static String sensorLabel(String setName, int i) {
        return setName + "/sensor-" + i;
    }

    /** The same observation under the sensor's {@link #sensorLabel}. */
    private static Observation labelled(String setName, Observation o) {
        String label = setName + "/" + o.sensor();
        return new Observation(
                label,
                o.sequence(),
                o.verdict(),
                o.reading(),
                o.latency(),
                o.record(),
                o.receivedAt(),
                o.gap(),
                o.handover());
    }

    private static void reportKey(DemoObserver observer, String setName, int i, DemoKey key) {
        long remaining = key.sensorKey().signer() instanceof StatefulSigner st ? st.remaining() : -1;
        observer.keyState(sensorLabel(setName, i), setName, key.sensorKey().keyId(), remaining);
    }

    private static final class Tally {
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong injectedTampered = new AtomicLong();
        final AtomicLong rejectedTampered = new AtomicLong();
        final AtomicLong injectedReplayed = new AtomicLong();
        final AtomicLong rejectedReplayed = new AtomicLong();
        final AtomicLong lost = new AtomicLong();
        final AtomicLong rejectedGenuine = new AtomicLong();
        final AtomicLong signatureBytes = new AtomicLong();
        final AtomicLong gaps = new AtomicLong();
        final AtomicLong duplicates = new AtomicLong();
        final LatencyStats stats = new LatencyStats();
    }

    private static DemoReport.SetResult runSet(
            SchemeSetup set, Options o, BeforeMeasuring beforeMeasuring, DemoObserver observer)
            throws IOException, InterruptedException {
        Path setDir = o.dataDir().resolve("sets").resolve(SignatureScheme.directoryName(set.name()));
        int k = o.sensors();
        List<DemoKey> keys = new ArrayList<>();
        List<ReadingVerifier.TrustedKey> trusted = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            DemoKey key = set.keys().create(i);
            int share = o.readings() / k + (i < o.readings() % k ? 1 : 0);
            long needed =
                    (long) share + o.warmupReadings() + (o.injectEvery() == 0 ? 0 : 2L * (share / o.injectEvery()));
            if (key.sensorKey().signer() instanceof dev.pqsign.core.StatefulSigner st && st.remaining() < needed) {
                throw new IOException("key of sensor " + i + " of set " + set.name() + " has " + st.remaining()
                        + " signatures left, the run needs " + needed + "; use fewer readings or more sensors");
            }
            keys.add(key);
            trusted.add(new ReadingVerifier.TrustedKey(key.sensorKey().keyId(), key.verifier(), set.embeddedIndex()));
        }
        Map<String, BlockingQueue<Observation>> inbox = new ConcurrentHashMap<>();
        List<SensorServer> sensors = new ArrayList<>();
        List<FaultInjector> faults = new ArrayList<>();
        List<LinkEmulator> relays = new ArrayList<>();
        Tally tally = new Tally();
        // The demo's operator remembers no accepted records: a replayed reading is REPLAYED (counted
        // as rejected), as in the study, not a DUPLICATE.
        // The sensors close after the operator (the resources below): a sensor closed under a live
        // subscription makes the operator log a lost session and reconnect at every set's end.
        try {
            try (OperatorPipeline pipeline = OperatorPipeline.builder(setDir.resolve("operator"))
                            .remember(0)
                            .open();
                    Operator operator = new Operator(
                            new Operator.Config(setDir.resolve("operator"), o.security(), o.publishingIntervalMs()),
                            obs -> {
                                inbox.get(obs.sensor()).add(obs);
                                observer.observation(labelled(set.name(), obs));
                            })) {
                for (int i = 0; i < k; i++) {
                    String name = "sensor-" + i;
                    FaultInjector injector = new FaultInjector(keys.get(i).sensorKey());
                    SensorServer sensor = SensorServer.start(
                            SensorServer.Config.loopback(name, setDir.resolve(name), o.security()), injector.key());
                    sensors.add(sensor);
                    faults.add(injector);
                    sensor.trustClient(operator.applicationCertificate());
                    operator.trustServer(sensor.applicationCertificate());
                    String url = sensor.endpointUrl();
                    if (!o.link().isDirect()) {
                        LinkEmulator relay = LinkEmulator.start(o.link(), sensor.port(), 1000L + i);
                        relays.add(relay);
                        url = relay.endpointUrl(url);
                    }
                    inbox.put(name, new LinkedBlockingQueue<>());
                    observer.connectionState(sensorLabel(set.name(), i), "connecting");
                    operator.connect(name, url, o.security(), pipeline.pinned(name, trusted.get(i)));
                    observer.connectionState(sensorLabel(set.name(), i), "connected");
                    reportKey(observer, set.name(), i, keys.get(i));
                }
                ExecutorService pool = Executors.newFixedThreadPool(k);
                warmUp(sensors, inbox, o.warmupReadings(), pool);
                beforeMeasuring.run(set.name());
                long start = System.nanoTime();
                long cpuStart = processCpuNanos();
                long jitStart = jitCompileMillis();
                try {
                    List<Future<?>> futures = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        int share = o.readings() / k + (i < o.readings() % k ? 1 : 0);
                        SensorServer sensor = sensors.get(i);
                        FaultInjector injector = faults.get(i);
                        BlockingQueue<Observation> q = inbox.get("sensor-" + i);
                        long seed = i;
                        futures.add(pool.submit(() -> {
                            driveSensor(sensor, injector, q, share, o.injectEvery(), seed, tally);
                            return null;
                        }));
                    }
                    for (Future<?> f : futures) {
                        try {
                            f.get();
                        } catch (java.util.concurrent.ExecutionException e) {
                            throw new IOException(
                                    "sensor loop of set " + set.name() + " failed: " + e.getCause(), e.getCause());
                        }
                    }
                } finally {
                    pool.shutdownNow();
                }
                for (int i = 0; i < k; i++) {
                    reportKey(observer, set.name(), i, keys.get(i));
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                long cpuEnd = processCpuNanos();
                long jitEnd = jitCompileMillis();
                double cpuMsPerReading = cpuStart < 0 || cpuEnd < 0 || tally.accepted.get() == 0
                        ? Double.NaN
                        : (cpuEnd - cpuStart) / 1e6 / tally.accepted.get();
                return new DemoReport.SetResult(
                        set.name(),
                        o.readings(),
                        tally.accepted.get(),
                        tally.injectedTampered.get(),
                        tally.rejectedTampered.get(),
                        tally.injectedReplayed.get(),
                        tally.rejectedReplayed.get(),
                        (int) tally.signatureBytes.get(),
                        tally.stats.sign().summary(),
                        tally.stats.verify().summary(),
                        tally.stats.transfer().summary(),
                        tally.stats.endToEnd().summary(),
                        k,
                        tally.lost.get(),
                        tally.rejectedGenuine.get(),
                        seconds,
                        tally.accepted.get() / seconds,
                        o.link().name(),
                        cpuMsPerReading,
                        jitStart < 0 || jitEnd < 0 ? Double.NaN : jitEnd - jitStart,
                        millis(tally.stats.endToEnd().toArray()),
                        tally.gaps.get(),
                        tally.duplicates.get());
            }
        } finally {
            for (LinkEmulator r : relays) {
                r.close();
            }
            for (int i = 0; i < sensors.size(); i++) {
                sensors.get(i).close();
                observer.connectionState(sensorLabel(set.name(), i), "closed");
            }
        }
    }

    private static List<Double> millis(long[] nanos) {
        List<Double> ms = new ArrayList<>(nanos.length);
        for (long n : nanos) {
            ms.add(n / 1e6);
        }
        return ms;
    }

    /**
     * Total time the JIT compiler has spent compiling in this JVM, in milliseconds, or -1 if the JVM
     * does not report it. Public for callers that warm up before measuring.
     *
     * @return the JVM's total JIT compilation time in milliseconds, or -1
     */
    public static long jitCompileMillis() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    /** CPU time of this process in nanoseconds, or -1 if the platform does not report it. */
    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os =
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    private static void warmUp(
            List<SensorServer> sensors, Map<String, BlockingQueue<Observation>> inbox, int n, ExecutorService pool)
            throws InterruptedException, IOException {
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < sensors.size(); i++) {
            SensorServer sensor = sensors.get(i);
            BlockingQueue<Observation> q = inbox.get("sensor-" + i);
            long seed = -1L - i;
            futures.add(pool.submit(() -> {
                SimulatedSpeedSensor source = new SimulatedSpeedSensor(1500, 5, 0, seed, Clock.systemUTC());
                for (int j = 0; j < n; j++) {
                    await(q, sensor.publish(source.next()).sequence(), new Tally());
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IOException("warm-up failed: " + e.getCause(), e.getCause());
            }
        }
    }

    private static void driveSensor(
            SensorServer sensor,
            FaultInjector faults,
            BlockingQueue<Observation> q,
            int readings,
            int injectEvery,
            long seed,
            Tally tally)
            throws InterruptedException {
        SimulatedSpeedSensor source = new SimulatedSpeedSensor(1500, 5, 0, seed, Clock.systemUTC());
        SensorServer.Publication first = null;
        for (int j = 1; j <= readings; j++) {
            SensorServer.Publication p = sensor.publish(source.next());
            if (first == null) {
                first = p;
            }
            Observation obs = await(q, p.sequence(), tally);
            if (obs == null) {
                tally.lost.incrementAndGet();
            } else if (obs.verdict().accepted()) {
                tally.accepted.incrementAndGet();
                tally.signatureBytes.set(p.reading().signature().length);
                if (obs.latency() != null) {
                    tally.stats.add(obs.latency());
                }
            } else {
                tally.rejectedGenuine.incrementAndGet();
            }
            if (injectEvery > 0 && j % injectEvery == 0) {
                tally.injectedTampered.incrementAndGet();
                Observation t =
                        await(q, faults.tampered(source.next(), sensor::publish).sequence(), tally);
                if (t != null && t.verdict().reason() == Reason.BAD_SIGNATURE) {
                    tally.rejectedTampered.incrementAndGet();
                }
                tally.injectedReplayed.incrementAndGet();
                Observation r = await(
                        q, faults.replayed(first.reading(), sensor::publish).sequence(), tally);
                if (r != null && r.verdict().reason() == Reason.REPLAYED) {
                    tally.rejectedReplayed.incrementAndGet();
                }
            }
        }
    }

    /** Waits for the verdict on publication {@code sequence}, dropping older ones; counts gaps and duplicates. */
    private static Observation await(BlockingQueue<Observation> q, long sequence, Tally tally)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OBSERVATION_TIMEOUT_MS);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            Observation o = q.poll(left, TimeUnit.NANOSECONDS);
            if (o == null) {
                return null;
            }
            if (o.gap() != null) {
                if (o.verdict().reason() == Reason.GAP) {
                    tally.gaps.addAndGet(o.gap().size());
                }
                continue;
            }
            if (o.verdict().reason() == Reason.DUPLICATE) {
                tally.duplicates.incrementAndGet();
            }
            if (o.sequence() == sequence) {
                return o;
            }
            if (o.sequence() > sequence) {
                return null; // ours was overwritten before the operator read it
            }
        }
    }
}
