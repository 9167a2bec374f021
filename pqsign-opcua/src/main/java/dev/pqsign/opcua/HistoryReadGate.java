package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.ForwardingServerContext;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.UaRequestMessageType;
import org.eclipse.milo.opcua.stack.core.types.UaResponseMessageType;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadRequest;
import org.eclipse.milo.opcua.stack.transport.server.OpcServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.ServerApplicationContext;
import org.eclipse.milo.opcua.stack.transport.server.ServiceRequestContext;

/**
 * Bounds the HistoryRead requests a sensor works on, before they reach Milo's executor.
 *
 * <p>Why here: the transport hands every decoded request to the server, which queues it on the
 * executor that serves every client. A client that sends HistoryReads faster than they are
 * answered (they are pipelined on one channel) would fill that queue, and every other client's
 * Read, Publish and CreateSession would wait behind it. The gate answers, on the transport's
 * thread and without queueing anything:
 *
 * <ul>
 *   <li>a HistoryRead of more than {@link SensorLimits#MAX_NODES_PER_HISTORY_READ} nodes with
 *       {@code Bad_TooManyOperations} (Milo 1.1.2 checks HistoryRead against the much larger Read
 *       limit only);
 *   <li>a HistoryRead while {@link SensorLimits#MAX_HISTORY_READS_PER_SESSION} of the same session
 *       or {@link SensorLimits#MAX_HISTORY_READS} of all sessions are in progress with
 *       {@code Bad_ResourceUnavailable} (OPC UA Part 4: the server has not the resources now; the
 *       client retries later, as the operator's backfill does).
 * </ul>
 *
 * Both are service faults: the request as a whole is refused, and nothing of it was done. A
 * HistoryRead is in progress from its arrival until its response is ready; the response itself is
 * bounded by {@link SensorNamespace#MAX_HISTORY_BYTES_PER_READ}.
 */
final class HistoryReadGate {
    private final int maxNodes;
    private final int maxPerSession;
    private final int maxTotal;
    /** In-progress HistoryReads by session (authentication token); guarded by {@code this}. */
    private final Map<NodeId, Integer> perSession = new HashMap<>();

    private int total;

    HistoryReadGate(int maxNodes, int maxPerSession, int maxTotal) {
        this.maxNodes = maxNodes;
        this.maxPerSession = maxPerSession;
        this.maxTotal = maxTotal;
    }

    /**
     * The transport {@code transport}, with its HistoryRead requests passed through this gate.
     *
     * @param transport the server transport that Milo would otherwise use directly
     * @return a transport that passes every request through this gate
     */
    OpcServerTransport guard(OpcServerTransport transport) {
        return ForwardingServerContext.gated(transport, GatedContext::new);
    }

    /** Takes a slot for a HistoryRead of {@code session}, or says why there is none. */
    private synchronized String admit(NodeId session) {
        int mine = perSession.getOrDefault(session, 0);
        if (mine >= maxPerSession) {
            return "at most " + maxPerSession + " HistoryRead(s) of one session at a time";
        }
        if (total >= maxTotal) {
            return "at most " + maxTotal + " HistoryReads at a time";
        }
        perSession.put(session, mine + 1);
        total++;
        return null;
    }

    private synchronized void release(NodeId session) {
        perSession.computeIfPresent(session, (k, n) -> n > 1 ? n - 1 : null);
        total--;
    }

    private final class GatedContext extends ForwardingServerContext {
        GatedContext(ServerApplicationContext server) {
            super(server);
        }

        @Override
        public CompletableFuture<UaResponseMessageType> handleServiceRequest(
                ServiceRequestContext context, UaRequestMessageType request) {
            if (!(request instanceof HistoryReadRequest read)) {
                return super.handleServiceRequest(context, request);
            }
            int nodes = read.getNodesToRead() == null ? 0 : read.getNodesToRead().length;
            if (nodes > maxNodes) {
                return CompletableFuture.failedFuture(new UaException(
                        StatusCodes.Bad_TooManyOperations, nodes + " nodes in one HistoryRead; at most " + maxNodes));
            }
            NodeId token =
                    read.getRequestHeader() == null || read.getRequestHeader().getAuthenticationToken() == null
                            ? NodeId.NULL_VALUE
                            : read.getRequestHeader().getAuthenticationToken();
            String refused = admit(token);
            if (refused != null) {
                return CompletableFuture.failedFuture(new UaException(StatusCodes.Bad_ResourceUnavailable, refused));
            }
            CompletableFuture<UaResponseMessageType> response;
            try {
                response = super.handleServiceRequest(context, request);
            } catch (RuntimeException e) {
                release(token);
                throw e;
            }
            return response.whenComplete((r, e) -> release(token));
        }
    }
}
