package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pqsign.opcua.ApplicationIdentity;
import dev.pqsign.opcua.SensorEndpoint;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.opcua.internal.MiloClients;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.FileBasedTrustListManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway's secure endpoint: only clients in its trust list open a SignAndEncrypt channel. */
class GatewaySecurityTest {

    @TempDir
    Path dir;

    @Test
    void signAndEncrypt_untrustedClientRefused_trustedClientReadsTheNamespace() throws Exception {
        ApplicationIdentity trusted = ApplicationIdentity.loadOrCreate(
                dir.resolve("trusted.pfx"), "urn:test:trusted", "trusted client", "x".toCharArray());
        ApplicationIdentity stranger = ApplicationIdentity.loadOrCreate(
                dir.resolve("stranger.pfx"), "urn:test:stranger", "stranger", "x".toCharArray());
        GatewayServer.Config config = new GatewayServer.Config(
                dir.resolve("gateway"),
                "127.0.0.1",
                0,
                EnumSet.of(GatewaySecurity.SIGN_AND_ENCRYPT),
                List.of(trusted.certificate()),
                0,
                0);
        try (GatewayServer gateway = GatewayServer.start(config, List.of("s1"));
                FileBasedTrustListManager servers = FileBasedTrustListManager.createAndInitialize(dir.resolve("c"))) {
            servers.addTrustedCertificate(gateway.applicationCertificate());
            SensorEndpoint endpoint = SensorEndpoint.parse(gateway.endpointUrl());

            OpcUaClient refused = new MiloClients(stranger, "urn:test:stranger", "stranger", servers)
                    .create(endpoint, TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT);
            assertThrows(UaException.class, refused::connect, "a client not in the trust list");

            OpcUaClient client = new MiloClients(trusted, "urn:test:trusted", "trusted client", servers)
                    .create(endpoint, TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT);
            client.connect();
            try {
                assertEquals(
                        gateway.namespaceIndex(),
                        client.readNamespaceTable()
                                .getIndex(GatewayNodes.NAMESPACE_URI)
                                .intValue());
            } finally {
                client.disconnect();
            }
        }
    }
}
