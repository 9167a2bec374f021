package dev.pqsign.opcua;

import dev.pqsign.core.Digests;
import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.telemetry.HandoverCheck;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import dev.pqsign.telemetry.operator.DeviceCaTrust;
import dev.pqsign.telemetry.operator.KeyChainFollower;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.RecordCheck;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.sdk.client.UaSession;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import org.eclipse.milo.opcua.stack.core.util.EndpointUtil;

/**
 * The operator console: OPC UA client(s) that subscribe to the {@link SensorNodes#RECORD} node
 * of sensors, verify every notified record by itself with the {@link ReadingVerifier} policy
 * (pinned keys, replay guard, gaps, duplicates, index reuse) and report an {@link Observation} per
 * verdict and per gap. Rejected readings are logged with their reason; nothing a sensor publishes
 * can stop the console.
 *
 * <p>Subscriptions request sampling interval 0 and a short publishing interval (Milo's client
 * defaults of 1000 ms would add up to a second per reading). The client's certificate validator
 * checks server certificates against the explicit trust list under {@code dataDir/pki}; it
 * never trusts everything.
 *
 * <p>{@link #relaying} makes the same client a relay that verifies nothing: it receives every record
 * the same lossless way (queued subscription, history backfill) and hands each value on as
 * published, e.g. to a message broker whose consumers verify.
 */
