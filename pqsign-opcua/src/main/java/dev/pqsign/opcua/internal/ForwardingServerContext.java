package dev.pqsign.opcua.internal;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.eclipse.milo.opcua.stack.core.channel.SecurityKeysListener;
import org.eclipse.milo.opcua.stack.core.encoding.EncodingContext;
import org.eclipse.milo.opcua.stack.core.security.CertificateManager;
import org.eclipse.milo.opcua.stack.core.types.UaRequestMessageType;
import org.eclipse.milo.opcua.stack.core.types.UaResponseMessageType;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.transport.server.OpcServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.ServerApplicationContext;
import org.eclipse.milo.opcua.stack.transport.server.ServiceRequestContext;

/**
 * The server side of a transport, passed through unchanged: a gate between the transport and the
 * server (the sensor's session and HistoryRead gates, the gateway's request gate) overrides
 * {@link #handleServiceRequest} only.
 */
public abstract class ForwardingServerContext implements ServerApplicationContext {
    private final ServerApplicationContext server;

    /**
     * A context that forwards everything to {@code server}.
     *
     * @param server the server side to pass requests to
     */
    protected ForwardingServerContext(ServerApplicationContext server) {
        this.server = server;
    }

    @Override
    public List<EndpointDescription> getEndpointDescriptions() {
        return server.getEndpointDescriptions();
    }

    @Override
    public CertificateManager getCertificateManager() {
        return server.getCertificateManager();
    }

    @Override
    public EncodingContext getEncodingContext() {
        return server.getEncodingContext();
    }

    @Override
    public Long getNextSecureChannelId() {
        return server.getNextSecureChannelId();
    }

    @Override
    public Long getNextSecureChannelTokenId() {
        return server.getNextSecureChannelTokenId();
    }

    @Override
    public SecurityKeysListener getSecurityKeysListener() {
        return server.getSecurityKeysListener();
    }

    @Override
    public CompletableFuture<UaResponseMessageType> handleServiceRequest(
            ServiceRequestContext context, UaRequestMessageType request) {
        return server.handleServiceRequest(context, request);
    }

    /**
     * {@code transport}, with every server context it is bound to passed through {@code gate}
     * first: how a gate puts itself between Milo's transport and its server.
     *
     * @param transport the server transport Milo would otherwise use directly
     * @param gate wraps the server's context
     * @return the gated transport
     */
    public static OpcServerTransport gated(OpcServerTransport transport, UnaryOperator<ServerApplicationContext> gate) {
        return new OpcServerTransport() {
            @Override
            public void bind(ServerApplicationContext context, InetSocketAddress address) throws Exception {
                transport.bind(gate.apply(context), address);
            }

            @Override
            public void unbind() throws Exception {
                transport.unbind();
            }
        };
    }
}
