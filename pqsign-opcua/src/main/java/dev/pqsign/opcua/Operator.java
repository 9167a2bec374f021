package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.MiloClients;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.operator.ConnectionState;
import dev.pqsign.telemetry.operator.DeviceCaTrust;
import dev.pqsign.telemetry.operator.KeyChainFollower;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.SensorVerification;
import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;

/**
 * The operator's OPC UA side: its application certificate and trust list (under
 * {@code dataDir/pki}; the client's certificate validator trusts only that list, never everything),
 * and one {@link RecordSubscription} per sensor that delivers the sensor's record node in order to
 * a consumer. A verifying connection hands every value to the sensor's {@link SensorVerification}
 * (built by {@code OperatorPipeline}) and reports each {@link Observation}; a relaying one
 * ({@link #relaying}) hands every value on unverified. Nothing a sensor publishes can stop it.
 *
 * <p>Subscriptions request sampling interval 0 and a short publishing interval (Milo's client
 * defaults of 1000 ms would add up to a second per reading).
 */
public final class Operator implements AutoCloseable {

    /** Requested time between keep-alive messages of an idle subscription. */
    static final double KEEP_ALIVE_INTERVAL_MS = RecordSubscription.KEEP_ALIVE_INTERVAL_MS;

    /**
     * Operator settings.
     *
     * @param dataDir directory for the operator's application certificate and trust list
     * @param security transport security to request
     * @param publishingIntervalMs requested publishing interval (the sensor grants down to 1 ms)
     * @param queueSize monitored-item queue size to request: readings the sensor may publish between
     *     two Publish responses before one is lost (and reported as a gap)
     */
    public record Config(Path dataDir, TransportSecurity security, double publishingIntervalMs, int queueSize) {
        /**
         * Checks the settings.
         *
         * @param dataDir directory for the operator's application certificate and trust list
         * @param security transport security to request
         * @param publishingIntervalMs requested publishing interval (the sensor grants down to 1 ms)
         * @param queueSize monitored-item queue size to request: readings the sensor may publish between two Publish
         *     responses before one is lost (and reported as a gap)
         * @throws IllegalArgumentException if the publishing interval is not positive or the queue size is outside
         *     1..{@value Operator#MAX_QUEUE_SIZE}
         */
        public Config {
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(security, "security");
            if (!(publishingIntervalMs > 0)) {
                throw new IllegalArgumentException("publishing interval must be positive, got " + publishingIntervalMs);
            }
            if (queueSize < 1 || queueSize > MAX_QUEUE_SIZE) {
                throw new IllegalArgumentException("queue size must be 1.." + MAX_QUEUE_SIZE + ", got " + queueSize);
            }
        }

        /**
         * With the {@link #DEFAULT_QUEUE_SIZE default queue size}.
         *
         * @param dataDir directory for the operator's application certificate and trust list
         * @param security transport security to request
         * @param publishingIntervalMs requested publishing interval, positive
         */
        public Config(Path dataDir, TransportSecurity security, double publishingIntervalMs) {
            this(dataDir, security, publishingIntervalMs, DEFAULT_QUEUE_SIZE);
        }
    }

    /**
     * Default monitored-item queue size: ten seconds of readings at 1,000 per second, far more than
     * the sensor can sign between two Publish responses while the operator keeps up.
     */
    public static final int DEFAULT_QUEUE_SIZE = 10_000;

    /** Largest queue the sensor (Milo) grants. */
    public static final int MAX_QUEUE_SIZE = 65_535;

    /** Longest a lost connection waits for Milo's own reconnect before the operator reopens it. */
    public static final long RECONNECT_INTERVAL_MILLIS = RecordSubscription.RECONNECT_INTERVAL_MILLIS;

    /** Longest {@link #connect} waits for the first connection attempt to come to an end. */
    private static final Duration FIRST_ATTEMPT = Duration.ofSeconds(60);

    /**
     * A sensor's key state as read from its key-state nodes ({@link SensorNodes#KEY_GENERATION} …).
     *
     * @param sensor the connection's name
     * @param generation the sensor's current key generation
     * @param remaining signatures the current key can still make
     * @param secondsLeft NaN while the sensor cannot estimate it
     * @param nextKeyReady whether the sensor's next key is prepared
     * @param alarm empty when all is well
     * @param parameterSet the current key's parameter-set name
     * @param keyIdHex the current key's id in hex
     */
    public record KeyState(
            String sensor,
            long generation,
            long remaining,
            double secondsLeft,
            boolean nextKeyReady,
            String alarm,
            String parameterSet,
            String keyIdHex) {}

