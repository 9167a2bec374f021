package dev.pqsign.opcua.gateway;

import dev.pqsign.opcua.ApplicationIdentity;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.internal.MiloThreads;
import dev.pqsign.opcua.internal.PersistedIdentity;
import dev.pqsign.telemetry.operator.ConnectionState;
import dev.pqsign.telemetry.operator.Observation;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.structured.BuildInfo;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * The operator as an OPC UA server of verified data (docs/gateway.md): a read-only Milo server
 * with one folder per sensor holding the latest verified reading and its numbers, status codes
 * that carry the verdicts, verdict counts, key and connection state, events on rejections, and
 * HistoryRead of what the operator accepted.
 *
 * <p>Fed by the operator: {@link #observe}, {@link #connectionChanged} and {@link #keyState} are
 * thread-safe, never wait for a client, and may be called from the operator's connection threads.
 * Its application certificate, trust list and history live under {@link Config#dir}.
 */
public final class GatewayServer implements AutoCloseable {

    /** Path of the endpoint URL. */
    public static final String PATH = "/pqsign/gateway";

    /** Longest a closing gateway waits for queued notifications to go out. */
    static final long CLOSE_LINGER_MILLIS = 1000;

    private static final System.Logger LOG = System.getLogger(GatewayServer.class.getName());

    /**
     * Gateway settings.
     *
     * @param dir the gateway's directory ({@code pki/}, {@code history/}), e.g. {@code DATA/gateway}
     * @param bindAddress address to bind and advertise, normally {@code 127.0.0.1}
     * @param port TCP port, or 0 to pick a free one
     * @param security the modes offered, one endpoint each (at least one)
     * @param trustedClients client application certificates added to the trust list (for sign modes)
     * @param historyEntries the most history entries kept per sensor, or 0 for no history
     * @param historyBytes the most bytes of history kept per sensor
     */
    public record Config(
            Path dir,
            String bindAddress,
            int port,
            Set<GatewaySecurity> security,
            List<X509Certificate> trustedClients,
            long historyEntries,
            long historyBytes) {
        /**
         * Checks the settings.
         *
         * @param dir the gateway's directory
         * @param bindAddress address to bind and advertise
         * @param port TCP port, or 0 to pick a free one
         * @param security the modes offered (at least one)
         * @param trustedClients client application certificates to trust
         * @param historyEntries the most history entries per sensor (0: none, else at least 2)
         * @param historyBytes the most history bytes per sensor (at least 64 KiB with a history)
         * @throws IllegalArgumentException if a value is out of range
         */
        public Config {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(bindAddress, "bindAddress");
            security = Set.copyOf(security);
            trustedClients = List.copyOf(trustedClients);
            if (security.isEmpty()) {
                throw new IllegalArgumentException("the gateway needs at least one security mode");
            }
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            if (historyEntries != 0 && (historyEntries < 2 || historyBytes < 64 * 1024)) {
                throw new IllegalArgumentException("a history keeps at least 2 entries and 64 KiB");
            }
        }

        /**
         * Settings for {@code [HOST:]PORT} (HOST defaults to 127.0.0.1; an IPv6 address in brackets).
         *
         * @param hostPort {@code PORT} or {@code HOST:PORT}, port 0..65535 (0: any free port)
         * @param dir the gateway's directory
         * @param security the modes offered (at least one)
         * @param trustedClients client application certificates to trust
         * @param historyEntries the most history entries per sensor (0: none)
         * @param historyBytes the most history bytes per sensor
         * @return the settings
         * @throws IllegalArgumentException if {@code hostPort} is not of that form or a value is out of range
         */
        public static Config serve(
                String hostPort,
                Path dir,
                Set<GatewaySecurity> security,
                List<X509Certificate> trustedClients,
                long historyEntries,
                long historyBytes) {
            int colon = hostPort.lastIndexOf(':');
            String host = colon < 0 ? "127.0.0.1" : hostPort.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            String p = hostPort.substring(colon + 1);
            if (host.isEmpty() || p.isEmpty() || p.length() > 5 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("expected [HOST:]PORT, got '" + hostPort + "'");
            }
            return new Config(dir, host, Integer.parseInt(p), security, trustedClients, historyEntries, historyBytes);
        }

        /**
         * Loopback, free port, no security, the default history bounds.
         *
         * @param dir the gateway's directory
         * @return the settings
         */
        public static Config loopback(Path dir) {
            return new Config(
                    dir,
                    "127.0.0.1",
                    0,
                    EnumSet.of(GatewaySecurity.NONE),
                    List.of(),
                    DEFAULT_HISTORY_ENTRIES,
                    DEFAULT_HISTORY_BYTES);
        }
    }

    /** Default bound of history entries per sensor. */
    public static final long DEFAULT_HISTORY_ENTRIES = 100_000;

    /** Default bound of history bytes per sensor. */
    public static final long DEFAULT_HISTORY_BYTES = 32L << 20;

    private final Config config;
    private final int port;
    private final ApplicationIdentity identity;
    private final FileBasedTrustListManager trustList;
    private final RequestGate gate = new RequestGate();
    private final OpcUaServer server;
    private final GatewayNamespace namespace;
    private final GatewayHistory history;
    private final Map<String, SensorState> states = new LinkedHashMap<>();
    private boolean started;
    private boolean closed;
    private volatile boolean historyFailed;

    private GatewayServer(Config config, List<String> sensors, GatewayHistory history) throws IOException {
        this.config = config;
        this.history = history;
        for (String s : sensors) {
            states.put(s, new SensorState(s));
        }
        this.port = config.port() == 0 ? freePort(config.bindAddress()) : config.port();
        String appUri = "urn:pqsign:gateway";
        Path pki = config.dir().resolve("pki");
        identity = ApplicationIdentity.loadOrCreate(
                pki.resolve("gateway-application.pfx"), appUri, "pqsign gateway", "pqsign".toCharArray());
        try {
            trustList = FileBasedTrustListManager.createAndInitialize(pki);
            config.trustedClients().forEach(trustList::addTrustedCertificate);
            var quarantine = FileBasedCertificateQuarantine.create(
                    pki.resolve("rejected").resolve("certs"));
            var validator = new DefaultServerCertificateValidator(trustList, quarantine);
            var group = DefaultApplicationGroup.createAndInitialize(
                    trustList, PersistedIdentity.store(identity), PersistedIdentity.factory(identity), validator);
            OpcUaServerConfig serverConfig = OpcUaServerConfig.builder()
                    .setApplicationUri(appUri)
                    .setApplicationName(LocalizedText.english("pqsign gateway"))
                    .setProductUri("urn:pqsign:gateway")
                    .setBuildInfo(new BuildInfo(
                            "urn:pqsign:gateway", "pqsign", "pqsign gateway", "0.1.0", "", DateTime.now()))
                    .setEndpoints(endpoints(identity.certificate()))
                    .setCertificateManager(new DefaultCertificateManager(quarantine, group))
                    .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                    .setExecutor(MiloThreads.executor())
                    .setLimits(GatewayLimits.limits())
                    .setEncodingLimits(GatewayLimits.encodingLimits())
                    .build();
            server = new OpcUaServer(
                    serverConfig,
                    profile -> gate.guard(new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder()
                            .setEventLoop(MiloThreads.eventLoop())
                            .setExecutor(MiloThreads.executor())
                            .build())));
            gate.follow(server);
            namespace = new GatewayNamespace(server, sensors, history);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot configure the gateway server: " + e.getMessage(), e);
        }
    }

    /**
     * Opens the gateway's history and starts its server for {@code sensors}.
     *
     * @param config address, security, trust list and history bounds
     * @param sensors the operator's sensor names, each one folder
     * @return the started gateway, listening at {@link #endpointUrl()}; {@link #close} it
     * @throws IOException if the certificate, trust list or history cannot be set up (one line), or
     *     the port cannot be bound
     * @throws IllegalArgumentException if a sensor name is empty, too long, given twice, or would give
     *     another sensor's variable its node id
     */
    public static GatewayServer start(Config config, List<String> sensors) throws IOException {
        checkNames(sensors);
        GatewayHistory h = config.historyEntries() == 0
                ? null
                : GatewayHistory.open(
                        config.dir().resolve("history"), sensors, config.historyEntries(), config.historyBytes());
        GatewayServer g;
        try {
            g = new GatewayServer(config, sensors, h);
        } catch (IOException | RuntimeException e) {
            if (h != null) {
                h.close();
            }
            throw e;
        }
        try {
            g.startServer();
        } catch (IOException | RuntimeException e) {
            g.close();
            throw e;
        }
        return g;
    }

    /** Names become node ids {@code NAME} and {@code NAME/LEAF}: no two may meet. */
    static void checkNames(List<String> sensors) {
        Set<String> seen = new LinkedHashSet<>();
        for (String s : sensors) {
            int bytes = s.getBytes(StandardCharsets.UTF_8).length;
            if (bytes < 1 || bytes > HistoryFormat.MAX_NAME_BYTES) {
                throw new IllegalArgumentException(
                        "sensor name must be 1.." + HistoryFormat.MAX_NAME_BYTES + " UTF-8 bytes");
            }
            if (!seen.add(s)) {
                throw new IllegalArgumentException("sensor name '" + s + "' given twice");
            }
        }
        for (String a : seen) {
            for (String b : seen) {
                if (b.startsWith(a + "/") && b.indexOf('/', a.length() + 1) < 0) {
                    throw new IllegalArgumentException("sensor names '" + a + "' and '" + b + "' would share node ids ("
                            + b + " is also the node id of a variable of " + a + ")");
                }
            }
        }
    }

    private void startServer() throws IOException {
        try {
            server.startup().get(30, TimeUnit.SECONDS);
            namespace.startup();
            started = true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting the gateway", e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            throw new IOException(
                    "gateway failed to start on " + config.bindAddress() + ":" + port + ": " + e.getMessage(), e);
        }
        Instant now = Instant.now();
        for (SensorState st : states.values()) {
            synchronized (st) {
                namespace.apply(st.sensor(), st.initial(now));
                if (history != null) {
                    history.of(st.sensor())
                            .newest()
                            .ifPresent(e -> namespace.apply(
                                    st.sensor(), st.restore(e, now).values()));
                }
            }
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
        for (GatewaySecurity s : EnumSet.copyOf(config.security())) {
            set.add(
                    switch (s) {
                        case NONE ->
                            base.copy()
                                    .setSecurityPolicy(SecurityPolicy.None)
                                    .setSecurityMode(MessageSecurityMode.None)
                                    .build();
                        case SIGN ->
                            base.copy()
                                    .setSecurityPolicy(SecurityPolicy.Basic256Sha256)
                                    .setSecurityMode(MessageSecurityMode.Sign)
                                    .build();
                        case SIGN_AND_ENCRYPT ->
                            base.copy()
                                    .setSecurityPolicy(SecurityPolicy.Basic256Sha256)
                                    .setSecurityMode(MessageSecurityMode.SignAndEncrypt)
                                    .build();
                    });
        }
        if (!config.security().contains(GatewaySecurity.NONE)) {
            // Clients discover the secure endpoints over an unsecured discovery-only endpoint (OPC UA Part 6).
            set.add(base.copy()
                    .setPath(PATH + "/discovery")
                    .setSecurityPolicy(SecurityPolicy.None)
                    .setSecurityMode(MessageSecurityMode.None)
                    .build());
        }
        return set;
    }

    private static int freePort(String bindAddress) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(bindAddress))) {
            return s.getLocalPort();
        }
    }

    /**
     * Serves what an operator observation changes: an ACCEPTED measurement becomes the value (and
     * goes into the history), a rejection turns the status and raises an event, every observation
     * updates the verdict variables and counts.
     *
     * @param o an observation of the operator (for a sensor not served, ignored)
     */
    public void observe(Observation o) {
        SensorState st = states.get(o.sensor());
        if (st == null) {
            return;
        }
        synchronized (st) {
            SensorState.Update u = st.observe(o, Instant.now());
            // Into the history first: a client that sees a value served finds it in the history too.
            u.accepted().ifPresent(a -> keep(st.sensor(), a));
            namespace.apply(st.sensor(), u.values());
            u.alarm().ifPresent(a -> namespace.raise(st.sensor(), a));
        }
    }

    private void keep(String sensor, SensorState.Accepted a) {
        if (history == null) {
            return;
        }
        try {
            history.of(sensor).append(a.sourceTime(), a.verdictTime(), a.keyId(), a.index(), a.reading());
            historyFailed = false;
        } catch (IOException | RuntimeException e) {
            if (!historyFailed) {
                historyFailed = true; // once per failure run, not once per reading
                LOG.log(System.Logger.Level.WARNING, "gateway history of {0}: {1}", sensor, e.getMessage());
            }
        }
    }

    /**
     * Serves a change of the operator's connection to a sensor.
     *
     * @param state the new state
     */
    public void connectionChanged(ConnectionState state) {
        SensorState st = states.get(state.sensor());
        if (st == null) {
            return;
        }
        synchronized (st) {
            namespace.apply(st.sensor(), st.connection(state, Instant.now()).values());
        }
    }

    /**
     * Serves a sensor's key state as the operator read it.
     *
     * @param k the key state
     */
    public void keyState(Operator.KeyState k) {
        SensorState st = states.get(k.sensor());
        if (st == null) {
            return;
        }
        synchronized (st) {
            namespace.apply(st.sensor(), st.key(k, Instant.now()).values());
        }
    }

    /**
     * The endpoint URL.
     *
     * @return {@code opc.tcp://HOST:PORT/pqsign/gateway}, with the bind address as host
     */
    public String endpointUrl() {
        String h = config.bindAddress();
        return "opc.tcp://" + (h.contains(":") && !h.startsWith("[") ? "[" + h + "]" : h) + ":" + port + PATH;
    }

    /**
     * The TCP port.
     *
     * @return the configured port, or the one picked for 0
     */
    public int port() {
        return port;
    }

    /**
     * The gateway's application certificate, for the clients' trust lists.
     *
     * @return the certificate kept under {@code dir/pki} (the same across restarts)
     */
    public X509Certificate applicationCertificate() {
        return identity.certificate();
    }

    /**
     * The namespace index of {@link GatewayNodes#NAMESPACE_URI} in this server.
     *
     * @return the index clients find in the namespace array
     */
    public int namespaceIndex() {
        return namespace.getNamespaceIndex().intValue();
    }

    /** Stops the server (idempotent), after the notifications still queued went out, then the history. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            gate.close();
            if (started) {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_LINGER_MILLIS);
                while (namespace.itemsWithPendingNotifications() > 0 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
            }
            gate.awaitAnnounced(server, CLOSE_LINGER_MILLIS);
            server.shutdown().get(10, TimeUnit.SECONDS);
            if (started) {
                namespace.shutdown();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // stopping anyway
        }
        try {
            trustList.close();
        } catch (IOException ignored) {
            // the watch service is gone either way
        }
        if (history != null) {
            history.close();
        }
    }
}