public final class Operator implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Operator.class.getName());

    /** Requested time between keep-alive messages of an idle subscription. */
    static final double KEEP_ALIVE_INTERVAL_MS = 1000;

    /** Subscription lifetime in keep-alive intervals (OPC UA requires at least 3). */
    private static final long LIFETIME_KEEP_ALIVES = 5;

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

    /** Longest a lost connection waits for Milo's own reconnect before the operator reopens it (and between reopenings). */
    public static final long RECONNECT_INTERVAL_MILLIS = 2000;

    /** Checks lost connections (one daemon thread for all operators). */
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pqsign-operator-reconnect");
        t.setDaemon(true);
        return t;
    });

    /** Told when a sensor connection goes up or down. */
    @FunctionalInterface
    public interface ConnectionListener {
        /**
         * Called after the session to a sensor became active or inactive.
         *
         * @param sensor the connection's name
         * @param connected whether the session is active now
         * @param detail what happened, for the log
         */
        void onConnectionChange(String sensor, boolean connected, String detail);
    }

    private volatile ConnectionListener connectionListener;

    /**
     * Reports every connection state change from now on (on Milo's or the reconnect thread; must not block).
     *
     * @param listener the listener; replaces the previous one
     */
    public void onConnectionChange(ConnectionListener listener) {
        this.connectionListener = listener;
    }

    /** Publications remembered per connection to recognize one delivered twice. */
    static final int RECENTLY_JUDGED = 65_536;

    /** Refused handovers remembered per connection, so a catch-up does not raise the same alarm again. */
    static final int REFUSALS_REMEMBERED = 64;

    /** Records asked for per HistoryRead call of a backfill. */
    static final int BACKFILL_BATCH = 1000;

    /** Largest queue the sensor (Milo) grants. */
    public static final int MAX_QUEUE_SIZE = 65_535;

    /**
     * The outcome for one published reading.
     *
     * @param sensor the connection's name
     * @param sequence the sensor's publication sequence number
     * @param verdict accepted or rejected with a reason
     * @param reading the reading as read (null if it could not be decoded)
     * @param latency monotonic-clock durations (null without a record; meaningful only when sensor and
     *     operator share a process)
     * @param record the record as received (for a gap: the record whose arrival revealed it; null for
     *     an undecodable value)
     * @param receivedAt the operator's UTC wall-clock time of receipt
     * @param gap for a {@link Verdict.Reason#GAP}: the missing range, else null
     * @param handover for a key handover record (and the gaps its retired key left): what the operator
     *     made of it, else null
     */
    public record Observation(
            String sensor,
            long sequence,
            Verdict verdict,
            SignedReading reading,
            LatencyRecord latency,
            SignedRecord record,
            Instant receivedAt,
            Verdict.Gap gap,
            HandoverCheck handover) {

        /**
         * An observation of a reading or a gap.
         *
         * @param sensor the connection's name
         * @param sequence the sensor's publication sequence number
         * @param verdict accepted or rejected with a reason
         * @param reading the reading as read (null if it could not be decoded)
         * @param latency monotonic-clock durations (null without a record; meaningful only when sensor and operator
         *     share a process)
         * @param record the record as received (for a gap: the record whose arrival revealed it; null for an
         *     undecodable value)
         * @param receivedAt the operator's UTC wall-clock time of receipt
         * @param gap for a {@link Verdict.Reason#GAP}: the missing range, else null
         */
        public Observation(
                String sensor,
                long sequence,
                Verdict verdict,
                SignedReading reading,
                LatencyRecord latency,
                SignedRecord record,
                Instant receivedAt,
                Verdict.Gap gap) {
            this(sensor, sequence, verdict, reading, latency, record, receivedAt, gap, null);
        }

        /**
         * The observation as a verdict-stream event.
         *
         * @return the event
         */
        public VerdictEvent event() {
            if (gap != null && handover != null) {
                return VerdictEvent.gap(
                        sensor, KeyId.of(handover.handover().statement().oldKeyId()), gap, receivedAt);
            }
            if (gap != null) {
                return VerdictEvent.gap(sensor, record.keyId(), gap, receivedAt);
            }
            if (handover != null) {
                return VerdictEvent.handover(sensor, handover, receivedAt);
            }
            return VerdictEvent.of(sensor, verdict, record, receivedAt);
        }

        /**
         * One log line: sensor, index, reason, end-to-end and transfer milliseconds, and the reading
         * (control characters replaced) or the rejection detail.
         *
         * @return the line, without a line separator
         */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            sb.append(sensor)
                    .append(" index=")
                    .append(verdict.index())
                    .append(' ')
                    .append(verdict.reason());
            if (latency != null) {
                sb.append(String.format(
                        java.util.Locale.ROOT,
                        " e2e=%.3fms transfer=%.3fms",
                        latency.endToEndNanos() / 1e6,
                        latency.transferNanos() / 1e6));
            }
            String text = verdict.accepted() && reading != null ? reading.reading() : verdict.detail();
            if (text.length() > 120) {
                text = text.substring(0, 120) + "…";
            }
            sb.append(' ');
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                sb.append(Character.isISOControl(c) ? '?' : c);
            }
            return sb.toString();
        }
    }

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

    private static final List<String> KEY_STATE_NODES = List.of(
            SensorNodes.KEY_GENERATION,
            SensorNodes.KEY_REMAINING,
            SensorNodes.KEY_SECONDS_LEFT,
            SensorNodes.KEY_NEXT_READY,
            SensorNodes.KEY_ALARM,
            SensorNodes.PARAMETER_SET,
            SensorNodes.KEY_ID);

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
    private final ReadingVerifier verifier;
    private final KeyChainFollower chains;
    private volatile Consumer<KeyState> keyStateListener;
    private volatile ScheduledExecutorService keyStatePoller;
    private volatile long keyStatePeriodMillis;
    private final Consumer<Observation> listener;
    private final ApplicationIdentity identity;
    private final FileBasedTrustListManager trustList;
    private final String appUri = "urn:pqsign:operator";
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final Map<Verdict.Reason, AtomicLong> counts = new EnumMap<>(Verdict.Reason.class);

    /**
     * Creates the operator (loads or creates its application certificate; no connection yet).
     *
     * @param config the operator's settings
     * @param verifier the policy for the readings of sensors connected with {@link #connect(String, String)}
     * @param listener receives every observation, on the connection's worker thread; must not block long
     * @throws IOException if the application certificate or trust list cannot be loaded or created
     */
    public Operator(Config config, ReadingVerifier verifier, Consumer<Observation> listener) throws IOException {
        this(config, verifier, null, listener);
    }

    /**
     * Creates an operator that also follows key handovers: a handover record on a sensor's record
     * node is checked by {@code chains} (which trusts the new key and retires the old one in
     * {@code verifier} once the handover is verified and durable).
     *
     * @param config the operator's settings
     * @param verifier the policy for the readings of sensors connected with {@link #connect(String, String)}
     * @param chains the chains of the sensors' pinned keys, or null to treat handover records as malformed
     * @param listener receives every observation, on the connection's worker thread; must not block long
     * @throws IOException if the application certificate or trust list cannot be loaded or created
     */
    public Operator(Config config, ReadingVerifier verifier, KeyChainFollower chains, Consumer<Observation> listener)
            throws IOException {
        this(config, Objects.requireNonNull(verifier, "verifier"), chains, listener, null);
    }

    /**
     * An operator that verifies nothing and hands every record on to {@code relay} (see
     * {@link RecordRelay}); connect sensors with {@link #connect(String, String, TransportSecurity)}.
     * It holds no sensor keys and no replay state; {@link #count} stays zero.
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
        this.config = config;
        this.chains = chains;
        this.relay = relay;
        this.verifier = verifier;
        this.listener = Objects.requireNonNull(listener, "listener");
        Path pki = config.dataDir().resolve("pki");
        this.identity = ApplicationIdentity.loadOrCreate(
                pki.resolve("operator-application.pfx"), appUri, "pqsign operator", "pqsign".toCharArray());
        this.trustList = FileBasedTrustListManager.createAndInitialize(pki);
        for (Verdict.Reason r : Verdict.Reason.values()) {
            counts.put(r, new AtomicLong());
        }
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
     * Connects to a sensor (directly or through a relay: the endpoint's advertised address is
     * replaced by the host and port of {@code endpointUrl}) and subscribes to its readings.
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @return the open connection
     * @throws IOException if no matching endpoint exists, the server certificate is not trusted,
     *     or the connection or subscription fails
     */
    public Connection connect(String name, String endpointUrl) throws IOException {
        return connect(name, endpointUrl, config.security(), verifier);
    }

    /**
     * Connects a relaying operator ({@link #relaying}) to a sensor.
     *
     * @param name label used in logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @return the open connection
     * @throws IOException as {@link #connect(String, String)}
     * @throws IllegalStateException if this operator verifies (it needs the sensor's verifier)
     */
    public Connection connect(String name, String endpointUrl, TransportSecurity security) throws IOException {
        if (relay == null) {
            throw new IllegalStateException("a verifying operator connects with the sensor's verifier");
        }
        return open(new Connection(name, endpointUrl, Objects.requireNonNull(security, "security"), null, null));
    }

    /**
     * Connects to a sensor with its own transport security and verifier (its own pinned keys),
     * for an operator that watches several sensors.
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @param sensorVerifier the policy for this sensor's readings
     * @return the open connection
     * @throws IOException if no matching endpoint exists, the server certificate is not trusted,
     *     or the connection or subscription fails
     * @throws IllegalStateException if this operator is a relaying one
     */
    public Connection connect(
            String name, String endpointUrl, TransportSecurity security, ReadingVerifier sensorVerifier)
            throws IOException {
        return connect(name, endpointUrl, security, sensorVerifier, null);
    }

    /**
     * Connects to a sensor followed in certificate mode: besides its handover statement, each new
     * key of the sensor needs a certificate chain that {@code trust} accepts (valid under the plant
     * root, issued by the sensor's device CA), published by the sensor right before the handover;
     * a handover without one is refused ({@link HandoverOutcome#UNCERTIFIED}, an alarm).
     *
     * @param name label used in observations and logs
     * @param endpointUrl the sensor's (or its relay's) endpoint URL
     * @param security transport security for this sensor
     * @param sensorVerifier the policy for this sensor's readings
     * @param trust the sensor's device CA binding, or null to follow handovers alone
     * @return the open connection
     * @throws IOException as {@link #connect(String, String, TransportSecurity, ReadingVerifier)}
     * @throws IllegalStateException if this operator is a relaying one
     */
    public Connection connect(
            String name,
            String endpointUrl,
            TransportSecurity security,
            ReadingVerifier sensorVerifier,
            DeviceCaTrust trust)
            throws IOException {
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(sensorVerifier, "sensorVerifier");
        if (relay != null) {
            throw new IllegalStateException("a relaying operator verifies nothing");
        }
        return open(new Connection(name, endpointUrl, security, sensorVerifier, trust));
    }

    private Connection open(Connection c) throws IOException {
        String endpointUrl = c.endpointUrl;
        try {
            c.open();
        } catch (Exception e) {
            c.close();
            throw new IOException("cannot connect operator to " + endpointUrl + ": " + e.getMessage(), e);
        }
        connections.add(c);
        synchronized (c) {
            c.watchdog = WATCHDOG.scheduleWithFixedDelay(c::watch, 250, 250, TimeUnit.MILLISECONDS);
            ScheduledExecutorService poller = keyStatePoller;
            if (poller != null) {
                c.keyPoll =
                        poller.scheduleWithFixedDelay(c::pollKeyState, 0, keyStatePeriodMillis, TimeUnit.MILLISECONDS);
            }
        }
        return c;
    }

    /**
     * Reads every connected sensor's key-state nodes every {@code every} (a Read, not a
     * subscription: the remaining count changes with every reading) and hands them to
     * {@code listener} on a poller thread. Sensors without those nodes (no rollover) are skipped. Call
     * before {@link #connect}.
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
        }
    }

    /** What reading a sensor's handovers to catch up came to. */
    private enum CatchUp {
        /** At least one handover was followed. */
        FOLLOWED,
        /** The sensor answered; it has no handover this operator could follow now. */
        NOTHING,
        /** The sensor could not be asked (gone, or no answer in time). */
        UNREACHABLE
    }

    private static String digestHex(SignedKeyHandover h) {
        return Hex.encode(Digests.sha256().digest(h.encode()));
    }

    /** A key handover record starts with its own magic, distinct from a signed record's. */
    private static boolean isHandover(byte[] value) {
        return value.length >= 4 && value[0] == 'P' && value[1] == 'Q' && value[2] == 'H' && value[3] == 'O';
    }

    /** Closes all connections and the trust list. */
    @Override
    public void close() {
        if (keyStatePoller != null) {
            keyStatePoller.shutdownNow();
        }
        for (Connection c : connections) {
            c.close();
        }
        connections.clear();
        try {
            trustList.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }

    /** One subscribed sensor. */
    public final class Connection implements AutoCloseable {
        private final String name;
        private final String endpointUrl;
        private final ExecutorService worker;
        private volatile OpcUaClient client;
        private volatile OpcUaSubscription subscription;
        private final AtomicLong overflows = new AtomicLong();
        private final AtomicLong backfilled = new AtomicLong();
        private final AtomicLong backfillFailures = new AtomicLong();
        private boolean connected;
        private boolean closed;
        private long inactiveSince;
        private volatile long lastReopen;
        private ScheduledFuture<?> watchdog;
        private ScheduledFuture<?> keyPoll;
        /**
         * Content digests of the last records judged on this connection, by publication sequence
         * (worker thread only). A record is skipped silently only if the same sequence with the same
         * content was judged: the sequence is unsigned, so it alone must never hide a record.
         */
        private final Map<Long, byte[]> recentlyJudged = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
                return size() > RECENTLY_JUDGED;
            }
        };

        private volatile long revisedQueueSize;
        /** SHA-256 (hex) of the handovers refused on this connection, the latest ones (worker thread only). */
        private final Map<String, Boolean> refused = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > REFUSALS_REMEMBERED;
            }
        };
        /**
         * The sensor's history was not read to the end (a backfill or a handover catch-up failed):
         * whatever arrives now may belong after records not judged yet, so nothing is judged until
         * a backfill reads the history to the end again (worker thread only).
         */
        private volatile boolean behind;
        /** A backfill retry is scheduled (worker thread only). */
        private boolean retryScheduled;
        /** Values held back while {@link #behind}, to be read again from the sensor's history. */
        private final AtomicLong deferred = new AtomicLong();
        /** Of those, the ones no complete backfill has read again yet. */
        private final AtomicLong heldBack = new AtomicLong();
        /** The record node of the current subscription, for backfill retries. */
        private volatile NodeId recordNode;
        /** Relay mode: the latest handover read before a backfill, not relayed yet. */
        private volatile SignedKeyHandover pendingHandover;

        private final TransportSecurity security;
        private final ReadingVerifier connectionVerifier;
        /** The sensor's device CA binding in certificate mode, else null. */
        private final DeviceCaTrust trust;
        /** The latest key certificate chain the sensor published on its record node (worker thread only). */
        private KeyCertificateChain publishedCertificates;

        private Connection(
                String name,
                String endpointUrl,
                TransportSecurity security,
                ReadingVerifier verifier,
                DeviceCaTrust trust) {
            this.name = name;
            this.trust = trust;
            this.endpointUrl = endpointUrl;
            this.security = security;
            this.connectionVerifier = verifier;
            this.worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "pqsign-operator-" + name);
                t.setDaemon(true);
                return t;
            });
        }

        private void open() throws UaException {
            String host = EndpointUtil.getHost(endpointUrl);
            int port = EndpointUtil.getPort(endpointUrl);
            String policy = security == TransportSecurity.NONE
                    ? SecurityPolicy.None.getUri()
                    : SecurityPolicy.Basic256Sha256.getUri();
            MessageSecurityMode mode =
                    security == TransportSecurity.NONE ? MessageSecurityMode.None : MessageSecurityMode.SignAndEncrypt;
            var validator = new DefaultClientCertificateValidator(trustList, new MemoryCertificateQuarantine());
            client = OpcUaClient.create(
                    endpointUrl,
                    endpoints -> endpoints.stream()
                            .filter(e -> policy.equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode)
                            .findFirst()
                            .map(e -> EndpointUtil.updateUrl(e, host, port)),
                    transport -> transport.setEventLoop(MiloThreads.eventLoop()).setExecutor(MiloThreads.executor()),
                    b -> b.setApplicationName(LocalizedText.english("pqsign operator"))
                            .setApplicationUri(appUri)
                            .setKeyPair(identity.keyPair())
                            .setCertificate(identity.certificate())
                            .setCertificateChain(new X509Certificate[] {identity.certificate()})
                            .setCertificateValidator(validator)
                            .setRequestTimeout(Unsigned.uint(10_000)));
            OpcUaClient c = client;
            c.addSessionActivityListener(new SessionActivityListener() {
                @Override
                public void onSessionActive(UaSession session) {
                    if (c == client) {
                        state(true, "session active");
                    }
                }

                @Override
                public void onSessionInactive(UaSession session) {
                    if (c == client) {
                        state(false, "session lost");
                    }
                }
            });
            try {
                c.connect();
                subscribe();
            } catch (UaException | RuntimeException e) {
                // stop its own reconnect attempts; the next open() uses a new client. Not waited for:
                // the caller needs the connect failure, a failed disconnect is only logged.
                var unused = c.disconnectAsync().whenComplete((ignored, error) -> {
                    if (error != null) {
                        LOG.log(Level.DEBUG, "{0}: disconnect after a failed connect: {1}", name, error.getMessage());
                    }
                });
                throw e;
            }
        }

        private synchronized void state(boolean nowConnected, String detail) {
            if (nowConnected == connected) {
                return;
            }
            connected = nowConnected;
            inactiveSince = nowConnected ? 0 : System.nanoTime();
            LOG.log(Level.INFO, "{0}: {1} ({2})", name, nowConnected ? "connected" : "disconnected", detail);
            ConnectionListener l = connectionListener;
            if (l != null) {
                l.onConnectionChange(name, nowConnected, detail);
            }
        }

        /**
         * Whether the session to the sensor is active now.
         *
         * @return whether the session is active
         */
        public synchronized boolean connected() {
            return connected;
        }

        private void pollKeyState() {
            OpcUaClient c = client;
            if (c == null || !connected()) {
                return;
            }
            try {
                UShort ns = c.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
                if (ns == null) {
                    return;
                }
                List<NodeId> ids =
                        KEY_STATE_NODES.stream().map(n -> new NodeId(ns, n)).toList();
                List<DataValue> v = c.readValues(0.0, TimestampsToReturn.Neither, ids);
                for (DataValue d : v) {
                    if (d.statusCode() == null
                            || !d.statusCode().isGood()
                            || d.value() == null
                            || d.value().value() == null) {
                        return; // a sensor without rollover, or one that has not published yet
                    }
                }
                keyStateListener.accept(new KeyState(
                        name,
                        ((Number) v.get(0).value().value()).longValue(),
                        ((Number) v.get(1).value().value()).longValue(),
                        ((Number) v.get(2).value().value()).doubleValue(),
                        (Boolean) v.get(3).value().value(),
                        String.valueOf(v.get(4).value().value()),
                        String.valueOf(v.get(5).value().value()),
                        Hex.encode(((ByteString) v.get(6).value().value()).bytesOrEmpty())));
            } catch (UaException | RuntimeException e) {
                // A sensor that is down or restarting: the next poll tries again.
                LOG.log(Level.DEBUG, "{0}: cannot read the key state: {1}", name, e.getMessage());
            }
        }

        /**
         * Milo waits up to 16 s between its own reconnect attempts; a connection down longer than
         * {@link #RECONNECT_INTERVAL_MILLIS} is instead reopened with a new client (which
         * subscribes and backfills again) every {@link #RECONNECT_INTERVAL_MILLIS}.
         */
        private void watch() {
            long since;
            synchronized (this) {
                if (closed || connected || inactiveSince == 0) {
                    return;
                }
                since = inactiveSince;
            }
            long now = System.nanoTime();
            if (now - since < TimeUnit.MILLISECONDS.toNanos(RECONNECT_INTERVAL_MILLIS)
                    || now - lastReopen < TimeUnit.MILLISECONDS.toNanos(RECONNECT_INTERVAL_MILLIS)) {
                return;
            }
            lastReopen = now;
            OpcUaClient old = client;
            try {
                old.disconnectAsync().get(2, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // the old session is gone either way
            }
            try {
                synchronized (this) {
                    if (closed) {
                        return;
                    }
                }
                open();
            } catch (UaException | RuntimeException e) {
                LOG.log(Level.DEBUG, "{0}: reconnect failed: {1}", name, e.getMessage());
            }
        }

        /**
         * Creates the subscription: one data item on the signed-record node, sampling interval 0.
         * Called again when Milo reconnects to a restarted sensor and cannot transfer the old one.
         */
        private void subscribe() throws UaException {
            OpcUaClient subscribedClient = client;
            UShort ns = client.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
            if (ns == null) {
                throw new UaException(
                        org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NodeIdUnknown,
                        "server has no namespace " + SensorNodes.NAMESPACE_URI);
            }
            OpcUaSubscription sub = new OpcUaSubscription(client, config.publishingIntervalMs());
            // This constructor keeps the keep-alive count Milo derives for its 1000 ms default
            // interval (10, lifetime 50): at 1 ms that is an empty Publish exchange every 10 ms per
            // sensor, about one per reading in the demo, and a subscription that dies after 50 ms
            // without Publish requests. Derive both from the interval actually requested instead.
            long keepAliveCount = Math.min(0xffffffffL / LIFETIME_KEEP_ALIVES, Math.max(1, (long)
                    Math.ceil(KEEP_ALIVE_INTERVAL_MS / config.publishingIntervalMs())));
            sub.setMaxKeepAliveCount(Unsigned.uint(keepAliveCount));
            sub.setLifetimeCount(Unsigned.uint(keepAliveCount * LIFETIME_KEEP_ALIVES));
            sub.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
                @Override
                public void onTransferFailed(
                        OpcUaSubscription failed, org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode status) {
                    if (subscribedClient != client) {
                        return; // a client replaced since; the new one subscribed by itself
                    }
                    LOG.log(
                            Level.INFO,
                            "{0}: subscription lost after reconnect ({1}); subscribing again",
                            name,
                            status);
                    try {
                        worker.execute(() -> {
                            try {
                                subscribe();
                            } catch (UaException | RuntimeException e) {
                                LOG.log(Level.WARNING, "{0}: cannot subscribe again: {1}", name, e.getMessage());
                            }
                        });
                    } catch (java.util.concurrent.RejectedExecutionException closing) {
                        // connection is closing
                    }
                }
            });
            sub.create();
            // The backfill runs on the worker before any live notification: those queue behind it,
            // so the missed readings are judged in index order and none is taken for a gap.
            CountDownLatch subscribed = new CountDownLatch(1);
            NodeId recordNode = new NodeId(ns, SensorNodes.RECORD);
            this.recordNode = recordNode;
            try {
                worker.execute(() -> backfill(subscribed, recordNode));
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                subscribed.countDown();
            }
            try {
                subscribeRecords(sub, recordNode);
            } finally {
                subscribed.countDown();
            }
        }

        private void subscribeRecords(OpcUaSubscription sub, NodeId recordNode) throws UaException {
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(recordNode);
            item.setSamplingInterval(0.0);
            // Every record must arrive: a queue for bursts between two Publish responses, and when
            // it is full the newest value is marked with the overflow bit instead of silently
            // dropping the oldest (the index sequence then shows what was lost).
            item.setQueueSize(Unsigned.uint(config.queueSize()));
            item.setDiscardOldest(false);
            item.setDataValueListener((i, value) -> {
                try {
                    worker.execute(() -> onNotification(value, true));
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    // connection is closing; late notifications are dropped
                }
            });
            sub.addMonitoredItem(item);
            sub.synchronizeMonitoredItems();
            long granted = item.getRevisedQueueSize().map(UInteger::longValue).orElse(0L);
            if (granted < config.queueSize()) {
                LOG.log(
                        Level.WARNING,
                        "{0}: the sensor granted a queue of {1} instead of {2} readings",
                        name,
                        granted,
                        config.queueSize());
            }
            revisedQueueSize = granted;
            subscription = sub;
        }

        /**
         * The publishing interval the server granted, in milliseconds.
         *
         * @return the granted interval
         */
        public double revisedPublishingIntervalMs() {
            return subscription.getRevisedPublishingInterval().orElse(Double.NaN);
        }

        /**
         * The keep-alive interval the server granted (keep-alive count × publishing interval), in milliseconds.
         *
         * @return the granted keep-alive interval
         */
        public double revisedKeepAliveIntervalMs() {
            return subscription
                            .getRevisedMaxKeepAliveCount()
                            .map(UInteger::doubleValue)
                            .orElse(Double.NaN)
                    * revisedPublishingIntervalMs();
        }

        /**
         * Notifications that arrived with the overflow bit (the sensor's queue for us was full).
         *
         * @return the count since the connection was made
         */
        public long overflows() {
            return overflows.get();
        }

        /**
         * Records read from the sensor's history on (re)connect.
         *
         * @return the count since the connection was made
         */
        public long backfilled() {
            return backfilled.get();
        }

        /**
         * HistoryReads of a backfill that failed (the connection then holds values back and retries).
         *
         * @return the count since the connection was made
         */
        public long backfillFailures() {
            return backfillFailures.get();
        }

        /**
         * Values received while the sensor's history was not read to the end, held back unjudged:
         * the next complete backfill reads them again from the history (or reports them as gaps).
         *
         * @return the count since the connection was made
         */
        public long deferred() {
            return deferred.get();
        }

        /**
         * The monitored-item queue size the sensor granted.
         *
         * @return the granted queue size
         */
        public long revisedQueueSize() {
            return revisedQueueSize;
        }

        /**
         * Reads, from the sensor's history, every record after the last one accepted (or all it
         * holds, on first contact) and judges each like a live one. A sensor without history
         * answers Bad_HistoryOperationUnsupported: what it no longer has is then reported as gaps.
         *
         * <p>A backfill cut off (the sensor died between two HistoryReads, or the session was
         * replaced) must not let the live notifications queued behind it be judged: a live reading
         * judged first would make everything the history still holds before it look lost (a false
         * gap, and the history's records would then be refused as replays). See
         * {@link #readBackfill}: what arrives is held back until a backfill reads to the end.
         */
        private void backfill(CountDownLatch subscribed, NodeId recordNode) {
            try {
                if (!subscribed.await(60, TimeUnit.SECONDS)) {
                    return;
                }
                if (relay != null) {
                    pendingHandover = latestHandover();
                }
                readBackfill(recordNode);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                SignedKeyHandover pending = pendingHandover;
                if (relay != null && pending != null) {
                    // no record of its new key in the history: relayed after the old key's readings
                    pendingHandover = null;
                    relay.relay(name, pending.encode(), Instant.now());
                }
            }
        }

        /**
         * Reads the history from after the last record judged to its end (worker thread). Values
         * notified live queue behind this and are judged after it; if the read breaks off (the
         * sensor went away, a request timed out), those values may belong after records not read
         * yet (a key handover among them), so they are held back ({@link #behind}) until a later
         * backfill — of a new subscription, or a retry while this one lives — reads to the end.
         */
        private void readBackfill(NodeId recordNode) {
            boolean retry = behind;
            behind = false;
            Optional<Instant> from = relay != null ? relay.backfillFrom(name) : connectionVerifier.backfillFrom();
            if (from.isEmpty()) {
                long lost = heldBack.getAndSet(0);
                if (lost > 0) {
                    LOG.log(
                            Level.WARNING,
                            "{0}: {1} values held back cannot be read again: no position in the sensor''s history",
                            name,
                            lost);
                }
                return;
            }
            // OPC UA times are 100 ns ticks: round up so "after the last accepted" stays after it.
            Instant start = from.get();
            Instant tick = Instant.ofEpochSecond(start.getEpochSecond(), start.getNano() / 100 * 100L);
            if (tick.isBefore(start)) {
                start = tick.plusNanos(100);
            }
            try {
                readHistory(recordNode, start, dv -> {
                    if (!behind) {
                        backfilled.incrementAndGet();
                        onNotification(dv, false);
                    }
                });
            } catch (UaException | RuntimeException e) {
                backfillFailures.incrementAndGet();
                // (MessageFormat: a quote must be doubled, or the arguments are not substituted)
                LOG.log(
                        retry ? Level.DEBUG : Level.WARNING,
                        "{0}: backfill from the sensor''s history failed: {1}",
                        name,
                        String.valueOf(e));
                fallBehind();
                return;
            }
            if (!behind && heldBack.getAndSet(0) > 0) {
                LOG.log(Level.INFO, "{0}: the sensor''s history was read to the end again", name);
            }
        }

        private void hold() {
            deferred.incrementAndGet();
            heldBack.incrementAndGet();
        }

        /**
         * The history was not read to the end: hold back what arrives until a backfill reads it
         * to the end (worker thread).
         */
        private void fallBehind() {
            if (!behind) {
                behind = true;
                LOG.log(
                        Level.WARNING,
                        "{0}: readings are held back until the sensor''s history can be read again",
                        name);
            }
            scheduleBackfillRetry();
        }

        /** Reads the history again in {@link #RECONNECT_INTERVAL_MILLIS} if still behind then (worker thread). */
        private void scheduleBackfillRetry() {
            if (retryScheduled) {
                return;
            }
            retryScheduled = true;
            // nothing to wait for: the task hands the retry to the worker, which reports its outcome
            var unused = WATCHDOG.schedule(
                    () -> {
                        try {
                            worker.execute(() -> {
                                retryScheduled = false;
                                NodeId node = recordNode;
                                if (behind && node != null && !isClosed()) {
                                    readBackfill(node);
                                }
                            });
                        } catch (java.util.concurrent.RejectedExecutionException closing) {
                            // connection is closing
                        }
                    },
                    RECONNECT_INTERVAL_MILLIS,
                    TimeUnit.MILLISECONDS);
        }

        private synchronized boolean isClosed() {
            return closed;
        }

        /**
         * Reads the raw history of {@code node} from {@code start} on, batch by batch (continuation
         * points), handing each value to {@code each}. Returns false if the sensor has no such
         * history (then nothing was handed over).
         */
        private boolean readHistory(NodeId node, Instant start, Consumer<DataValue> each) throws UaException {
            ByteString cp = null;
            do {
                HistoryReadValueId id = new HistoryReadValueId(node, null, QualifiedName.NULL_VALUE, cp);
                HistoryReadResponse response = client.historyRead(
                        new ReadRawModifiedDetails(
                                false,
                                new DateTime(start),
                                DateTime.MAX_DATE_TIME,
                                Unsigned.uint(BACKFILL_BATCH),
                                false),
                        TimestampsToReturn.Source,
                        false,
                        List.of(id));
                HistoryReadResult[] results = response.getResults();
                if (results == null
                        || results.length != 1
                        || !results[0].getStatusCode().isGood()) {
                    LOG.log(
                            Level.INFO,
                            "{0}: no history of {1} ({2})",
                            name,
                            node.getIdentifier(),
                            results == null || results.length == 0 ? "no result" : results[0].getStatusCode());
                    return false;
                }
                ExtensionObject data = results[0].getHistoryData();
                if (data != null
                        && data.decode(client.getStaticEncodingContext()) instanceof HistoryData h
                        && h.getDataValues() != null) {
                    for (DataValue dv : h.getDataValues()) {
                        each.accept(dv);
                    }
                }
                cp = results[0].getContinuationPoint();
            } while (cp != null && cp.isNotNull());
            return true;
        }

        private void onNotification(DataValue notified, boolean live) {
            try {
                handle(notified, live);
            } catch (RuntimeException e) {
                // Nothing a sensor publishes may stop the console.
                LOG.log(Level.ERROR, name + ": unexpected failure handling a notification", e);
            }
        }

        private void handle(DataValue notified, boolean live) {
            long received = System.nanoTime();
            Instant receivedAt = Instant.now();
            StatusCode status = notified.statusCode();
            if (live && status != null && status.isOverflowSet()) {
                // The server's queue for this item overflowed: readings were dropped there. The
                // index sequence shows which (reported as GAP when the next reading is accepted).
                overflows.incrementAndGet();
                LOG.log(Level.WARNING, "{0}: the sensor's notification queue overflowed; readings were lost", name);
            }
            if (behind) {
                hold(); // read again by the next complete backfill
                return;
            }
            Object value = notified.value() == null ? null : notified.value().value();
            if (value == null
                    && status != null
                    && status.value() == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_WaitingForInitialData) {
                return; // no reading published yet
            }
            if (relay != null) {
                relayValue(value, status, receivedAt);
                return;
            }
            if (!(value instanceof ByteString bytes) || bytes.bytes() == null) {
                emit(
                        -1,
                        connectionVerifier.malformed(
                                -1,
                                "record node holds "
                                        + (value == null
                                                ? "no value (" + status + ")"
                                                : value.getClass().getSimpleName())),
                        null,
                        null,
                        receivedAt);
                return;
            }
            if (chains != null && isHandover(bytes.bytesOrEmpty())) {
                handleHandover(bytes.bytesOrEmpty(), receivedAt, live);
                return;
            }
            if (KeyCertificateChain.hasMagic(bytes.bytesOrEmpty())) {
                // Not a reading: the certificates of the key the next handover introduces.
                publishedCertificates = decodeCertificates(bytes.bytesOrEmpty());
                return;
            }
            SignedRecord record;
            try {
                record = SignedRecord.decode(bytes.bytesOrEmpty());
            } catch (IllegalArgumentException e) {
                emit(
                        -1,
                        connectionVerifier.malformed(-1, "undecodable record: " + e.getMessage()),
                        null,
                        null,
                        receivedAt);
                return;
            }
            byte[] digest = record.contentDigest();
            byte[] judged = recentlyJudged.get(record.sequence());
            if (judged != null && MessageDigest.isEqual(judged, digest)) {
                return; // this very publication was judged already (from the history, or delivered twice)
            }
            long verifyStart = System.nanoTime();
            if (chains != null && !connectionVerifier.trusts(record.keyId())) {
                // A key this operator has not followed to (yet): its handover comes first from the
                // sensor's list. A reading is never judged before the operator could ask for it.
                if (catchUpHandover(receivedAt) == CatchUp.UNREACHABLE) {
                    hold();
                    fallBehind();
                    return;
                }
            }
            recentlyJudged.put(record.sequence(), digest);
            RecordCheck check = connectionVerifier.check(record);
            if (check.verdict().reason() == Verdict.Reason.UNKNOWN_KEY) {
                // The sensor has no verified handover to this key (now): judged again if a later
                // backfill brings the record once more.
                recentlyJudged.remove(record.sequence());
            }
            long verdictAt = System.nanoTime();
            for (Verdict.Gap g : check.gaps()) {
                VerdictEvent gap = VerdictEvent.gap(name, record.keyId(), g, receivedAt);
                counts.get(Verdict.Reason.GAP).incrementAndGet();
                listener.accept(
                        new Observation(name, record.sequence(), gap.verdict(), null, null, record, receivedAt, g));
            }
            LatencyRecord latency = new LatencyRecord(
                    record.signNanos(),
                    received - record.publishNanoTime(),
                    verdictAt - verifyStart,
                    verdictAt - record.signStartNanoTime());
            emit(record.sequence(), check.verdict(), record, latency, receivedAt);
        }

        /**
         * Hands a record-node value on unverified. The same publication seen twice (from the
         * history and live) is relayed once; before the first record of a key announced by the
         * handover read at subscription time, that handover is relayed, so a relay that was away
         * during a rollover still delivers the handover ahead of the new key's readings.
         */
        private void relayValue(Object value, StatusCode status, Instant receivedAt) {
            if (!(value instanceof ByteString bytes) || bytes.bytes() == null) {
                LOG.log(
                        Level.WARNING,
                        "{0}: record node holds {1}; nothing relayed",
                        name,
                        value == null
                                ? "no value (" + status + ")"
                                : value.getClass().getSimpleName());
                return;
            }
            byte[] v = bytes.bytesOrEmpty();
            if (isHandover(v)) {
                pendingHandover = null;
                relay.relay(name, v, receivedAt);
                return;
            }
            try {
                SignedRecord record = SignedRecord.decode(v);
                byte[] digest = record.contentDigest();
                byte[] seen = recentlyJudged.get(record.sequence());
                if (seen != null && MessageDigest.isEqual(seen, digest)) {
                    return;
                }
                recentlyJudged.put(record.sequence(), digest);
                SignedKeyHandover pending = pendingHandover;
                if (pending != null
                        && Arrays.equals(
                                pending.statement().newKeyId(), record.keyId().bytes())) {
                    pendingHandover = null;
                    relay.relay(name, pending.encode(), receivedAt);
                }
            } catch (IllegalArgumentException e) {
                // not a record: relayed as is, for the verifier to report
            }
            relay.relay(name, v, receivedAt);
        }

        /** Reads the sensor's latest key handover (relay mode, before a backfill); null if none. */
        private SignedKeyHandover latestHandover() {
            try {
                UShort ns = client.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
                if (ns == null) {
                    return null;
                }
                DataValue dv =
                        client.readValue(0.0, TimestampsToReturn.Neither, new NodeId(ns, SensorNodes.KEY_HANDOVER));
                if (dv.value() != null && dv.value().value() instanceof ByteString b && b.bytesOrEmpty().length > 0) {
                    return SignedKeyHandover.decode(b.bytesOrEmpty());
                }
            } catch (UaException | RuntimeException e) {
                LOG.log(Level.DEBUG, "{0}: cannot read the latest key handover: {1}", name, e.getMessage());
            }
            return null;
        }

        /**
         * A record of a key this operator does not know yet, from a sensor whose handovers it missed
         * (it was down while the sensor rolled over, and the backfill did not bring them): reads the
         * handovers the sensor keeps (the history of {@link SensorNodes#KEY_HANDOVER}) and follows,
         * in order, each one newer than its chain — in certificate mode each with its key's
         * certificate chain ({@link SensorCertificates}); a sensor without that history gives its
         * latest handover only, followed if it is the next one.
         */
        private CatchUp catchUpHandover(Instant receivedAt) {
            if (chains == null) {
                return CatchUp.NOTHING;
            }
            try {
                UShort ns = client.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
                if (ns == null) {
                    return CatchUp.NOTHING;
                }
                // Only the handovers newer than the chain they belong to are kept (and followed in
                // order below); older ones were followed already and are skipped without a verdict.
                List<byte[]> newer = new ArrayList<>();
                boolean served = readHistory(new NodeId(ns, SensorNodes.KEY_HANDOVER), Instant.EPOCH, v -> {
                    if (v.value() != null && v.value().value() instanceof ByteString b && isNewer(b.bytesOrEmpty())) {
                        newer.add(b.bytesOrEmpty());
                    }
                });
                if (served) {
                    SensorCertificates certificates = new SensorCertificates();
                    boolean followed = false;
                    for (byte[] record : newer) {
                        HandoverCheck check = chains.receive(
                                record, connectionVerifier, trust, certificates.forHandover(record), Instant.now());
                        if (check.outcome() == HandoverOutcome.ALREADY_FOLLOWED) {
                            continue; // followed meanwhile (the same handover listed twice)
                        }
                        if (check.outcome() != HandoverOutcome.FOLLOWED) {
                            // The chain is stuck there: the later ones cannot follow. Raised once,
                            // not again for every reading of the key it would have introduced.
                            if (!alreadyRefused(check)) {
                                announce(check, receivedAt);
                            }
                            break;
                        }
                        announce(check, receivedAt);
                        followed = true;
                    }
                    return followed ? CatchUp.FOLLOWED : CatchUp.NOTHING;
                }
                // One Read: the namespace serves it under one lock, so the certificates belong to the handover.
                List<DataValue> dv = client.readValues(
                        0.0,
                        TimestampsToReturn.Neither,
                        List.of(
                                new NodeId(ns, SensorNodes.KEY_HANDOVER),
                                new NodeId(ns, SensorNodes.KEY_CERTIFICATES)));
                if (!(dv.get(0).value() != null && dv.get(0).value().value() instanceof ByteString b)
                        || b.bytesOrEmpty().length == 0) {
                    return CatchUp.NOTHING;
                }
                KeyCertificateChain certificates = null;
                if (dv.get(1).value() != null
                        && dv.get(1).value().value() instanceof ByteString c
                        && c.bytesOrEmpty().length > 0) {
                    certificates = decodeCertificates(c.bytesOrEmpty());
                }
                HandoverCheck before =
                        chains.receive(b.bytesOrEmpty(), connectionVerifier, trust, certificates, Instant.now());
                if (before.outcome() != HandoverOutcome.FOLLOWED) {
                    return CatchUp.NOTHING; // already followed (then the key is not this sensor's), or not the next one
                }
                announce(before, receivedAt);
                return CatchUp.FOLLOWED;
            } catch (UaException e) {
                // The sensor went away or did not answer in time: whether it has a handover to
                // this key is not known, so nothing that depends on it may be judged now.
                LOG.log(Level.DEBUG, "{0}: cannot read the key handovers: {1}", name, e.getMessage());
                return CatchUp.UNREACHABLE;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "{0}: cannot read the key handovers: {1}", name, e.getMessage());
                return CatchUp.NOTHING;
            }
        }

        /**
         * Whether a handover from the sensor's list is newer than the chain it belongs to (an
         * undecodable one counts as newer: the follower judges it and reports it as malformed).
         */
        private boolean isNewer(byte[] record) {
            try {
                SignedKeyHandover h = SignedKeyHandover.decode(record);
                KeyChain chain = chains.chain(h.statement().chainId());
                return chain == null
                        || h.statement().sequence() > chain.current().generation();
            } catch (KeyFormatException e) {
                return true;
            }
        }

        /**
         * The certificate chains a sensor keeps for its keys, for handovers judged in certificate
         * mode: the chain the sensor published on its record node if it certifies the handover's
         * new key (the live case), else the one for that key in the history of
         * {@link SensorNodes#KEY_CERTIFICATES} (each handover's chain; read once, when first
         * needed), else, from a sensor without that history, the node's current value. Which chain
         * goes with which handover is decided by the key its certificate names; whether that chain
         * is acceptable is the follower's decision ({@link DeviceCaTrust}), as for a live one.
         */
        private final class SensorCertificates {
            private Map<PqPublicKey, KeyCertificateChain> byKey;

            /** The chain for the new key of {@code record}; null outside certificate mode, or if the sensor has none. */
            KeyCertificateChain forHandover(byte[] record) throws UaException {
                if (trust == null) {
                    return null;
                }
                PqPublicKey key;
                try {
                    key = SignedKeyHandover.decode(record).statement().newKey();
                } catch (KeyFormatException e) {
                    return publishedCertificates; // judged (and reported as malformed) by the follower
                }
                KeyCertificateChain published = publishedCertificates;
                if (published != null && certifies(published, key)) {
                    return published;
                }
                if (byKey == null) {
                    byKey = load();
                }
                return byKey.get(key);
            }

            private Map<PqPublicKey, KeyCertificateChain> load() throws UaException {
                Map<PqPublicKey, KeyCertificateChain> out = new HashMap<>();
                UShort ns = client.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
                if (ns == null) {
                    return out;
                }
                NodeId node = new NodeId(ns, SensorNodes.KEY_CERTIFICATES);
                Consumer<DataValue> add = v -> {
                    if (v.value() != null && v.value().value() instanceof ByteString b && b.bytesOrEmpty().length > 0) {
                        KeyCertificateChain c = decodeCertificates(b.bytesOrEmpty());
                        if (c != null) {
                            try {
                                out.put(c.leaf().publicKey(), c);
                            } catch (RuntimeException e) {
                                LOG.log(Level.WARNING, "{0}: key certificate chain: {1}", name, e.getMessage());
                            }
                        }
                    }
                };
                if (!readHistory(node, Instant.EPOCH, add)) {
                    add.accept(client.readValue(0.0, TimestampsToReturn.Neither, node));
                }
                return out;
            }
        }

        private static boolean certifies(KeyCertificateChain chain, PqPublicKey key) {
            try {
                return chain.leaf().publicKey().equals(key);
            } catch (RuntimeException e) {
                return false; // the follower reports what is wrong with it
            }
        }

        private void handleHandover(byte[] value, Instant receivedAt, boolean live) {
            HandoverCheck check;
            try {
                check = judgeHandover(value);
                if (!live && check.outcome() == HandoverOutcome.ALREADY_FOLLOWED) {
                    // Served again by a backfill that starts before it: judged once, like a reading.
                    return;
                }
                if (check.outcome() == HandoverOutcome.OUT_OF_ORDER) {
                    CatchUp caught = catchUpHandover(receivedAt);
                    if (caught == CatchUp.UNREACHABLE) {
                        throw new UaException(
                                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_CommunicationError,
                                "the sensor's handovers cannot be read");
                    }
                    if (caught == CatchUp.FOLLOWED) {
                        // The handovers in between came from the sensor's list, this one with them.
                        check = judgeHandover(value);
                        if (check.outcome() == HandoverOutcome.ALREADY_FOLLOWED) {
                            return;
                        }
                    }
                }
            } catch (UaException e) {
                // What the handover needs (the handovers before it, its key's certificates) is in
                // the sensor's history: judged when the history is read again.
                hold();
                fallBehind();
                return;
            }
            announce(check, receivedAt);
        }

        /**
         * Judges a handover record from the record node. In certificate mode the next handover
         * needs its key's chain: one from the history comes without the chain the sensor published
         * before it live, so it is looked up in the sensor's list of chains.
         */
        private HandoverCheck judgeHandover(byte[] value) throws UaException {
            KeyCertificateChain certificates = publishedCertificates;
            if (trust != null && isNext(value)) {
                certificates = new SensorCertificates().forHandover(value);
            }
            return chains.receive(value, connectionVerifier, trust, certificates, Instant.now());
        }

        /** Whether a handover record is the next one of the chain it belongs to. */
        private boolean isNext(byte[] record) {
            try {
                SignedKeyHandover h = SignedKeyHandover.decode(record);
                KeyChain chain = chains.chain(h.statement().chainId());
                return chain != null
                        && h.statement().sequence() == chain.current().generation() + 1;
            } catch (KeyFormatException e) {
                return false;
            }
        }

        /** A published key certificate chain, or null (logged) if it cannot be decoded: a handover then lacks it. */
        private KeyCertificateChain decodeCertificates(byte[] value) {
            try {
                return KeyCertificateChain.decode(value);
            } catch (KeyFormatException e) {
                LOG.log(Level.WARNING, "{0}: undecodable key certificate chain: {1}", name, e.getMessage());
                return null;
            }
        }

        /** Whether this very handover was refused (an alarm raised) on this connection before. */
        private boolean alreadyRefused(HandoverCheck check) {
            return check.handover() != null && refused.containsKey(digestHex(check.handover()));
        }

        private void announce(HandoverCheck check, Instant receivedAt) {
            if (check.outcome().isAlarm() && check.handover() != null) {
                refused.put(digestHex(check.handover()), Boolean.TRUE);
            }
            for (Verdict.Gap g : check.gaps()) {
                counts.get(Verdict.Reason.GAP).incrementAndGet();
                Verdict v = VerdictEvent.gap(
                                name, KeyId.of(check.handover().statement().oldKeyId()), g, receivedAt)
                        .verdict();
                listener.accept(new Observation(name, -1, v, null, null, null, receivedAt, g, check));
            }
            Verdict v = check.verdict();
            counts.get(v.reason()).incrementAndGet();
            listener.accept(new Observation(name, -1, v, null, null, null, receivedAt, null, check));
        }

        private void emit(long seq, Verdict verdict, SignedRecord record, LatencyRecord latency, Instant receivedAt) {
            counts.get(verdict.reason()).incrementAndGet();
            listener.accept(new Observation(
                    name, seq, verdict, record == null ? null : record.reading(), latency, record, receivedAt, null));
        }

        /** Disconnects; pending notifications are dropped. */
        @Override
        public void close() {
            synchronized (this) {
                closed = true;
                if (watchdog != null) {
                    watchdog.cancel(false);
                }
                if (keyPoll != null) {
                    keyPoll.cancel(false);
                }
            }
            worker.shutdownNow();
            if (behind && heldBack.get() > 0) {
                // Nothing lost without a report: these were received but never judged.
                LOG.log(
                        Level.WARNING,
                        "{0}: {1} values received since the sensor''s history was last read to the end were"
                                + " not judged (held back for a backfill that never completed)",
                        name,
                        heldBack.get());
            }
            if (client != null) {
                try {
                    client.disconnectAsync().get(5, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // the session is gone either way
                }
            }
            connections.remove(this);
        }
    }
}