    /**
     * Receives the values of sensors' record nodes unverified, for an operator made by
     * {@link #relaying}. Called on the sensor's connection thread, in the sensor's publication
     * order (history backfill first), so a relay that keeps this order per sensor keeps each
     * sensor's readings and key handovers in order.
     */
    public interface RecordRelay {
        /**
         * Where the history backfill of a sensor starts when its subscription is (re)created, e.g.
         * just after the source time of the last record relayed durably; empty: no backfill.
         *
         * @param sensor the connection's name
         * @return the source time to read the history from, or empty
         */
        Optional<Instant> backfillFrom(String sensor);

        /**
         * One value of the sensor's record node exactly as published: a signed record, a key
         * handover record, or bytes that are neither (to be reported by whoever verifies).
         *
         * @param sensor the connection's name
         * @param value the node value's bytes
         * @param receivedAt the operator's UTC wall-clock time of receipt
         */
        void relay(String sensor, byte[] value, Instant receivedAt);
    }

    private final Config config;
    private final RecordRelay relay;
    private final ReadingVerifier defaultVerifier;
    private final KeyChainFollower defaultChains;
    private final Consumer<Observation> listener;
    private final ApplicationIdentity identity;
    private final FileBasedTrustListManager trustList;
    private final MiloClients clients;
    private final List<RecordSubscription> connections = new CopyOnWriteArrayList<>();
    private final Map<Verdict.Reason, AtomicLong> counts = new EnumMap<>(Verdict.Reason.class);
    private volatile Consumer<ConnectionState> connectionListener;
    private Consumer<KeyState> keyStateListener; // guarded by this
    private ScheduledExecutorService keyStatePoller; // guarded by this
    private long keyStatePeriodMillis; // guarded by this
    private final Map<RecordSubscription, ScheduledFuture<?>> keyPolls = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Creates an operator whose sensors are connected with their own {@link SensorVerification}
     * (loads or creates its application certificate; no connection yet).
     *
     * @param config the operator's settings
     * @param listener receives every observation, on the sensor's connection thread; must not block long
     * @throws IOException if the application certificate or trust list cannot be loaded or created
     */
    public Operator(Config config, Consumer<Observation> listener) throws IOException {
        this(config, null, null, listener, null);
    }

    /**
     * Creates an operator whose sensors connected with {@link #connect(String, String)} share
     * {@code verifier} (handover records are then malformed: no key chains are followed).
     *
     * @param config the operator's settings
     * @param verifier the policy for the readings of sensors connected with {@link #connect(String, String)}
     * @param listener receives every observation, on the connection's thread; must not block long
     * @throws IOException if the application certificate or trust list cannot be loaded or created
     */
    public Operator(Config config, ReadingVerifier verifier, Consumer<Observation> listener) throws IOException {
        this(config, Objects.requireNonNull(verifier, "verifier"), null, listener, null);
    }

    /**
     * As {@link #Operator(Config, ReadingVerifier, Consumer)}, following key handovers with {@code chains}.
     *
     * @param config the operator's settings
     * @param verifier the policy for the readings of sensors connected with {@link #connect(String, String)}
     * @param chains the chains of the sensors' pinned keys, or null to treat handover records as malformed
     * @param listener receives every observation, on the connection's thread; must not block long
     * @throws IOException if the application certificate or trust list cannot be loaded or created
     */
    public Operator(Config config, ReadingVerifier verifier, KeyChainFollower chains, Consumer<Observation> listener)
            throws IOException {
        this(config, Objects.requireNonNull(verifier, "verifier"), chains, listener, null);
    }

    /**
     * An operator that verifies nothing and hands every record on to {@code relay} (see
     * {@link RecordRelay}); connect sensors with {@link #connect(String, String, TransportSecurity)}.
     *
     * @param config the operator's settings
     * @param relay receives every record node value
     * @return the relaying operator, not connected yet
     * @throws IOException if the application certificate or trust list cannot be loaded or created
     */
    public static Operator relaying(Config config, RecordRelay relay) throws IOException {
        return new Operator(config, null, null, o -> {}, Objects.requireNonNull(relay, "relay"));
    }

