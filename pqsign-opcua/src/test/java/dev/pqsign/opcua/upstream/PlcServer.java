package dev.pqsign.opcua.upstream;

import dev.pqsign.opcua.ApplicationIdentity;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.CompositeValidator;
import org.eclipse.milo.opcua.sdk.server.identity.UsernameIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.CertificateStore;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultServerCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.RsaSha256CertificateFactory;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * A real OPC UA server on loopback standing in for a PLC: namespace {@value #NS_URI} with variables
 * the test sets; every change goes to the monitored items at once (sampling interval 0). Endpoints
 * None and Basic256Sha256 Sign / SignAndEncrypt; anonymous or user {@value #USER}. Public (and in
 * pqsign-opcua's test jar) for the CLI's process tests of the whole plant path.
 */
public final class PlcServer implements AutoCloseable {
    /** The namespace of the PLC's variables. */
    public static final String NS_URI = "urn:test:plc";

    /** The user the PLC knows. */
    public static final String USER = "plc-reader";

    /** That user's password. */
    public static final String PASSWORD = "s3cret pass";

    private final OpcUaServer server;
    private final PlcNamespace namespace;
    private final FileBasedTrustListManager trustList;
    private final int port;
    private boolean closed;

    /** A PLC on a free port, its certificate and trust list under {@code dir}. */
    public PlcServer(Path dir, boolean anonymous) throws Exception {
        this(dir, anonymous, freePort());
    }

    /** A PLC on {@code port}: the same {@code dir} and port give the same PLC again after a restart. */
    public PlcServer(Path dir, boolean anonymous, int port) throws Exception {
        this.port = port;
        ApplicationIdentity id = ApplicationIdentity.loadOrCreate(
                dir.resolve("plc.pfx"), "urn:test:plc:app", "test plc", "pw".toCharArray());
        trustList = FileBasedTrustListManager.createAndInitialize(dir.resolve("plc-pki"));
        var quarantine = new MemoryCertificateQuarantine();
        var group = DefaultApplicationGroup.createAndInitialize(
                trustList,
                new FixedStore(id),
                new FixedFactory(id),
                new DefaultServerCertificateValidator(trustList, quarantine));
        var users =
                new UsernameIdentityValidator(c -> USER.equals(c.getUsername()) && PASSWORD.equals(c.getPassword()));
        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri("urn:test:plc:app")
                .setApplicationName(LocalizedText.english("test plc"))
                .setProductUri("urn:test:plc")
                .setEndpoints(endpoints(id.certificate(), anonymous))
                .setCertificateManager(new DefaultCertificateManager(quarantine, group))
                .setIdentityValidator(
                        anonymous ? new CompositeValidator(AnonymousIdentityValidator.INSTANCE, users) : users)
                .build();
        server = new OpcUaServer(
                config,
                profile -> new OpcTcpServerTransport(
                        OpcTcpServerTransportConfig.newBuilder().build()));
        namespace = new PlcNamespace(server);
        server.startup().get(30, TimeUnit.SECONDS);
        namespace.startup();
    }

    private Set<EndpointConfig> endpoints(X509Certificate cert, boolean anonymous) {
        EndpointConfig.Builder base = EndpointConfig.newBuilder()
                .setBindAddress("127.0.0.1")
                .setHostname("127.0.0.1")
                .setBindPort(port)
                .setPath("/plc")
                .setCertificate(cert)
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME);
        if (anonymous) {
            base.addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS);
        }
        Set<EndpointConfig> set = new LinkedHashSet<>();
        set.add(base.copy()
                .setSecurityPolicy(SecurityPolicy.None)
                .setSecurityMode(MessageSecurityMode.None)
                .build());
        for (MessageSecurityMode m : List.of(MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt)) {
            set.add(base.copy()
                    .setSecurityPolicy(SecurityPolicy.Basic256Sha256)
                    .setSecurityMode(m)
                    .build());
        }
        return set;
    }

    public String url() {
        return "opc.tcp://127.0.0.1:" + port + "/plc";
    }

    public int port() {
        return port;
    }

    /** {@code ns=N;s=NAME} as the upstream names it. */
    public String node(String name) {
        return namespace.id(name).toParseableString();
    }

    public void trustClient(X509Certificate cert) {
        trustList.addTrustedCertificate(cert);
    }

    public X509Certificate certificate() {
        return server.getConfig().getEndpoints().iterator().next().getCertificate();
    }

    /** Adds a variable with an initial value. */
    public void add(String name, NodeId dataType, DataValue initial) {
        namespace.add(name, dataType, initial);
    }

    /** Sets a value; every monitored item of the node is notified now. */
    public void set(String name, DataValue value) {
        namespace.set(name, value);
    }

    public static DataValue good(Object v, DateTime source) {
        return new DataValue(new Variant(v), StatusCode.GOOD, source, DateTime.now());
    }

    @Override
    public void close() throws java.io.IOException {
        if (closed) {
            return;
        }
        closed = true;
        namespace.shutdown();
        try {
            server.shutdown().get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new java.io.IOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        trustList.close();
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static final class PlcNamespace extends ManagedNamespaceWithLifecycle {
        private final Map<String, UaVariableNode> nodes = new ConcurrentHashMap<>();
        private final Map<NodeId, Set<DataItem>> items = new ConcurrentHashMap<>();
        private UaFolderNode folder;

        PlcNamespace(OpcUaServer server) {
            super(server, NS_URI);
            getLifecycleManager().addStartupTask(() -> {
                folder = new UaFolderNode(
                        getNodeContext(),
                        newNodeId("Motor"),
                        newQualifiedName("Motor"),
                        LocalizedText.english("Motor"));
                getNodeManager().addNode(folder);
                folder.addReference(new org.eclipse.milo.opcua.sdk.core.Reference(
                        folder.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(), false));
            });
        }

        NodeId id(String name) {
            return newNodeId(name);
        }

        void add(String name, NodeId dataType, DataValue initial) {
            UaVariableNode node = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId(name))
                    .setAccessLevel(AccessLevel.READ_ONLY)
                    .setUserAccessLevel(AccessLevel.READ_ONLY)
                    .setBrowseName(newQualifiedName(name))
                    .setDisplayName(LocalizedText.english(name))
                    .setDataType(dataType)
                    .setTypeDefinition(NodeIds.BaseDataVariableType)
                    .setMinimumSamplingInterval(0.0)
                    .build();
            node.setValue(initial);
            getNodeManager().addNode(node);
            folder.addOrganizes(node);
            nodes.put(name, node);
        }

        void set(String name, DataValue value) {
            UaVariableNode node = nodes.get(name);
            node.setValue(value);
            for (DataItem item : items.getOrDefault(node.getNodeId(), Set.of())) {
                item.setValue(value);
            }
        }

        @Override
        public void onDataItemsCreated(List<DataItem> dataItems) {
            for (DataItem item : dataItems) {
                NodeId id = item.getReadValueId().getNodeId();
                items.computeIfAbsent(id, k -> ConcurrentHashMap.newKeySet()).add(item);
                UaVariableNode node = (UaVariableNode) getNodeManager().get(id);
                if (node != null) {
                    item.setValue(node.getValue());
                }
            }
        }

        @Override
        public void onDataItemsModified(List<DataItem> dataItems) {}

        @Override
        public void onDataItemsDeleted(List<DataItem> dataItems) {
            for (DataItem item : dataItems) {
                Set<DataItem> s = items.get(item.getReadValueId().getNodeId());
                if (s != null) {
                    s.remove(item);
                }
            }
        }

        @Override
        public void onMonitoringModeChanged(List<MonitoredItem> monitoredItems) {}
    }

    private static final class FixedStore implements CertificateStore {
        private Entry entry;

        FixedStore(ApplicationIdentity id) {
            entry = new Entry(id.keyPair().getPrivate(), new X509Certificate[] {id.certificate()});
        }

        @Override
        public synchronized boolean contains(NodeId type) {
            return entry != null && NodeIds.RsaSha256ApplicationCertificateType.equals(type);
        }

        @Override
        public synchronized Entry get(NodeId type) {
            return contains(type) ? entry : null;
        }

        @Override
        public synchronized Entry remove(NodeId type) {
            Entry e = get(type);
            entry = null;
            return e;
        }

        @Override
        public synchronized void set(NodeId type, Entry e) {
            entry = e;
        }
    }

    private static final class FixedFactory extends RsaSha256CertificateFactory {
        private final ApplicationIdentity id;

        FixedFactory(ApplicationIdentity id) {
            this.id = id;
        }

        @Override
        protected KeyPair createRsaSha256KeyPair() {
            return id.keyPair();
        }

        @Override
        protected X509Certificate[] createRsaSha256CertificateChain(KeyPair keyPair) {
            return new X509Certificate[] {id.certificate()};
        }
    }
}
