package dev.pqsign.opcua.internal;

import dev.pqsign.opcua.ApplicationIdentity;
import dev.pqsign.opcua.SensorEndpoint;
import dev.pqsign.opcua.TransportSecurity;
import java.security.cert.X509Certificate;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.security.TrustListManager;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.util.EndpointUtil;

/**
 * OPC UA clients of an application: its certificate and key, and a certificate validator that
 * trusts only the application's explicit trust list (Milo's default trusts everything).
 *
 * @param identity the application's certificate and key
 * @param applicationUri the application URI its certificate names
 * @param applicationName the name it gives servers
 * @param trustList the certificates of servers it trusts
 */
public record MiloClients(
        ApplicationIdentity identity, String applicationUri, String applicationName, TrustListManager trustList) {

    /** Longest a request waits for its response. */
    public static final int REQUEST_TIMEOUT_MILLIS = 10_000;

    /**
     * A client for {@code endpoint} with {@code security}, not connected yet. The endpoint the
     * server advertises is reached at the host and port of {@code endpoint} (a relay, a NAT).
     *
     * @param endpoint the server's endpoint
     * @param security the transport security to select
     * @return the client
     * @throws UaException if the server's endpoints cannot be read or none matches
     */
    public OpcUaClient create(SensorEndpoint endpoint, TransportSecurity security) throws UaException {
        String policy = security == TransportSecurity.NONE
                ? SecurityPolicy.None.getUri()
                : SecurityPolicy.Basic256Sha256.getUri();
        MessageSecurityMode mode =
                security == TransportSecurity.NONE ? MessageSecurityMode.None : MessageSecurityMode.SignAndEncrypt;
        var validator = new DefaultClientCertificateValidator(trustList, new MemoryCertificateQuarantine());
        return OpcUaClient.create(
                endpoint.url(),
                endpoints -> endpoints.stream()
                        .filter(e -> policy.equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode)
                        .findFirst()
                        .map(e -> EndpointUtil.updateUrl(e, endpoint.host(), endpoint.port())),
                transport -> transport.setEventLoop(MiloThreads.eventLoop()).setExecutor(MiloThreads.executor()),
                b -> b.setApplicationName(LocalizedText.english(applicationName))
                        .setApplicationUri(applicationUri)
                        .setKeyPair(identity.keyPair())
                        .setCertificate(identity.certificate())
                        .setCertificateChain(new X509Certificate[] {identity.certificate()})
                        .setCertificateValidator(validator)
                        .setRequestTimeout(Unsigned.uint(REQUEST_TIMEOUT_MILLIS)));
    }
}