    private Operator(
            Config config,
            ReadingVerifier verifier,
            KeyChainFollower chains,
            Consumer<Observation> listener,
            RecordRelay relay)
            throws IOException {
        this.config = Objects.requireNonNull(config, "config");
        this.defaultVerifier = verifier;
        this.defaultChains = chains;
        this.relay = relay;
        this.listener = Objects.requireNonNull(listener, "listener");
        Path pki = config.dataDir().resolve("pki");
        String appUri = "urn:pqsign:operator";
        this.identity = ApplicationIdentity.loadOrCreate(
                pki.resolve("operator-application.pfx"), appUri, "pqsign operator", "pqsign".toCharArray());
        this.trustList = FileBasedTrustListManager.createAndInitialize(pki);
        this.clients = new MiloClients(identity, appUri, "pqsign operator", trustList);
        for (Verdict.Reason r : Verdict.Reason.values()) {
            counts.put(r, new AtomicLong());
        }
    }

    /**
     * Reports every connection state change from now on (on a connection's thread or Milo's; must not block).
     *
     * @param listener the listener; replaces the previous one
     */
    public void onConnectionChange(Consumer<ConnectionState> listener) {
        this.connectionListener = listener;
    }

    /**
     * The operator's application (transport) certificate, for the sensors' trust lists.
     *
     * @return the certificate
     */
    public X509Certificate applicationCertificate() {
        return identity.certificate();
    }

    /**
     * Adds a sensor's application certificate to the operator's trust list (persisted).
     *
     * @param serverCertificate the sensor's application certificate
     */
    public void trustServer(X509Certificate serverCertificate) {
        trustList.addTrustedCertificate(serverCertificate);
    }

    /**
     * Number of verdicts with the given reason so far, over all connections.
     *
     * @param reason the reason
     * @return the count
     */
    public long count(Verdict.Reason reason) {
        return counts.get(reason).get();
    }

    /**
     * Connects to a sensor with the operator's transport security and default verifier.
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @return the open connection
     * @throws IOException if the first connection attempt fails (nothing keeps trying then)
     * @throws IllegalStateException if this operator has no default verifier
     */
    public RecordSubscription connect(String name, String endpointUrl) throws IOException {
        if (defaultVerifier == null) {
            throw new IllegalStateException("this operator has no default verifier");
        }
        return connect(name, endpointUrl, config.security(), defaultVerifier);
    }

    /**
     * Connects a relaying operator ({@link #relaying}) to a sensor.
     *
     * @param name label used in logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @return the open connection
     * @throws IOException if the first connection attempt fails
     * @throws IllegalStateException if this operator verifies
     */
    public RecordSubscription connect(String name, String endpointUrl, TransportSecurity security) throws IOException {
        if (relay == null) {
            throw new IllegalStateException("a verifying operator connects with the sensor's verifier");
        }
        return firstAttempt(() -> start(name, endpointUrl, security, new RelayingConsumer(name, relay)));
    }

    /**
     * Connects to a sensor verified by a hand-assembled {@code sensorVerifier} (and the operator's chains).
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @param sensorVerifier the policy for this sensor's readings
     * @return the open connection
     * @throws IOException if the first connection attempt fails
     */
    public RecordSubscription connect(
            String name, String endpointUrl, TransportSecurity security, ReadingVerifier sensorVerifier)
            throws IOException {
        return connect(name, endpointUrl, security, sensorVerifier, null);
    }

    /**
     * As {@link #connect(String, String, TransportSecurity, ReadingVerifier)}, in certificate mode
     * when {@code trust} is given (each new key needs a chain it accepts).
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @param sensorVerifier the policy for this sensor's readings
     * @param trust the sensor's device CA binding, or null to follow handovers alone
     * @return the open connection
     * @throws IOException if the first connection attempt fails
     */
    public RecordSubscription connect(
            String name,
            String endpointUrl,
            TransportSecurity security,
            ReadingVerifier sensorVerifier,
            DeviceCaTrust trust)
            throws IOException {
        return connect(name, endpointUrl, security, SensorVerification.of(name, sensorVerifier, defaultChains, trust));
    }

