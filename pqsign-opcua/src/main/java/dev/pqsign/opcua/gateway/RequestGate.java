package dev.pqsign.opcua.gateway;

import dev.pqsign.opcua.internal.ForwardingServerContext;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.Session;
import org.eclipse.milo.opcua.sdk.server.SessionListener;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.UaRequestMessageType;
import org.eclipse.milo.opcua.stack.core.types.UaResponseMessageType;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.structured.AddNodesRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.AddReferencesRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CreateSessionRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteNodesRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteReferencesRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryUpdateRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.ResponseHeader;
import org.eclipse.milo.opcua.stack.core.types.structured.WriteRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.WriteResponse;
import org.eclipse.milo.opcua.stack.transport.server.OpcServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.ServerApplicationContext;
import org.eclipse.milo.opcua.stack.transport.server.ServiceRequestContext;

/**
 * Sits between the transport and the gateway's Milo server and answers, before anything is queued
 * on the executor that serves every client (the approach of the sensor's request gates):
 *
 * <ul>
 *   <li>Write: every node {@code Bad_NotWritable} (the gateway serves verified values; nothing in
 *       it can be written), more than {@link GatewayLimits#MAX_NODES_PER_REQUEST} nodes
 *       {@code Bad_TooManyOperations};
 *   <li>Call, AddNodes, AddReferences, DeleteNodes, DeleteReferences, HistoryUpdate:
 *       {@code Bad_ServiceUnsupported} (service fault);
 *   <li>HistoryRead of more than {@link GatewayLimits#MAX_NODES_PER_HISTORY_READ} nodes:
 *       {@code Bad_TooManyOperations}; while {@link GatewayLimits#MAX_HISTORY_READS_PER_SESSION} of
 *       the session or {@link GatewayLimits#MAX_HISTORY_READS} in all are in progress:
 *       {@code Bad_ResourceUnavailable};
 *   <li>once {@link #close closed}: CreateSession {@code Bad_Shutdown}, so that no session is created
 *       into the namespaces a stopping server removes (Milo 1.1.2 builds a session's diagnostics
 *       object from type nodes that are gone by then).
 * </ul>
 */
final class RequestGate {
    private volatile boolean closed;
    private final Set<NodeId> announced = ConcurrentHashMap.newKeySet();
    /** In-progress HistoryReads by session (authentication token); guarded by {@code this}. */
    private final Map<NodeId, Integer> historyReads = new HashMap<>();

    private int historyReadsInAll;

    OpcServerTransport guard(OpcServerTransport transport) {
        return ForwardingServerContext.gated(transport, Gated::new);
    }

    /** Follows the server's session announcements (call after the server is constructed). */
    void follow(OpcUaServer server) {
        server.getSessionManager().addSessionListener(new SessionListener() {
            @Override
            public void onSessionCreated(Session session) {
                announced.add(session.getSessionId());
            }

            @Override
            public void onSessionClosed(Session session) {
                announced.remove(session.getSessionId());
            }
        });
    }

    /** Refuses every CreateSession from now on. */
    void close() {
        closed = true;
    }

    /** Waits until every session of {@code server} was announced to its listeners, or the time is up. */
    void awaitAnnounced(OpcUaServer server, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (System.nanoTime() < deadline) {
            List<Session> sessions = server.getSessionManager().getAllSessions();
            if (sessions.stream().allMatch(s -> announced.contains(s.getSessionId()))) {
                return;
            }
            Thread.sleep(2);
        }
    }

    private synchronized String admitHistoryRead(NodeId session) {
        int mine = historyReads.getOrDefault(session, 0);
        if (mine >= GatewayLimits.MAX_HISTORY_READS_PER_SESSION) {
            return "at most " + GatewayLimits.MAX_HISTORY_READS_PER_SESSION
                    + " HistoryRead(s) of one session at a time";
        }
        if (historyReadsInAll >= GatewayLimits.MAX_HISTORY_READS) {
            return "at most " + GatewayLimits.MAX_HISTORY_READS + " HistoryReads at a time";
        }
        historyReads.put(session, mine + 1);
        historyReadsInAll++;
        return null;
    }

