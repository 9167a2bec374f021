package dev.pqsign.opcua;

import dev.pqsign.opcua.internal.MiloClients;
import dev.pqsign.opcua.internal.OpcUaKeyHistory;
import dev.pqsign.telemetry.operator.ConnectionState;
import dev.pqsign.telemetry.operator.KeyHistory;
import dev.pqsign.telemetry.operator.ReceivedValue;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.sdk.client.UaSession;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;

/**
 * One sensor's record node, delivered losslessly and in publication order to a {@link Consumer}:
 * a subscription with sampling interval 0 and a queue (overflow marked, never silently dropped),
 * and on every (re)connection first a backfill of what the sensor's history holds after the
 * consumer's {@linkplain Consumer#backfillFrom() position}, then the live values queued behind it.
 *
 * <p>A value the consumer {@linkplain Consumer#accept defers}, and a backfill cut off, put the
 * subscription <em>behind</em>: what arrives is held back (counted, not delivered) until a backfill
 * reads the history to its end again, because it may belong after values not delivered yet.
 *
 * <p>The connection is kept by itself: the first connection and every reconnection is tried again
 * with a growing delay capped at {@link #MAX_RETRY_MILLIS}, and a session lost for longer than
 * {@link #RECONNECT_INTERVAL_MILLIS} is reopened with a new client (Milo's own reconnect waits up to
 * 16 s). Every change is reported as a {@link ConnectionState}. All consumer calls happen on the
 * subscription's own thread.
 */
