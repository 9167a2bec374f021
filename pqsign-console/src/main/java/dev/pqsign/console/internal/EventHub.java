package dev.pqsign.console.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Pushes the model to open pages as Server-Sent Events. One thread, a few times a second, takes
 * what changed and sends it to every page as one {@code delta} event; a page that has just
 * connected gets one {@code snapshot} event taken right after that delta, so it neither misses nor
 * repeats an update. However fast readings arrive, a page gets at most {@link #PUSH_MILLIS}-spaced
 * messages.
 */
public final class EventHub implements AutoCloseable {

    /** Time between pushes. */
    public static final long PUSH_MILLIS = 250;

    /** A comment line is sent after this much silence, to keep proxies open and find dead pages. */
    static final long KEEP_ALIVE_MILLIS = 15_000;

    /** Most pages open at once; more get 503 (each holds a connection and a send buffer). */
    public static final int MAX_CLIENTS = 32;

    /** A page that falls this far behind is dropped; its browser reconnects and gets a snapshot. */
    static final int MAX_PENDING_CHARS = 8 << 20;

    private final ConsoleModel model;
    private final ScheduledExecutorService pusher;
    private final ScheduledFuture<?> pushing;
    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<Client> joining = new ConcurrentLinkedQueue<>();
    private long lastSendMillis;

    public EventHub(ConsoleModel model) {
        this.model = model;
        this.pusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pqsign-console-push");
            t.setDaemon(true);
            return t;
        });
        this.pushing = pusher.scheduleWithFixedDelay(this::tickSafely, PUSH_MILLIS, PUSH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Takes over a GET /events response: it stays open and receives events until the page goes away.
     *
     * @return false if there are already {@link #MAX_CLIENTS} pages
     */
    public boolean open(Response response, Callback callback) {
        if (clients.size() + joining.size() >= MAX_CLIENTS) {
            return false;
        }
        HttpFields.Mutable h = response.getHeaders();
        h.put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        h.put(HttpHeader.CACHE_CONTROL, "no-store");
        Client c = new Client(response, callback);
        // Tells EventSource how soon to reconnect after the operator restarts.
        c.offer("retry: 2000\n\n");
        joining.add(c);
        return true;
    }

    /** Pages currently receiving events. */
    public int clientCount() {
        return clients.size() + joining.size();
    }

    private void tickSafely() {
        try {
            tick();
        } catch (RuntimeException e) {
            // A failed push must not end the pushing thread; the next tick tries again.
            System.err.println("pqsign: console: push failed: " + e);
        }
    }

    private void tick() {
        Map<String, Object> delta;
        Map<String, Object> snapshot = null;
        synchronized (model) {
            delta = model.takeDelta();
            if (!joining.isEmpty()) {
                snapshot = model.snapshot();
            }
        }
        long now = System.currentTimeMillis();
        if (delta != null) {
            broadcast(event("delta", delta));
        } else if (now - lastSendMillis >= KEEP_ALIVE_MILLIS) {
            broadcast(": keep-alive\n\n");
        }
        if (snapshot != null) {
            String s = event("snapshot", snapshot);
            Client c;
            while ((c = joining.poll()) != null) {
                clients.add(c);
                c.offer(s);
            }
        }
        if (delta != null || snapshot != null || now - lastSendMillis >= KEEP_ALIVE_MILLIS) {
            lastSendMillis = now;
        }
        clients.removeIf(Client::closed);
    }

    private void broadcast(String text) {
        for (Client c : clients) {
            c.offer(text);
        }
    }

    private static String event(String name, Object data) {
        // Jackson writes one line: JSON escapes every CR and LF inside strings.
        return "event: " + name + "\ndata: " + Json.write(data) + "\n\n";
    }

    @Override
    public void close() {
        pushing.cancel(false);
        pusher.shutdownNow();
        for (Client c : clients) {
            c.finish();
        }
        for (Client c : joining) {
            c.finish();
        }
        clients.clear();
        joining.clear();
    }

    /** One open page: text waits in {@code pending} while a write is in flight (Jetty allows one at a time). */
    private static final class Client {
        private final Response response;
        private final Callback done;
        private final StringBuilder pending = new StringBuilder();
        private boolean writing;
        private boolean closed;

        Client(Response response, Callback done) {
            this.response = response;
            this.done = done;
        }

        synchronized boolean closed() {
            return closed;
        }

        synchronized void offer(String text) {
            if (closed) {
                return;
            }
            pending.append(text);
            if (pending.length() > MAX_PENDING_CHARS) {
                fail(new IllegalStateException("page fell behind"));
                return;
            }
            if (!writing) {
                flush();
            }
        }

        private void flush() {
            writing = true;
            ByteBuffer b = StandardCharsets.UTF_8.encode(pending.toString());
            pending.setLength(0);
            response.write(false, b, Callback.from(this::written, this::fail));
        }

        private synchronized void written() {
            writing = false;
            if (!closed && pending.length() > 0) {
                flush();
            }
        }

        private synchronized void fail(Throwable x) {
            if (!closed) {
                closed = true;
                pending.setLength(0);
                done.failed(x);
            }
        }

        /** Ends the response normally (server shutting down). */
        synchronized void finish() {
            if (!closed) {
                closed = true;
                if (writing) {
                    done.failed(new IllegalStateException("console closing"));
                } else {
                    response.write(true, ByteBuffer.allocate(0), done);
                }
            }
        }
    }
}
