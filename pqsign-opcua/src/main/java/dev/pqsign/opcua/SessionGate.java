package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.ForwardingServerContext;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.Session;
import org.eclipse.milo.opcua.sdk.server.SessionListener;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.UaRequestMessageType;
import org.eclipse.milo.opcua.stack.core.types.UaResponseMessageType;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.structured.CreateSessionRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CreateSessionResponse;
import org.eclipse.milo.opcua.stack.transport.server.OpcServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.ServerApplicationContext;
import org.eclipse.milo.opcua.stack.transport.server.ServiceRequestContext;

/**
 * Lets a sensor server stop without creating sessions into a dismantled address space.
 *
 * <p>Why: Milo 1.1.2's {@code OpcUaServer.shutdown()} closes the listening socket but not the secure
 * channels already open, then removes the standard (ns 0) and server namespaces. A connected
 * operator whose session the stop disturbs opens a new session on its still open channel; the
 * server builds that session's diagnostics object (OPC UA Part 5, SessionDiagnosticsObjectType)
 * from type nodes that are already gone, and logs a warning with a stack trace. The same happens to
 * a session created just before the stop whose creation is announced to the server's session
 * listeners (on a task queue) only after the namespaces went.
 *
 * <p>The gate sits between the transport and the server: once {@link #close closed}, every
 * CreateSession is answered with {@code Bad_Shutdown} (the client backs off as from any refused
 * connection; requests of existing sessions still go through, so the last notifications of a
 * stopping sensor are delivered), and {@link #awaitAnnounced} waits until every session that
 * exists has been announced to the listeners, so the server's diagnostics object for it is
 * complete before the namespaces are removed — and every session created through the gate, even
 * one that was closed again before its announcement (the first announcement in a process builds
 * the diagnostics type's instance hierarchy and can take a second on a busy machine).
 */
final class SessionGate {
    private volatile boolean closed;
    private final Set<NodeId> announced = ConcurrentHashMap.newKeySet();
    /** Sessions created through this gate (CreateSession answered with a session). */
    private final AtomicLong created = new AtomicLong();
    /** Sessions announced to the listeners, closed since or not. */
    private final AtomicLong announcements = new AtomicLong();

    /**
     * The transport {@code transport}, with CreateSession refused once this gate is closed.
     *
     * @param transport the server transport that Milo would otherwise use directly
     * @return a transport that passes every request through this gate
     */
    OpcServerTransport guard(OpcServerTransport transport) {
        return ForwardingServerContext.gated(transport, GatedContext::new);
    }

    /**
     * Follows the session announcements of {@code server}. Call it after the server is constructed,
     * so this listener comes after the server's own diagnostics listener and hears of a session
     * only once that listener has handled it.
     *
     * @param server the server whose sessions are followed
     */
    void follow(OpcUaServer server) {
        server.getSessionManager().addSessionListener(new SessionListener() {
            @Override
            public void onSessionCreated(Session session) {
                announced.add(session.getSessionId());
                announcements.incrementAndGet();
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

    /**
     * Waits until every session of {@code server} has been announced to its session listeners, or
     * {@code timeoutMillis} passed.
     *
     * @param server the server whose sessions must be announced
     * @param timeoutMillis the longest wait
     * @return whether every session was announced in time
     * @throws InterruptedException if interrupted while waiting
     */
    boolean awaitAnnounced(OpcUaServer server, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            List<Session> sessions = server.getSessionManager().getAllSessions();
            if (announcements.get() >= created.get()
                    && sessions.stream().allMatch(s -> announced.contains(s.getSessionId()))) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            Thread.sleep(2);
        }
    }

    private final class GatedContext extends ForwardingServerContext {
        GatedContext(ServerApplicationContext server) {
            super(server);
        }

        @Override
        public CompletableFuture<UaResponseMessageType> handleServiceRequest(
                ServiceRequestContext context, UaRequestMessageType request) {
            if (closed && request instanceof CreateSessionRequest) {
                return CompletableFuture.failedFuture(
                        new UaException(StatusCodes.Bad_Shutdown, "the sensor is shutting down"));
            }
            CompletableFuture<UaResponseMessageType> response = super.handleServiceRequest(context, request);
            if (request instanceof CreateSessionRequest) {
                return response.whenComplete((r, e) -> {
                    if (r instanceof CreateSessionResponse) {
                        created.incrementAndGet();
                    }
                });
            }
            return response;
        }
    }
}