public final class RecordSubscription implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RecordSubscription.class.getName());

    /** Longest a lost session waits for Milo's own reconnect before the subscription reopens it. */
    public static final long RECONNECT_INTERVAL_MILLIS = 2000;

    /** First delay before a failed connection attempt is repeated; it doubles up to {@link #MAX_RETRY_MILLIS}. */
    public static final long FIRST_RETRY_MILLIS = 250;

    /** Longest delay between two connection attempts. */
    public static final long MAX_RETRY_MILLIS = 5000;

    /** Requested time between keep-alive messages of an idle subscription. */
    static final double KEEP_ALIVE_INTERVAL_MS = 1000;

    /** Subscription lifetime in keep-alive intervals (OPC UA requires at least 3). */
    private static final long LIFETIME_KEEP_ALIVES = 5;

    /** Schedules retries and watchdogs (one daemon thread for every subscription; the work runs on theirs). */
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pqsign-subscription-timer");
        t.setDaemon(true);
        return t;
    });

    /** Receives a sensor's record-node values, in order, on the subscription's thread. */
    public interface Consumer {
        /**
         * Where the backfill from the sensor's history starts (inclusive).
         *
         * @return the source time to read from, or empty for no backfill
         */
        Optional<Instant> backfillFrom();

        /**
         * One value, from the history or live.
         *
         * @param value the value as received
         * @param history what the sensor keeps about its keys (asking it may fail)
         * @return false to defer it: it and everything after it are delivered again by a later backfill
         */
        boolean accept(ReceivedValue value, KeyHistory history);

        /**
         * Consecutive values (a page of the sensor's history), in order, as {@link #accept} one by
         * one would take them; a consumer may finish their work together (e.g. make what it decided
         * durable at once) before it returns.
         *
         * @param values the values as received
         * @param history what the sensor keeps about its keys (asking it may fail)
         * @return how many were taken; fewer than given: the next one was deferred, and it and
         *     everything after it are delivered again by a later backfill
         */
        default int acceptAll(List<ReceivedValue> values, KeyHistory history) {
            for (int i = 0; i < values.size(); i++) {
                if (!accept(values.get(i), history)) {
                    return i;
                }
            }
            return values.size();
        }

        /**
         * Called before the backfill of a new subscription.
         *
         * @param history what the sensor keeps about its keys
         */
        default void backfillStarting(KeyHistory history) {}

        /** Called after the backfill of a new subscription, complete or not. */
        default void backfillEnded() {}
    }

    private final String name;
    private final SensorEndpoint endpoint;
    private final TransportSecurity security;
    private final Operator.Config config;
    private final MiloClients clients;
    private final Consumer consumer;
    private final java.util.function.Consumer<ConnectionState> states;
    private final ExecutorService worker;
    private final RecordBackfill backfill;

    private volatile OpcUaClient client;
    /** The client whose records are subscribed (set once its first subscription exists). */
    private volatile OpcUaClient subscribedClient;

    private volatile OpcUaSubscription subscription;
    private volatile long revisedQueueSize;
    private final AtomicLong overflows = new AtomicLong();
    private ConnectionState state; // guarded by this
    private boolean closed; // guarded by this
    private long retryMillis = FIRST_RETRY_MILLIS; // worker thread only
    private volatile long lostAt; // nanoTime the session was lost, 0 while up

    RecordSubscription(
            String name,
            SensorEndpoint endpoint,
            TransportSecurity security,
            Operator.Config config,
            MiloClients clients,
            Consumer consumer,
            java.util.function.Consumer<ConnectionState> states) {
        this.name = Objects.requireNonNull(name, "name");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.security = Objects.requireNonNull(security, "security");
        this.config = config;
        this.clients = clients;
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.states = states;
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "pqsign-operator-" + name);
            t.setDaemon(true);
            return t;
        });
        this.backfill = new RecordBackfill(name, consumer, this::deliver, this::runLater);
        this.state = new ConnectionState(name, ConnectionState.Status.CONNECTING, Instant.now(), "connecting");
    }

    /** Starts connecting (on the subscription's thread); returns at once. */
    void start() {
        execute(this::attempt);
    }

    /**
     * The sensor's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The connection's state now.
     *
     * @return the state
     */
    public synchronized ConnectionState state() {
        return state;
    }

    /**
     * Waits until the sensor's records are subscribed, or the first attempt has failed and {@code timeout} passed.
     *
     * @param timeout the longest wait
     * @return whether it is connected
     * @throws InterruptedException if interrupted while waiting
     */
    public synchronized boolean awaitConnected(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!state.connected() && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return state.connected();
    }

    /**
     * Waits until the first connection attempt has come to an end (connected, or failed and retrying).
     *
     * @param timeout the longest wait
     * @return the state then
     * @throws InterruptedException if interrupted while waiting
     */
    public synchronized ConnectionState awaitFirstAttempt(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (state.status() == ConnectionState.Status.CONNECTING && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return state;
    }

    /**
     * Whether the sensor's records are subscribed now.
     *
     * @return whether connected
     */
    public boolean connected() {
        return state().connected();
    }

    private void transition(ConnectionState.Status status, String detail) {
        ConnectionState next;
        synchronized (this) {
            if (closed && status != ConnectionState.Status.CLOSED) {
                return;
            }
            if (state.status() == status) {
                return;
            }
            next = new ConnectionState(name, status, Instant.now(), detail);
            state = next;
            notifyAll();
        }
        LOG.log(Level.INFO, "{0}: {1} ({2})", name, status.label(), detail);
        if (states != null) {
            states.accept(next);
        }
    }

    private void execute(Runnable task) {
        try {
            worker.execute(task);
        } catch (RejectedExecutionException closing) {
            // the subscription is closing
        }
    }

    private void runLater(Runnable task, long millis) {
        var unused = TIMER.schedule(() -> execute(task), millis, TimeUnit.MILLISECONDS);
    }

    /** One connection attempt (worker thread); on failure the next one is scheduled. */
    private void attempt() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        try {
            open();
            retryMillis = FIRST_RETRY_MILLIS;
        } catch (UaException | RuntimeException e) {
            String why = describe(e);
            LOG.log(Level.DEBUG, "{0}: connection attempt failed: {1}", name, why);
            transition(ConnectionState.Status.DOWN, why);
            runLater(this::attempt, retryMillis);
            retryMillis = Math.min(MAX_RETRY_MILLIS, retryMillis * 2);
        }
    }

    /**
     * One line for a failed attempt: the deepest cause's message (no stack, no library class
     * names), else the OPC UA status.
     */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        if (m == null || m.isBlank()) {
            m = e instanceof UaException u
                    ? u.getStatusCode().toString()
                    : e.getClass().getSimpleName();
        }
        if (root instanceof java.util.concurrent.TimeoutException) {
            m = "no answer in time";
        }
        m = m.replaceAll("(?:[a-z_][a-z0-9_]*\\.)+[A-Z]\\w*(?:Exception|Error): ?", "");
        return m.lines().findFirst().orElse(m);
    }

    private void open() throws UaException {
        OpcUaClient c = clients.create(endpoint, security);
        client = c;
        c.addSessionActivityListener(new SessionActivityListener() {
            @Override
            public void onSessionActive(UaSession session) {
                // Connected only once the records are subscribed: before that, a caller told
                // "connected" could publish readings the subscription would never see live.
                if (c == client && c == subscribedClient) {
                    lostAt = 0;
                    transition(ConnectionState.Status.CONNECTED, "session active");
                }
            }

            @Override
            public void onSessionInactive(UaSession session) {
                if (c == client) {
                    lostAt = System.nanoTime();
                    transition(ConnectionState.Status.RECONNECTING, "session lost");
                    runLater(() -> reopenIfStillLost(c), RECONNECT_INTERVAL_MILLIS);
                }
            }
        });
        try {
            c.connect();
            subscribe(c);
        } catch (UaException | RuntimeException e) {
            // stop its own reconnect attempts; the next attempt uses a new client
            var unused = c.disconnectAsync();
            throw e;
        }
        lostAt = 0;
        subscribedClient = c;
        transition(ConnectionState.Status.CONNECTED, "subscribed");
    }

    /** Replaces a client whose session has not come back by itself (worker thread). */
    private void reopenIfStillLost(OpcUaClient lost) {
        if (lost != client || lostAt == 0) {
            return;
        }
        try {
            lost.disconnectAsync().get(2, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // the old session is gone either way
        }
        attempt();
    }

    /**
     * Creates the subscription: one data item on the record node, sampling interval 0, the backfill
     * queued on the worker ahead of every live notification. Again when Milo reconnects to a
     * restarted sensor and cannot transfer the old one.
     */
    private void subscribe(OpcUaClient c) throws UaException {
        UShort ns = c.readNamespaceTable().getIndex(SensorNodes.NAMESPACE_URI);
        if (ns == null) {
            throw new UaException(
                    StatusCodes.Bad_NodeIdUnknown, "server has no namespace " + SensorNodes.NAMESPACE_URI);
        }
        OpcUaSubscription sub = new OpcUaSubscription(c, config.publishingIntervalMs());
        // Milo keeps the keep-alive count it derives for its 1000 ms default interval (10, lifetime
        // 50): at 1 ms that is an empty Publish exchange every 10 ms, and a subscription that dies
        // after 50 ms without Publish requests. Derive both from the interval actually requested.
        long keepAliveCount = Math.min(0xffffffffL / LIFETIME_KEEP_ALIVES, Math.max(1, (long)
                Math.ceil(KEEP_ALIVE_INTERVAL_MS / config.publishingIntervalMs())));
        sub.setMaxKeepAliveCount(Unsigned.uint(keepAliveCount));
        sub.setLifetimeCount(Unsigned.uint(keepAliveCount * LIFETIME_KEEP_ALIVES));
        sub.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
            @Override
            public void onTransferFailed(OpcUaSubscription failed, StatusCode status) {
                if (c != client) {
                    return; // a client replaced since; the new one subscribed by itself
                }
                LOG.log(Level.INFO, "{0}: subscription lost after reconnect ({1}); subscribing again", name, status);
                execute(() -> {
                    try {
                        subscribe(c);
                    } catch (UaException | RuntimeException e) {
                        LOG.log(Level.WARNING, "{0}: cannot subscribe again: {1}", name, describe(e));
                    }
                });
            }
        });
        sub.create();
        NodeId recordNode = new NodeId(ns, SensorNodes.RECORD);
        KeyHistory history = new OpcUaKeyHistory(c);
        // Queued before the monitored item exists, so it runs before any live notification.
        execute(() -> backfill.afterSubscribing(c, recordNode, history));
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(recordNode);
        item.setSamplingInterval(0.0);
        // Every record must arrive: a queue for bursts between two Publish responses; when it is
        // full the newest value carries the overflow bit instead of the oldest being dropped
        // silently (the index sequence then shows what was lost).
        item.setQueueSize(Unsigned.uint(config.queueSize()));
        item.setDiscardOldest(false);
        item.setDataValueListener((i, value) -> execute(() -> live(value, history)));
        sub.addMonitoredItem(item);
        sub.synchronizeMonitoredItems();
        long granted = item.getRevisedQueueSize().map(UInteger::longValue).orElse(0L);
        if (granted < config.queueSize()) {
            LOG.log(
                    Level.WARNING,
                    "{0}: the sensor granted a queue of {1} instead of {2} readings",
                    name,
                    granted,
                    config.queueSize());
        }
        revisedQueueSize = granted;
        subscription = sub;
    }

    /** A live notification (worker thread). */
    private void live(DataValue notified, KeyHistory history) {
        StatusCode status = notified.statusCode();
        if (status != null && status.isOverflowSet()) {
            // The server's queue for this item overflowed: readings were dropped there. The index
            // sequence shows which (reported as GAP when the next reading is accepted).
            overflows.incrementAndGet();
            LOG.log(Level.WARNING, "{0}: the sensor's notification queue overflowed; readings were lost", name);
        }
        backfill.live(notified, history);
    }

    /**
     * Hands values to the consumer (one live value, or a page of the history), in order; returns
     * how many were taken, fewer than given if the next one was deferred (worker thread).
     */
    private int deliver(List<DataValue> notified, boolean live, KeyHistory history) {
        List<ReceivedValue> values = new ArrayList<>(notified.size());
        int[] at = new int[notified.size()]; // where each value handed over stands in notified
        for (int i = 0; i < notified.size(); i++) {
            ReceivedValue v = received(notified.get(i), live);
            if (v != null) {
                at[values.size()] = i;
                values.add(v);
            }
        }
        int taken;
        try {
            taken = values.size() == 1
                    ? (consumer.accept(values.get(0), history) ? 1 : 0)
                    : consumer.acceptAll(values, history);
        } catch (RuntimeException e) {
            // Nothing a sensor publishes may stop the subscription.
            LOG.log(Level.ERROR, name + ": unexpected failure handling a value", e);
            return notified.size();
        }
        return taken >= values.size() ? notified.size() : at[taken];
    }

    /** The value as the consumer receives it; null for "no reading published yet". */
    private static ReceivedValue received(DataValue notified, boolean live) {
        Object value = notified.value() == null ? null : notified.value().value();
        StatusCode status = notified.statusCode();
        if (value == null && status != null && status.value() == StatusCodes.Bad_WaitingForInitialData) {
            return null;
        }
        if (value instanceof ByteString b && b.bytes() != null) {
            return new ReceivedValue(b.bytesOrEmpty(), null, live, Instant.now(), System.nanoTime());
        }
        String what =
                value == null ? "no value (" + status + ")" : value.getClass().getSimpleName();
        return new ReceivedValue(null, what, live, Instant.now(), System.nanoTime());
    }

    /**
     * The publishing interval the server granted, in milliseconds.
     *
     * @return the granted interval, NaN before the first subscription
     */
    public double revisedPublishingIntervalMs() {
        OpcUaSubscription s = subscription;
        return s == null ? Double.NaN : s.getRevisedPublishingInterval().orElse(Double.NaN);
    }

    /**
     * The keep-alive interval the server granted (keep-alive count × publishing interval), in milliseconds.
     *
     * @return the granted keep-alive interval, NaN before the first subscription
     */
    public double revisedKeepAliveIntervalMs() {
        OpcUaSubscription s = subscription;
        return s == null
                ? Double.NaN
                : s.getRevisedMaxKeepAliveCount().map(UInteger::doubleValue).orElse(Double.NaN)
                        * revisedPublishingIntervalMs();
    }

    /**
     * The monitored-item queue size the sensor granted.
     *
     * @return the granted queue size
     */
    public long revisedQueueSize() {
        return revisedQueueSize;
    }

    /**
     * Notifications that arrived with the overflow bit (the sensor's queue for us was full).
     *
     * @return the count since the subscription started
     */
    public long overflows() {
        return overflows.get();
    }

    /**
     * Values read from the sensor's history by backfills.
     *
     * @return the count since the subscription started
     */
    public long backfilled() {
        return backfill.backfilled();
    }

    /**
     * HistoryReads of a backfill that failed (values are then held back and the read retried).
     *
     * @return the count since the subscription started
     */
    public long backfillFailures() {
        return backfill.failures();
    }

    /**
     * Values received while behind, held back undelivered for a later backfill to read again.
     *
     * @return the count since the subscription started
     */
    public long deferred() {
        return backfill.deferred();
    }

    /** The connected client, or null (for reads beside the subscription, e.g. the key state). */
    OpcUaClient client() {
        return state().connected() ? client : null;
    }

    /** Disconnects; pending values are dropped (what was held back is reported in the log). */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        worker.shutdownNow();
        backfill.reportHeldBack();
        OpcUaClient c = client;
        if (c != null) {
            try {
                c.disconnectAsync().get(5, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // the session is gone either way
            }
        }
        transition(ConnectionState.Status.CLOSED, "closed");
    }
}
