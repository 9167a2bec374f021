package dev.pqsign.opcua;

import dev.pqsign.core.StatefulSigner;
import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.opcua.internal.MiloThreads;
import dev.pqsign.opcua.internal.PersistedIdentity;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.ReadingSource;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.SkipNotice;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamText;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultServerCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.FileBasedCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.structured.BuildInfo;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * The sensor: an OPC UA server (Eclipse Milo) that signs each reading and publishes it on the
 * {@link SensorNodes} as one consistent update.
 *
 * <p>Each {@link #publish(String)} reserves the index durably, signs, and sets the nodes, all under
 * one lock, so the published indices increase in publication order even with several publishing
 * threads. The scheme can be switched at run time with {@link #switchKey(SensorKey)}.
 *
 * <p>The sensor publishes only what its signer signed: no method puts a reading, a record or any
 * other value on the nodes past the signer. A demo or test that needs a tampered or replayed
 * reading gives the sensor a key whose signer makes that fault (pqsign-demo's fault injector).
 *
 * <p>The server binds to 127.0.0.1 only unless {@link Config#bindAddress} says otherwise. Its
 * application certificate and the trust list of client certificates live under
 * {@code dataDir/pki}; with {@link TransportSecurity#BASIC256SHA256_SIGN_AND_ENCRYPT} only clients
 * whose certificate is in {@code dataDir/pki/trusted/certs} can open a channel.
 */
public final class SensorServer implements AutoCloseable {

    /** Path of the endpoint URL. */
    public static final String PATH = "/pqsign";

    /** Smallest publishing interval the server grants (Milo's default of 10 ms is too coarse). */
    public static final double MIN_PUBLISHING_INTERVAL_MS = 1.0;

    /**
     * Sensor server settings.
     *
     * @param name application name (also used in the application URI)
     * @param dataDir directory for the application certificate and trust lists
     * @param bindAddress address to bind, normally {@code 127.0.0.1}
     * @param port TCP port, or 0 to pick a free one
     * @param security transport security
     */
    public record Config(String name, Path dataDir, String bindAddress, int port, TransportSecurity security) {
        /**
         * Checks the settings.
         *
         * @param name application name (also used in the application URI)
         * @param dataDir directory for the application certificate and trust lists
         * @param bindAddress address to bind, normally {@code 127.0.0.1}
         * @param port TCP port, or 0 to pick a free one
         * @param security transport security
         * @throws NullPointerException if {@code name}, {@code dataDir}, {@code bindAddress} or
         *     {@code security} is {@code null}
         * @throws IllegalArgumentException if {@code port} is not in 0..65535
         */
        public Config {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(dataDir, "dataDir");
            Objects.requireNonNull(bindAddress, "bindAddress");
            Objects.requireNonNull(security, "security");
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
        }

        /**
         * Loopback, free port.
         *
         * @param name application name (also used in the application URI)
         * @param dataDir directory for the application certificate and trust lists
         * @param security transport security
         * @return settings that bind {@code 127.0.0.1} on a port picked when the server starts
         */
        public static Config loopback(String name, Path dataDir, TransportSecurity security) {
            return new Config(name, dataDir, "127.0.0.1", 0, security);
        }
    }

    /**
     * What one publication put on the nodes.
     *
     * @param reading the signed reading
     * @param sequence the publication sequence number
     * @param signNanos how long reserving and signing took
     * @param signStartNanoTime {@code System.nanoTime()} when signing began
     * @param publishNanoTime {@code System.nanoTime()} when the nodes were updated
     * @param record the signed record published on {@link SensorNodes#RECORD}
     */
    public record Publication(
            SignedReading reading,
            long sequence,
            long signNanos,
            long signStartNanoTime,
            long publishNanoTime,
            SignedRecord record) {}

    private final Config config;
    private final int port;
    private final OpcUaServer server;
    private final SensorNamespace namespace;
    private final SessionGate sessions = new SessionGate();
    private final HistoryReadGate historyReads = new HistoryReadGate(
            SensorLimits.MAX_NODES_PER_HISTORY_READ,
            SensorLimits.MAX_HISTORY_READS_PER_SESSION,
            SensorLimits.MAX_HISTORY_READS);
    private final FileBasedTrustListManager trustList;
    private final ApplicationIdentity identity;
    private static final System.Logger LOG = System.getLogger(SensorServer.class.getName());
    private final Object publishLock = new Object();
    private final ReadingHistory history;
    /** Source time of the last publication: the next one is later by at least one OPC UA tick (100 ns). */
    private Instant lastSourceTime = Instant.EPOCH;

    private volatile SensorKey key;
    private volatile ReadingSigner signer;
    /** The rolling key, if the sensor rolls its key over by itself (else null). */
    private volatile RollingSensorKey rolling;
    /**
     * Publication counter. Starts at the wall clock in microseconds so that it keeps increasing
     * across restarts of the sensor (operators de-duplicate notifications by it).
     */
    private long sequence = System.currentTimeMillis() * 1000;

    private boolean started;
    private boolean closed;
    /** Set (under the publication lock) when close begins: nothing is published after it. */
    private boolean stopping;

    private SensorServer(Config config, SensorKey key, ReadingHistory history) throws IOException {
        this.config = config;
        this.history = history;
        if (history != null) {
            lastSourceTime = history.newestSourceTime().orElse(Instant.EPOCH);
        }
        this.port =
                config.port() == 0 ? freePort(config.bindAddress()) : requireFree(config.bindAddress(), config.port());
        this.key = key;
        this.signer = new ReadingSigner(key.signer());
        String appUri = "urn:pqsign:sensor:" + config.name();
        Path pki = config.dataDir().resolve("pki");
        this.identity = ApplicationIdentity.loadOrCreate(
                pki.resolve("sensor-application.pfx"),
                appUri,
                "pqsign sensor " + config.name(),
                "pqsign".toCharArray());
        try {
            trustList = FileBasedTrustListManager.createAndInitialize(pki);
            var quarantine = FileBasedCertificateQuarantine.create(
                    pki.resolve("rejected").resolve("certs"));
            var validator = new DefaultServerCertificateValidator(trustList, quarantine);
            var group = DefaultApplicationGroup.createAndInitialize(
                    trustList, PersistedIdentity.store(identity), PersistedIdentity.factory(identity), validator);
            var certificateManager = new DefaultCertificateManager(quarantine, group);
            OpcUaServerConfig serverConfig = OpcUaServerConfig.builder()
                    .setApplicationUri(appUri)
                    .setApplicationName(LocalizedText.english("pqsign sensor " + config.name()))
                    .setProductUri("urn:pqsign:sensor")
                    .setBuildInfo(
                            new BuildInfo("urn:pqsign:sensor", "pqsign", "pqsign sensor", "0.1.0", "", DateTime.now()))
                    .setEndpoints(endpoints(identity.certificate()))
                    .setCertificateManager(certificateManager)
                    .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                    .setExecutor(MiloThreads.executor())
                    .setLimits(SensorLimits.of(MIN_PUBLISHING_INTERVAL_MS))
                    .setEncodingLimits(SensorLimits.encodingLimits())
                    .build();
            server = new OpcUaServer(
                    serverConfig,
                    profile -> sessions.guard(
                            historyReads.guard(new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder()
                                    .setEventLoop(MiloThreads.eventLoop())
                                    .setExecutor(MiloThreads.executor())
                                    .build()))));
            sessions.follow(server);
            namespace = new SensorNamespace(server, history);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot configure the sensor server: " + e.getMessage(), e);
        }
    }

    /**
     * Creates and starts a sensor server.
     *
     * @param config the server's name, data directory, address, port and transport security
     * @param key the key to sign with until {@link #switchKey} is called
     * @return the started server, listening at {@link #endpointUrl()}; {@link #close} it
     * @throws IOException if the certificate or trust list cannot be set up or the port cannot be bound
     */
    public static SensorServer start(Config config, SensorKey key) throws IOException {
        return start(config, key, null);
    }

    /**
     * Creates and starts a sensor server that also keeps its signed records in {@code history} and
     * serves them with OPC UA HistoryRead (store and forward). The history stays open; the caller
     * closes it after the server.
     *
     * @param config the server's name, data directory, address, port and transport security
     * @param key the key to sign with until {@link #switchKey} is called
     * @param history where published records are kept, or null for none
     * @return the started server, listening at {@link #endpointUrl()}; {@link #close} it
     * @throws IOException if the certificate or trust list cannot be set up or the port cannot be bound
     */
    public static SensorServer start(Config config, SensorKey key, ReadingHistory history) throws IOException {
        SensorServer s = new SensorServer(config, key, history);
        try {
            s.startServer();
        } catch (IOException | RuntimeException e) {
            s.close(); // release the trust list's watcher thread and whatever Milo bound
            throw e;
        }
        return s;
    }

    private void startServer() throws IOException {
        try {
            server.startup().get(30, TimeUnit.SECONDS);
            namespace.startup();
            publishKeyNodes();
            started = true;
            publishFixedKeyState(); // replaced by the rolling key's state if the sensor rolls over
            lastSignatureNanos = 0;
            accountForBurnedIndices();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the sensor server", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException(
                    "sensor server failed to start on " + config.bindAddress() + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Signs and publishes a {@link SkipNotice} when the key's next index lies above the last index
     * of this key the history shows published (reserved ahead before a crash, or a key part whose
     * range starts above 0): an operator then reports those indices as skipped, not lost. Without a
     * history the sensor cannot know what it published, and says nothing.
     */
    private void accountForBurnedIndices() {
        if (history == null) {
            return;
        }
        SensorKey k = key;
        long next;
        if (k.signer() instanceof StatefulSigner st) {
            next = st.nextIndex();
        } else if (k.signer() instanceof SequencedSigner seq) {
            next = seq.nextIndex();
        } else {
            return;
        }
        long from = history.newest()
                .filter(r -> r.keyId().equals(k.keyId()))
                .map(r -> r.index() + 1)
                .orElse(0L);
        if (next > from) {
            Publication p = publishText(new SkipNotice(from, next - 1).text());
            System.getLogger(SensorServer.class.getName())
                    .log(
                            System.Logger.Level.INFO,
                            "indices {0}..{1} were burned without being published; signed skip notice at index {2}",
                            from,
                            next - 1,
                            p.reading().index());
        }
    }

    private Set<EndpointConfig> endpoints(X509Certificate cert) {
        Set<EndpointConfig> set = new LinkedHashSet<>();
        EndpointConfig.Builder base = EndpointConfig.newBuilder()
                .setBindAddress(config.bindAddress())
                .setHostname(config.bindAddress())
                .setBindPort(port)
                .setPath(PATH)
                .setCertificate(cert)
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS);
        if (config.security() == TransportSecurity.NONE) {
            set.add(base.copy()
                    .setSecurityPolicy(SecurityPolicy.None)
                    .setSecurityMode(MessageSecurityMode.None)
                    .build());
        } else {
            set.add(base.copy()
                    .setSecurityPolicy(SecurityPolicy.Basic256Sha256)
                    .setSecurityMode(MessageSecurityMode.SignAndEncrypt)
                    .build());
            // Clients discover the secure endpoint over an unsecured discovery-only endpoint (OPC UA Part 6).
            set.add(base.copy()
                    .setPath(PATH + "/discovery")
                    .setSecurityPolicy(SecurityPolicy.None)
                    .setSecurityMode(MessageSecurityMode.None)
                    .build());
        }
        return set;
    }

    /**
     * Checks that {@code port} can be bound before Milo tries: Milo reports a busy port as a logged
     * stack trace and "No endpoints bound"; this says which address and port, in one line.
     */
    private static int requireFree(String bindAddress, int port) throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true); // as Milo binds: a port in TIME_WAIT is free
            s.bind(new java.net.InetSocketAddress(InetAddress.getByName(bindAddress), port), 1);
        } catch (java.net.BindException e) {
            throw new IOException(
                    "sensor server failed to start on " + bindAddress + ":" + port
                            + ": the port is in use (another sensor or server listens there)",
                    e);
        }
        return port;
    }

    private static int freePort(String bindAddress) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(bindAddress))) {
            return s.getLocalPort();
        }
    }

    /**
     * The endpoint URL, {@code opc.tcp://host:port/pqsign}.
     *
     * @return the URL of the endpoint, with the bind address as host
     */
    public String endpointUrl() {
        return "opc.tcp://" + config.bindAddress() + ":" + port + PATH;
    }

    /**
     * The TCP port the server listens on.
     *
     * @return the configured port, or the one picked when the configuration said 0
     */
    public int port() {
        return port;
    }

    /**
     * The server's application (transport) certificate, for the operator's trust list.
     *
     * @return the certificate kept under {@code dataDir/pki} (the same across restarts)
     */
    public X509Certificate applicationCertificate() {
        return identity.certificate();
    }

    /**
     * Adds a client application certificate to this server's trust list (persisted under dataDir/pki).
     *
     * @param clientCertificate the operator client's application certificate
     */
    public void trustClient(X509Certificate clientCertificate) {
        trustList.addTrustedCertificate(clientCertificate);
    }

    /**
     * The key currently signing.
     *
     * @return the key the next reading is signed with
     */
    public SensorKey currentKey() {
        return key;
    }

    /**
     * The generation of the key the next reading is signed with (0 for a key that does not roll over).
     *
     * @return the generation
     */
    public long keyGeneration() {
        RollingSensorKey keys = rolling;
        return keys == null ? 0 : keys.status().generation();
    }

    /**
     * Switches to another key (and possibly scheme) at run time. Readings published after this call
     * are signed with {@code newKey}; the key id, parameter-set and certificate nodes change with
     * the first of them, in the same consistent update.
     *
     * @param newKey the key to sign with from the next reading on
     */
    public void switchKey(SensorKey newKey) {
        Objects.requireNonNull(newKey, "newKey");
        synchronized (publishLock) {
            // The key nodes are not touched here: they change together with the first reading
            // signed by the new key, so a Read never pairs the new key id with an old reading.
            key = newKey;
            signer = new ReadingSigner(newKey.signer());
        }
    }

    private void publishKeyNodes() {
        LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
        v.put(SensorNodes.PARAMETER_SET, new Variant(key.parameterSetName()));
        v.put(SensorNodes.KEY_ID, new Variant(ByteString.of(key.keyId().bytes())));
        v.put(SensorNodes.CERTIFICATE, new Variant(ByteString.of(key.certificateDer())));
        namespace.update(v);
    }

    /**
     * Signs and publishes one of the sensor's own statements about its upstream OPC UA server
     * (a value change, an outage, a lost value: {@code docs/formats/signed-reading.md}, "Upstream
     * readings"). Only such a fact may start with the reserved prefix, and only through this
     * method, which takes the fact, not a text: what a pipe or a file hands the sensor can never
     * become one.
     *
     * @param fact the fact, as the upstream source made it
     * @return the signed reading, its sequence number and record, and when it was signed and published
     * @throws IllegalStateException if the index does not fit the UInt32 index node
     * @throws dev.pqsign.core.KeyExhaustedException if the key has no index left
     * @throws dev.pqsign.core.StatePersistenceException if the index could not be reserved durably
     */
    public Publication publishUpstream(UpstreamEvent fact) {
        return publishText(fact.text());
    }

    /**
     * Signs {@code reading} with the current key and publishes it.
     *
     * @param reading the reading text
     * @return the signed reading, its sequence number and record, and when it was signed and published
     * @throws IllegalArgumentException if the reading is too long
     * @throws IllegalStateException if the index does not fit the UInt32 index node
     * @throws dev.pqsign.core.KeyExhaustedException if the key has no index left
     * @throws dev.pqsign.core.StatePersistenceException if the index could not be reserved durably
     */
    public Publication publish(String reading) {
        if (reading.startsWith(SkipNotice.RESERVED)) {
            throw new IllegalArgumentException("reading texts starting with '" + SkipNotice.RESERVED
                    + "' are reserved for the sensor's own statements");
        }
        return publishText(reading);
    }

    private Publication publishText(String reading) {
        synchronized (publishLock) {
            Instant source = Instant.now();
            long t0 = System.nanoTime();
            completeHandover(true); // a reading that comes while a handover is under way waits for it
            SignedReading r = signer.sign(reading);
            long signNanos = System.nanoTime() - t0;
            Publication p = publishLocked(r, signNanos, t0, source);
            rollIfDue();
            return p;
        }
    }

    /**
     * Lets the sensor roll its key over by itself: from now on, after each reading, {@code keys}
     * prepares the next key and hands over when due; the handover record is published on
     * {@link SensorNodes#RECORD} (between the old key's last reading and the new key's first) and on
     * {@link SensorNodes#KEY_HANDOVER}, and the key-state nodes follow every reading. Publishes the
     * latest handover at once, for operators that missed it before a restart. With a history, the
     * history of {@link SensorNodes#KEY_CERTIFICATES} gives each handover's key certificate chain
     * from the key directory.
     *
     * @param keys a rolling key whose {@link RollingSensorKey#current()} becomes the signing key
     */
    public void rollWith(RollingSensorKey keys) {
        Objects.requireNonNull(keys, "keys");
        synchronized (publishLock) {
            rolling = keys;
            // A handover is published as soon as it is durable, not only before the next reading:
            // a slow sensor's operators learn the new key (and its key-state nodes change) at once.
            keys.onHandover(() -> {
                synchronized (publishLock) {
                    if (!stopping) {
                        completeHandover(false);
                    }
                }
            });
            switchKey(keys.current());
            keepHandoversInHistory(keys);
            namespace.keyCertificates(g -> {
                try {
                    return keys.certificates(g).map(KeyCertificateChain::encode);
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.WARNING, "generation {0}: {1}", g, e.getMessage());
                    return Optional.empty();
                }
            });
            LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
            keys.latestHandover()
                    .ifPresent(h -> v.put(SensorNodes.KEY_HANDOVER, new Variant(ByteString.of(h.encode()))));
            keys.certificates()
                    .ifPresent(c -> v.put(SensorNodes.KEY_CERTIFICATES, new Variant(ByteString.of(c.encode()))));
            if (!v.isEmpty()) {
                namespace.update(v);
            }
            publishKeyState();
        }
    }

    /**
     * Adds to the history the handovers that a crash kept out of it (the sensor died after a
     * handover became durable and before the history had it), so that operators backfilling from
     * the history still meet every handover.
     */
    private void keepHandoversInHistory(RollingSensorKey keys) {
        if (history == null) {
            return;
        }
        long have = history.newestHandover().map(h -> h.statement().sequence()).orElse(0L);
        Optional<SignedKeyHandover> latest = keys.latestHandover();
        if (latest.isEmpty() || latest.get().statement().sequence() <= have) {
            return;
        }
        long from = Math.max(have, latest.get().statement().sequence() - history.capacity());
        try {
            for (SignedKeyHandover h : keys.directory().handoversAfter(from)) {
                history.addHandover(nextSourceTime(Instant.now()), h);
            }
        } catch (IOException e) {
            LOG.log(
                    Level.WARNING,
                    "history file: {0} (the key handovers stay in the history in memory)",
                    e.getMessage());
        }
    }

    /** After a reading: lets the rolling key prepare the next key and start a handover when due. */
    private void rollIfDue() {
        RollingSensorKey keys = rolling;
        if (keys == null) {
            publishFixedKeyState();
            return;
        }
        try {
            keys.afterSignature();
        } catch (IOException e) {
            // The current key stays current; the rollover is tried again after the next reading.
            LOG.log(Level.ERROR, "key handover failed, still signing with the current key: {0}", e.getMessage());
        }
        publishKeyState();
    }

    /**
     * Publishes a handover that the rolling key has made durable, and switches to the new key;
     * with {@code wait}, first waits for a handover still under way. Called under the publication
     * lock: before each reading, and from the rolling key's listener as soon as a handover is done.
     */
    private void completeHandover(boolean wait) {
        RollingSensorKey keys = rolling;
        if (keys == null) {
            return;
        }
        Optional<SignedKeyHandover> h;
        try {
            h = wait ? keys.beforeSignature() : keys.handoverIfDone();
        } catch (IOException e) {
            // The current key stays current; the rollover is tried again after the next reading.
            LOG.log(Level.ERROR, "key handover failed, still signing with the current key: {0}", e.getMessage());
            publishKeyState();
            return;
        }
        if (h.isEmpty()) {
            return;
        }
        byte[] record = h.get().encode();
        Optional<byte[]> certificates = keys.certificates().map(KeyCertificateChain::encode);
        if (certificates.isPresent()) {
            // Before the handover on the record node: an operator in certificate mode has the
            // new key's chain at hand when the handover arrives.
            LinkedHashMap<String, Variant> c = new LinkedHashMap<>();
            c.put(SensorNodes.RECORD, new Variant(ByteString.of(certificates.get())));
            namespace.update(c);
        }
        if (history != null) {
            try {
                // before the notification, like a reading: the history holds every handover in order
                history.addHandover(nextSourceTime(Instant.now()), h.get());
            } catch (IOException e) {
                LOG.log(
                        Level.WARNING,
                        "history file: {0} (the handover stays in the history in memory)",
                        e.getMessage());
            }
        }
        LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
        v.put(SensorNodes.RECORD, new Variant(ByteString.of(record)));
        v.put(SensorNodes.KEY_HANDOVER, new Variant(ByteString.of(record)));
        v.put(SensorNodes.KEY_CERTIFICATES, new Variant(ByteString.of(certificates.orElse(new byte[0]))));
        namespace.update(v);
        switchKey(keys.current());
        LOG.log(
                Level.INFO,
                "key handed over to generation {0} ({1}); the old key is retired at index {2}",
                h.get().statement().sequence(),
                keys.current().keyId().hex().substring(0, 16) + "…",
                h.get().statement().handoverIndex());
        publishKeyState();
    }

    /** Signing rate (signatures per second, moving average) of a key that does not roll over. */
    private double fixedKeyRate;

    private long lastSignatureNanos;

    /**
     * The key-state nodes of a key that does not roll over (no key directory, or {@code
     * --no-rollover}): its remaining signatures and the time they last at the current rate, never a
     * next key, so an operator warns before the end and raises an alarm at it. A key without a
     * limit (HAETAE's counter) publishes nothing.
     */
    private void publishFixedKeyState() {
        if (!(key.signer() instanceof StatefulSigner st)) {
            return;
        }
        long now = System.nanoTime();
        if (lastSignatureNanos != 0 && now > lastSignatureNanos) {
            double instant = 1e9 / (now - lastSignatureNanos);
            fixedKeyRate = fixedKeyRate == 0 ? instant : 0.95 * fixedKeyRate + 0.05 * instant;
        }
        lastSignatureNanos = now;
        long remaining = st.remaining();
        LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
        v.put(SensorNodes.KEY_GENERATION, new Variant(0L));
        v.put(SensorNodes.KEY_REMAINING, new Variant(remaining));
        v.put(SensorNodes.KEY_SECONDS_LEFT, new Variant(fixedKeyRate > 0 ? remaining / fixedKeyRate : Double.NaN));
        v.put(SensorNodes.KEY_NEXT_READY, new Variant(false));
        v.put(SensorNodes.KEY_ALARM, new Variant(""));
        namespace.update(v);
    }

    private void publishKeyState() {
        RollingSensorKey keys = rolling;
        if (keys == null) {
            return;
        }
        KeyRollover.Status st = keys.status();
        LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
        v.put(SensorNodes.KEY_GENERATION, new Variant(st.generation()));
        v.put(SensorNodes.KEY_REMAINING, new Variant(st.remaining()));
        v.put(SensorNodes.KEY_SECONDS_LEFT, new Variant(keys.secondsLeft()));
        v.put(SensorNodes.KEY_NEXT_READY, new Variant(st.nextKeyReady()));
        v.put(SensorNodes.KEY_ALARM, new Variant(st.preparationFailure().orElse("")));
        namespace.update(v);
    }

    /**
     * The source time of the next history entry. Source times are whole OPC UA ticks (100 ns) and
     * strictly increasing, so that history reads by time find every entry exactly once, even after
     * a clock step back.
     */
    private Instant nextSourceTime(Instant wallClock) {
        Instant source = Instant.ofEpochSecond(wallClock.getEpochSecond(), wallClock.getNano() / 100 * 100L);
        if (!source.isAfter(lastSourceTime)) {
            source = lastSourceTime.plusNanos(100);
        }
        lastSourceTime = source;
        return source;
    }

    private Publication publishLocked(SignedReading r, long signNanos, long signStart, Instant wallClock) {
        Instant source = nextSourceTime(wallClock);
        if (r.index() > 0xffffffffL) {
            throw new IllegalStateException(
                    "index " + r.index() + " does not fit the UInt32 node " + SensorNodes.INDEX);
        }
        LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
        v.put(SensorNodes.PARAMETER_SET, new Variant(key.parameterSetName()));
        v.put(SensorNodes.KEY_ID, new Variant(ByteString.of(key.keyId().bytes())));
        v.put(SensorNodes.CERTIFICATE, new Variant(ByteString.of(key.certificateDer())));
        v.put(SensorNodes.RAW_DATA, new Variant(r.reading()));
        v.put(SensorNodes.SIGNATURE, new Variant(ByteString.of(r.signature())));
        v.put(SensorNodes.SIGN_TIME_MS, new Variant(signNanos / 1e6));
        v.put(SensorNodes.SIGN_START_NANOTIME, new Variant(signStart));
        long publishNanoTime = System.nanoTime();
        v.put(SensorNodes.PUBLISH_NANOTIME, new Variant(publishNanoTime));
        v.put(SensorNodes.INDEX, new Variant(Unsigned.uint(r.index())));
        long seq = ++sequence;
        v.put(SensorNodes.SEQUENCE, new Variant(seq));
        SignedRecord record = SignedRecord.of(
                key.keyId(), key.parameterSetName(), r, source, seq, signNanos, signStart, publishNanoTime);
        v.put(SensorNodes.RECORD, new Variant(ByteString.of(record.encode())));
        if (history != null) {
            try {
                history.add(record); // before the notification: whatever an operator sees live is in the history too
            } catch (IOException e) {
                System.getLogger(SensorServer.class.getName())
                        .log(
                                System.Logger.Level.WARNING,
                                "history file: {0} (the reading stays in the history in memory)",
                                e.getMessage());
            }
        }
        namespace.update(v);
        return new Publication(r, seq, signNanos, signStart, publishNanoTime, record);
    }

    /**
     * Publishes every reading of {@code source} until it is exhausted or the thread is
     * interrupted. A reading that cannot be signed (too long) is logged and skipped; key exhaustion
     * and persistence failures end the loop with their exception, because signing must stop then.
     *
     * @param source the readings; the caller closes it
     * @return the number of readings published
     * @throws IOException if the source cannot be read
     * @throws InterruptedException if the thread is interrupted between readings or while the
     *     source waits for the next one
     */
    public long publishAll(ReadingSource source) throws IOException, InterruptedException {
        long n = 0;
        String reading;
        while ((reading = source.next()) != null) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            try {
                if (source.sensorStatements() && UpstreamText.isUpstream(reading)) {
                    publishUpstream(UpstreamText.parse(reading));
                } else {
                    publish(reading);
                }
                n++;
            } catch (IllegalArgumentException e) {
                System.getLogger(SensorServer.class.getName())
                        .log(System.Logger.Level.WARNING, "skipped reading: {0}", e.getMessage());
            }
        }
        return n;
    }

    /**
     * The node id of a {@link SensorNodes} name on this server.
     *
     * @param name one of the {@link SensorNodes} names
     * @return that node's id in this server's namespace
     */
    public NodeId nodeId(String name) {
        return namespace.nodeId(name);
    }

    /**
     * Stops the server (idempotent); the signer's state stays where its store keeps it. Waits up to
     * {@link #CLOSE_LINGER_MILLIS} for the notifications still queued for subscribed operators to
     * go out, so a stopping sensor's last readings reach them; then stops the server before its
     * namespace, so no client ever sees the nodes vanish while the server still answers.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (publishLock) {
            // A handover under way is durable once this returns; publish it with the last readings.
            completeHandover(true);
            stopping = true;
        }
        try {
            if (started) {
                linger();
            }
            // No session may be created into the namespaces the shutdown removes (SessionGate).
            sessions.close();
            sessions.awaitAnnounced(server, CLOSE_LINGER_MILLIS);
            server.shutdown().get(10, TimeUnit.SECONDS);
            if (started) {
                namespace.shutdown();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // shutting down anyway; nothing the caller could do
        }
        started = false;
        try {
            trustList.close();
        } catch (IOException ignored) {
            // the watch service is gone either way
        }
    }

    /** Longest a closing sensor waits for queued notifications to be sent. */
    public static final long CLOSE_LINGER_MILLIS = 3000;

    private void linger() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_LINGER_MILLIS);
        while (namespace.itemsWithPendingNotifications() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        // The last Publish response has left the queue; give the transport a moment to write it.
        Thread.sleep(50);
    }
}