    /**
     * Connects to a sensor and waits for the first attempt: the connection is returned once the
     * sensor's records are subscribed; if that attempt fails, it is closed and the failure thrown.
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @param sensor the sensor's verification
     * @return the open connection
     * @throws IOException if the URL is not valid or the first connection attempt fails
     */
    public RecordSubscription connect(
            String name, String endpointUrl, TransportSecurity security, SensorVerification sensor) throws IOException {
        return firstAttempt(() -> watch(name, endpointUrl, security, sensor));
    }

    /**
     * Starts watching a sensor without waiting: the connection tries (and, when lost, tries again)
     * by itself with a capped back-off, and reports each change to {@link #onConnectionChange}.
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @param sensor the sensor's verification
     * @return the connection, connecting
     * @throws IllegalArgumentException if the URL is not a valid opc.tcp endpoint
     * @throws IllegalStateException if this operator relays
     */
    public RecordSubscription watch(
            String name, String endpointUrl, TransportSecurity security, SensorVerification sensor) {
        if (relay != null) {
            throw new IllegalStateException("a relaying operator verifies nothing");
        }
        return start(name, endpointUrl, security, new VerifyingConsumer(sensor, this::observe));
    }

    private void observe(Observation o) {
        counts.get(o.verdict().reason()).incrementAndGet();
        listener.accept(o);
    }

    private RecordSubscription start(
            String name, String endpointUrl, TransportSecurity security, RecordSubscription.Consumer consumer) {
        SensorEndpoint endpoint = SensorEndpoint.parse(endpointUrl);
        RecordSubscription s = new RecordSubscription(
                name, endpoint, Objects.requireNonNull(security, "security"), config, clients, consumer, state -> {
                    Consumer<ConnectionState> l = connectionListener;
                    if (l != null) {
                        l.accept(state);
                    }
                });
        connections.add(s);
        synchronized (this) {
            if (keyStatePoller != null) {
                schedulePoll(s);
            }
        }
        s.start();
        return s;
    }

    private RecordSubscription firstAttempt(java.util.function.Supplier<RecordSubscription> started)
            throws IOException {
        RecordSubscription s;
        try {
            s = started.get();
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        ConnectionState state;
        try {
            state = s.awaitFirstAttempt(FIRST_ATTEMPT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeConnection(s);
            throw new IOException("interrupted while connecting to " + s.name(), e);
        }
        if (!state.connected()) {
            closeConnection(s);
            throw new IOException("cannot connect operator to " + s.name() + ": " + state.detail());
        }
        return s;
    }

    /**
     * Reads every connected sensor's key-state nodes every {@code every} (a Read, not a
     * subscription: the remaining count changes with every reading) and hands them to
     * {@code listener} on a poller thread. Sensors without those nodes (no rollover) are skipped.
     *
     * @param every the polling period; at least 100 ms is used
     * @param listener receives each sensor's key state; replaces the previous one
     */
    public synchronized void watchKeyState(Duration every, Consumer<KeyState> listener) {
        keyStateListener = Objects.requireNonNull(listener, "listener");
        keyStatePeriodMillis = Math.max(100, every.toMillis());
        if (keyStatePoller == null) {
            keyStatePoller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "pqsign-operator-keys");
                t.setDaemon(true);
                return t;
            });
            for (RecordSubscription s : connections) {
                schedulePoll(s);
            }
        }
    }

    private void schedulePoll(RecordSubscription s) {
        Consumer<KeyState> l = keyStateListener;
        keyPolls.put(
                s,
                keyStatePoller.scheduleWithFixedDelay(
                        () -> {
                            OpcUaClient c = s.client();
                            if (c != null) {
                                KeyStateReader.read(s.name(), c).ifPresent(l);
                            }
                        },
                        0,
                        keyStatePeriodMillis,
                        TimeUnit.MILLISECONDS));
    }

    private void closeConnection(RecordSubscription s) {
        ScheduledFuture<?> poll = keyPolls.remove(s);
        if (poll != null) {
            poll.cancel(false);
        }
        s.close();
        connections.remove(s);
    }

    /** Closes all connections and the trust list. */
    @Override
    public void close() {
        synchronized (this) {
            if (keyStatePoller != null) {
                keyStatePoller.shutdownNow();
            }
        }
        for (RecordSubscription s : connections) {
            closeConnection(s);
        }
        try {
            trustList.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