    private synchronized void releaseHistoryRead(NodeId session) {
        historyReads.computeIfPresent(session, (k, n) -> n > 1 ? n - 1 : null);
        historyReadsInAll--;
    }

    private static CompletableFuture<UaResponseMessageType> fault(long code, String message) {
        return CompletableFuture.failedFuture(new UaException(code, message));
    }

    private CompletableFuture<UaResponseMessageType> historyRead(
            ServerApplicationContext server, ServiceRequestContext context, HistoryReadRequest read) {
        int nodes = read.getNodesToRead() == null ? 0 : read.getNodesToRead().length;
        if (nodes > GatewayLimits.MAX_NODES_PER_HISTORY_READ) {
            return fault(
                    StatusCodes.Bad_TooManyOperations,
                    nodes + " nodes in one HistoryRead; at most " + GatewayLimits.MAX_NODES_PER_HISTORY_READ);
        }
        NodeId token =
                read.getRequestHeader() == null || read.getRequestHeader().getAuthenticationToken() == null
                        ? NodeId.NULL_VALUE
                        : read.getRequestHeader().getAuthenticationToken();
        String refused = admitHistoryRead(token);
        if (refused != null) {
            return fault(StatusCodes.Bad_ResourceUnavailable, refused);
        }
        CompletableFuture<UaResponseMessageType> response;
        try {
            response = server.handleServiceRequest(context, read);
        } catch (RuntimeException e) {
            releaseHistoryRead(token);
            throw e;
        }
        return response.whenComplete((r, e) -> releaseHistoryRead(token));
    }

    private static CompletableFuture<UaResponseMessageType> write(WriteRequest write) {
        int nodes = write.getNodesToWrite() == null ? 0 : write.getNodesToWrite().length;
        if (nodes == 0) {
            return fault(StatusCodes.Bad_NothingToDo, "no nodes to write");
        }
        if (nodes > GatewayLimits.MAX_NODES_PER_REQUEST) {
            return fault(StatusCodes.Bad_TooManyOperations, nodes + " nodes in one Write");
        }
        StatusCode[] results = new StatusCode[nodes];
        Arrays.fill(results, new StatusCode(StatusCodes.Bad_NotWritable));
        ResponseHeader header = new ResponseHeader(
                DateTime.now(),
                write.getRequestHeader() == null
                        ? null
                        : write.getRequestHeader().getRequestHandle(),
                StatusCode.GOOD,
                null,
                null,
                null);
        return CompletableFuture.completedFuture(new WriteResponse(header, results, null));
    }

    private final class Gated extends ForwardingServerContext {
        private final ServerApplicationContext server;

        Gated(ServerApplicationContext server) {
            super(server);
            this.server = server;
        }

        @Override
        public CompletableFuture<UaResponseMessageType> handleServiceRequest(
                ServiceRequestContext context, UaRequestMessageType request) {
            if (request instanceof CreateSessionRequest && closed) {
                return fault(StatusCodes.Bad_Shutdown, "the gateway is shutting down");
            }
            if (request instanceof WriteRequest w) {
                return write(w);
            }
            if (request instanceof CallRequest
                    || request instanceof AddNodesRequest
                    || request instanceof AddReferencesRequest
                    || request instanceof DeleteNodesRequest
                    || request instanceof DeleteReferencesRequest
                    || request instanceof HistoryUpdateRequest) {
                return fault(StatusCodes.Bad_ServiceUnsupported, "the gateway is read-only");
            }
            if (request instanceof HistoryReadRequest read) {
                return historyRead(server, context, read);
            }
            return server.handleServiceRequest(context, request);
        }
    }
}
