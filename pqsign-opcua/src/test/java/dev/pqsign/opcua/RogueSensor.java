package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.PersistedIdentity;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SignedRecord;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultServerCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * A broken or hostile sensor on loopback: a real Milo server with the sensor's address space
 * ({@link SensorNamespace}, unsecured endpoint only) that puts whatever value a test gives it on
 * {@link SensorNodes#RECORD}, signed or not, of any type, or null. {@link SensorServer} publishes only
 * what its signer signed; an operator must also survive a server that does not.
 */
final class RogueSensor implements AutoCloseable {
    private final int port;
    private final OpcUaServer server;
    private final SensorNamespace namespace;
    private final FileBasedTrustListManager trustList;
    private boolean closed;

    private RogueSensor(Path dir) throws Exception {
        port = freePort();
        ApplicationIdentity id = ApplicationIdentity.loadOrCreate(
                dir.resolve("rogue.pfx"), "urn:test:rogue-sensor", "rogue sensor", "pw".toCharArray());
        trustList = FileBasedTrustListManager.createAndInitialize(dir.resolve("pki"));
        var quarantine = new MemoryCertificateQuarantine();
        var group = DefaultApplicationGroup.createAndInitialize(
                trustList,
                PersistedIdentity.store(id),
                PersistedIdentity.factory(id),
                new DefaultServerCertificateValidator(trustList, quarantine));
        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri("urn:test:rogue-sensor")
                .setApplicationName(LocalizedText.english("rogue sensor"))
                .setProductUri("urn:test:rogue-sensor")
                .setEndpoints(Set.of(EndpointConfig.newBuilder()
                        .setBindAddress("127.0.0.1")
                        .setHostname("127.0.0.1")
                        .setBindPort(port)
                        .setPath(SensorServer.PATH)
                        .setCertificate(id.certificate())
                        .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                        .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                        .setSecurityPolicy(SecurityPolicy.None)
                        .setSecurityMode(MessageSecurityMode.None)
                        .build()))
                .setCertificateManager(new DefaultCertificateManager(quarantine, group))
                .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                .setLimits(SensorLimits.of(SensorServer.MIN_PUBLISHING_INTERVAL_MS))
                .setEncodingLimits(SensorLimits.encodingLimits())
                .build();
        server = new OpcUaServer(
                config,
                profile -> new OpcTcpServerTransport(
                        OpcTcpServerTransportConfig.newBuilder().build()));
        namespace = new SensorNamespace(server, null);
    }

    /**
     * Starts a rogue sensor that names {@code keyId} and {@code parameterSetName} on its key nodes,
     * as a sensor of that key would.
     */
    static RogueSensor start(Path dir, KeyId keyId, String parameterSetName) throws Exception {
        RogueSensor s = new RogueSensor(dir);
        try {
            s.server.startup().get(30, TimeUnit.SECONDS);
            s.namespace.startup();
            LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
            v.put(SensorNodes.PARAMETER_SET, new Variant(parameterSetName));
            v.put(SensorNodes.KEY_ID, new Variant(ByteString.of(keyId.bytes())));
            v.put(SensorNodes.CERTIFICATE, new Variant(ByteString.of(new byte[0])));
            s.namespace.update(v);
        } catch (Exception e) {
            s.close();
            throw e;
        }
        return s;
    }

    String endpointUrl() {
        return "opc.tcp://127.0.0.1:" + port + SensorServer.PATH;
    }

    /** Puts a signed record, encoded, on the record node. */
    void publish(SignedRecord record) {
        putRecord(ByteString.of(record.encode()));
    }

    /** Puts {@code value} (any value Milo can encode, or null) on the record node. */
    void putRecord(Object value) {
        LinkedHashMap<String, Variant> v = new LinkedHashMap<>();
        v.put(SensorNodes.RECORD, value == null ? Variant.NULL_VALUE : new Variant(value));
        namespace.update(v);
    }

    @Override
    public void close() throws java.io.IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            server.shutdown().get(10, TimeUnit.SECONDS);
            namespace.shutdown();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new java.io.IOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            trustList.close();
        }
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
