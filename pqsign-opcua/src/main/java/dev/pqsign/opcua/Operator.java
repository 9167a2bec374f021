package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.Publication;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.ReadingVerifier;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.Verdict;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.util.EndpointUtil;

/**
 * The operator console: OPC UA client(s) that subscribe to sensors, read each published reading
 * with one Read request of all {@link SensorNodes#SNAPSHOT} nodes, apply the
 * {@link ReadingVerifier} policy (pinned keys, replay guard) and report an {@link Observation} per
 * reading. Rejected readings are logged with their reason; nothing a sensor publishes can stop the
 * console.
 *
 * <p>Subscriptions request sampling interval 0 and a short publishing interval (Milo's client
 * defaults of 1000 ms would add up to a second per reading). The client's certificate validator
 * checks server certificates against the explicit trust list under {@code dataDir/pki}; it
 * never trusts everything.
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
     */
    public record Config(Path dataDir, TransportSecurity security, double publishingIntervalMs) {
        public Config {
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(security, "security");
            if (!(publishingIntervalMs > 0)) {
                throw new IllegalArgumentException("publishing interval must be positive, got " + publishingIntervalMs);
            }
        }
    }

    /**
     * The outcome for one published reading.
     *
     * @param sensor the connection's name
     * @param sequence the sensor's publication sequence number
     * @param verdict accepted or rejected with a reason
     * @param reading the reading as read (null if it could not be decoded)
     * @param latency durations (null if the sensor published no timing)
     */
    public record Observation(String sensor, long sequence, Verdict verdict, SignedReading reading, LatencyRecord latency) {

        /**
         * One log line: sensor, index, reason, end-to-end and transfer milliseconds, and the reading
         * (control characters replaced) or the rejection detail.
         */
        public String describe() {
            StringBuilder sb = new StringBuilder();
            sb.append(sensor).append(" index=").append(verdict.index()).append(' ').append(verdict.reason());
            if (latency != null) {
                sb.append(String.format(java.util.Locale.ROOT, " e2e=%.3fms transfer=%.3fms",
                        latency.endToEndNanos() / 1e6, latency.transferNanos() / 1e6));
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

    private final Config config;
    private final ReadingVerifier verifier;
    private final Consumer<Observation> listener;
    private final ApplicationIdentity identity;
    private final FileBasedTrustListManager trustList;
    private final String appUri = "urn:pqsign:operator";
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final Map<Verdict.Reason, AtomicLong> counts = new EnumMap<>(Verdict.Reason.class);

    /**
     * Creates the operator (loads or creates its application certificate; no connection yet).
     *
     * @param listener receives every observation, on the connection's worker thread; must not block long
     */
    public Operator(Config config, ReadingVerifier verifier, Consumer<Observation> listener) throws IOException {
        this.config = config;
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.listener = Objects.requireNonNull(listener, "listener");
        Path pki = config.dataDir().resolve("pki");
        this.identity = ApplicationIdentity.loadOrCreate(pki.resolve("operator-application.pfx"), appUri,
                "pqsign operator", "pqsign".toCharArray());
        this.trustList = FileBasedTrustListManager.createAndInitialize(pki);
        for (Verdict.Reason r : Verdict.Reason.values()) {
            counts.put(r, new AtomicLong());
        }
    }

    /** The operator's application (transport) certificate, for the sensors' trust lists. */
    public X509Certificate applicationCertificate() {
        return identity.certificate();
    }

    /** Adds a sensor's application certificate to the operator's trust list (persisted). */
    public void trustServer(X509Certificate serverCertificate) {
        trustList.addTrustedCertificate(serverCertificate);
    }

    /** Number of verdicts with the given reason so far, over all connections. */
    public long count(Verdict.Reason reason) {
        return counts.get(reason).get();
    }

    /**
     * Connects to a sensor (directly or through a relay: the endpoint's advertised address is
     * replaced by the host and port of {@code endpointUrl}) and subscribes to its readings.
     *
     * @param name label used in observations and logs
     * @throws IOException if no matching endpoint exists, the server certificate is not trusted,
     *     or the connection or subscription fails
     */
    public Connection connect(String name, String endpointUrl) throws IOException {
        Connection c = new Connection(name, endpointUrl);
        try {
            c.open();
        } catch (Exception e) {
            c.close();
            throw new IOException("cannot connect operator to " + endpointUrl + ": " + e.getMessage(), e);
        }
        connections.add(c);
        return c;
    }

    /** Closes all connections and the trust list. */
    @Override
    public void close() {
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
        private OpcUaClient client;
        private volatile OpcUaSubscription subscription;
        private volatile List<ReadValueId> snapshotIds;
        private long lastSequence;
        private final AtomicLong skipped = new AtomicLong();

        private Connection(String name, String endpointUrl) {
            this.name = name;
            this.endpointUrl = endpointUrl;
            this.worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "pqsign-operator-" + name);
                t.setDaemon(true);
                return t;
            });
        }

        private void open() throws UaException {
            String host = EndpointUtil.getHost(endpointUrl);
            int port = EndpointUtil.getPort(endpointUrl);
            String policy = config.security() == TransportSecurity.NONE ? SecurityPolicy.None.getUri()
                    : SecurityPolicy.Basic256Sha256.getUri();
            MessageSecurityMode mode = config.security() == TransportSecurity.NONE ? MessageSecurityMode.None
                    : MessageSecurityMode.SignAndEncrypt;
            var validator = new DefaultClientCertificateValidator(trustList, new MemoryCertificateQuarantine());
            client = OpcUaClient.create(endpointUrl,
                    endpoints -> endpoints.stream()
                            .filter(e -> policy.equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode)
                            .findFirst()
                            .map(e -> (EndpointDescription) EndpointUtil.updateUrl(e, host, port)),
                    transport -> transport.setEventLoop(MiloThreads.eventLoop()).setExecutor(MiloThreads.executor()),
                    b -> b.setApplicationName(LocalizedText.english("pqsign operator"))
                            .setApplicationUri(appUri)
                            .setKeyPair(identity.keyPair())
                            .setCertificate(identity.certificate())
                            .setCertificateChain(new X509Certificate[] {identity.certificate()})
                            .setCertificateValidator(validator)
                            .setRequestTimeout(Unsigned.uint(10_000)));
            client.connect();
            subscribe();
        }

        /**
         * Creates the subscription: one data item on the publication sequence, sampling interval 0.
         * Called again when Milo reconnects to a restarted sensor and cannot transfer the old one.
         */
        private void subscribe() throws UaException {
            UShort ns = client.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
            if (ns == null) {
                throw new UaException(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NodeIdUnknown,
                        "server has no namespace " + SensorNodes.NAMESPACE_URI);
            }
            List<ReadValueId> ids = new ArrayList<>();
            for (String n : SensorNodes.SNAPSHOT) {
                ids.add(new ReadValueId(new NodeId(ns, n), AttributeId.Value.uid(), null, QualifiedName.NULL_VALUE));
            }
            snapshotIds = List.copyOf(ids);
            OpcUaSubscription sub = new OpcUaSubscription(client, config.publishingIntervalMs());
            // This constructor keeps the keep-alive count Milo derives for its 1000 ms default
            // interval (10, lifetime 50): at 1 ms that is an empty Publish exchange every 10 ms per
            // sensor, about one per reading in the demo, and a subscription that dies after 50 ms
            // without Publish requests. Derive both from the interval actually requested instead.
            long keepAliveCount = Math.min(0xffffffffL / LIFETIME_KEEP_ALIVES,
                    Math.max(1, (long) Math.ceil(KEEP_ALIVE_INTERVAL_MS / config.publishingIntervalMs())));
            sub.setMaxKeepAliveCount(Unsigned.uint(keepAliveCount));
            sub.setLifetimeCount(Unsigned.uint(keepAliveCount * LIFETIME_KEEP_ALIVES));
            sub.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
                @Override
                public void onTransferFailed(OpcUaSubscription failed, org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode status) {
                    LOG.log(Level.INFO, "{0}: subscription lost after reconnect ({1}); subscribing again", name, status);
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
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(new NodeId(ns, SensorNodes.SEQUENCE));
            item.setSamplingInterval(0.0);
            item.setQueueSize(Unsigned.uint(1000));
            item.setDataValueListener((i, value) -> {
                try {
                    worker.execute(() -> onNotification(value));
                } catch (java.util.concurrent.RejectedExecutionException closing) {
                    // connection is closing; late notifications are dropped
                }
            });
            sub.addMonitoredItem(item);
            sub.synchronizeMonitoredItems();
            subscription = sub;
        }

        /** The publishing interval the server granted, in milliseconds. */
        public double revisedPublishingIntervalMs() {
            return subscription.getRevisedPublishingInterval().orElse(Double.NaN);
        }

        /** The keep-alive interval the server granted (keep-alive count × publishing interval), in milliseconds. */
        public double revisedKeepAliveIntervalMs() {
            return subscription.getRevisedMaxKeepAliveCount().map(UInteger::doubleValue).orElse(Double.NaN)
                    * revisedPublishingIntervalMs();
        }

        /**
         * Notifications not verified because the sensor had already replaced that reading by a
         * later one when the operator read the nodes (the operator was slower than the sensor).
         */
        public long skipped() {
            return skipped.get();
        }

        private void onNotification(DataValue notified) {
            try {
                if (!(notified.value().value() instanceof Long seq)) {
                    return; // no reading published yet
                }
                if (seq <= lastSequence) {
                    skipped.incrementAndGet(); // already replaced by a later reading we have read
                    return;
                }
                DataValue[] results = client.read(0.0, TimestampsToReturn.Neither, snapshotIds).getResults();
                handle(results == null ? List.of() : java.util.Arrays.asList(results));
            } catch (UaException e) {
                boolean serverRefused = e instanceof org.eclipse.milo.opcua.stack.core.UaServiceFaultException
                        || e.getCause() instanceof org.eclipse.milo.opcua.stack.core.UaServiceFaultException;
                if (notified.value().value() instanceof Long seq
                        && (serverRefused || isOversizeOrUndecodable(e.getStatusCode().value()))) {
                    // The connection works but this publication cannot be read (e.g. values larger
                    // than an OPC UA message): it is rejected, not silently dropped.
                    lastSequence = seq;
                    emit(seq, verifier.malformed(-1, "Read of the published values failed: " + e.getMessage()), null, null);
                } else {
                    LOG.log(Level.WARNING, "{0}: read failed: {1}", name, e.getMessage());
                }
            } catch (RuntimeException e) {
                // Nothing a sensor publishes may stop the console.
                LOG.log(Level.ERROR, name + ": unexpected failure handling a notification", e);
            }
        }

        private void handle(List<DataValue> v) {
            long received = System.nanoTime();
            Publication p = Publication.decode(v);
            Long seq = p.sequence();
            if (seq == null) {
                emit(0, verifier.malformed(-1, p.problem()), null, null);
                return;
            }
            if (seq <= lastSequence) {
                skipped.incrementAndGet();
                return;
            }
            lastSequence = seq;
            if (p.problem() != null) {
                emit(seq, verifier.malformed(p.index(), p.problem()), null, null);
                return;
            }
            SignedReading reading = p.reading();
            long verifyStart = System.nanoTime();
            Verdict verdict = verifier.check(p.keyId(), p.setName(), reading);
            long verdictAt = System.nanoTime();
            LatencyRecord latency = null;
            if (p.signMs() != null && p.signStart() != null && p.published() != null) {
                latency = new LatencyRecord(Math.round(p.signMs() * 1e6), received - p.published(),
                        verdictAt - verifyStart, verdictAt - p.signStart());
            }
            emit(seq, verdict, reading, latency);
        }

        private void emit(long seq, Verdict verdict, SignedReading reading, LatencyRecord latency) {
            counts.get(verdict.reason()).incrementAndGet();
            listener.accept(new Observation(name, seq, verdict, reading, latency));
        }

        /** Disconnects; pending notifications are dropped. */
        @Override
        public void close() {
            worker.shutdownNow();
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

    private static boolean isOversizeOrUndecodable(long status) {
        return status == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_ResponseTooLarge
                || status == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_EncodingLimitsExceeded
                || status == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_DecodingError
                || status == org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_EncodingError;
    }
}
