package dev.pqsign.opcua.upstream.internal;

import dev.pqsign.opcua.ApplicationIdentity;
import dev.pqsign.opcua.SensorEndpoint;
import dev.pqsign.opcua.internal.MiloThreads;
import dev.pqsign.telemetry.upstream.ChannelSecurity;
import dev.pqsign.telemetry.upstream.LostNotifications;
import dev.pqsign.telemetry.upstream.LostUpstream;
import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamRefused;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.SessionActivityListener;
import org.eclipse.milo.opcua.sdk.client.UaSession;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.MonitoredItemSynchronizationException;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.security.TrustListManager;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.util.EndpointUtil;

/**
 * The sensor's session with its upstream server, kept by one thread: connect, state {@code up},
 * subscribe to every node (a refusal is stated, the others go on), and on any loss (the session,
 * the subscription, its keep-alives) state {@code down} once, drop the client and start over with a
 * new one, retrying with a growing delay. Starting over (not Milo's session resumption) means every
 * {@code up} is followed by the nodes' current values, as the format says.
 */
public final class UpstreamLink implements AutoCloseable {
    /** First delay before a failed attempt is repeated; it doubles up to {@link #MAX_RETRY_MILLIS}. */
    static final long FIRST_RETRY_MILLIS = 250;

    /** Longest delay between two attempts. */
    static final long MAX_RETRY_MILLIS = 5000;

    /** Requested publishing interval: the added latency of the subscription at most. */
    static final double PUBLISHING_INTERVAL_MS = 10;

    /** Longest a request to the upstream waits. */
    static final int REQUEST_TIMEOUT_MILLIS = 10_000;

    /** Requested time between keep-alive messages of an idle subscription. */
    static final double KEEP_ALIVE_INTERVAL_MS = 1000;

    /**
     * Subscription lifetime in keep-alive intervals, and how many intervals without any message
     * count as a lost subscription. Milo's default watchdog (1.5 intervals) took a busy PLC or host
     * for an outage: every late keep-alive cost a signed {@code down} and {@code up} and a new session.
     * After the lifetime the server has deleted the subscription, so starting over is due then.
     */
    static final long LIFETIME_KEEP_ALIVES = 5;

    /**
     * What the link needs.
     *
     * @param endpoint the upstream's endpoint
     * @param nodes the nodes' string forms
     * @param security the channel's security
     * @param identity the sensor's application certificate for the upstream
     * @param applicationUri the URI that certificate names
     * @param trustList the upstream servers' certificates the sensor trusts
     * @param user the user name, or null for anonymous
     * @param password gives a fresh copy of the password's bytes (wiped after use), or null
     * @param serverQueueSize the queue size asked of the server for each node
     */
    public record Settings(
            SensorEndpoint endpoint,
            List<String> nodes,
            ChannelSecurity security,
            ApplicationIdentity identity,
            String applicationUri,
            TrustListManager trustList,
            String user,
            Supplier<byte[]> password,
            int serverQueueSize) {}

    private final Settings settings;
    private final FactQueue queue;
    private final Consumer<String> notices;
    private final Thread thread;
    private final Object lock = new Object();

    private volatile boolean closed;
    private OpcUaClient client; // guarded by lock
    private String lost; // why the client's session is lost, or null; guarded by lock

    /**
     * Starts the link's thread.
     *
     * @param settings what to connect to, and how
     * @param queue where the facts go
     * @param notices receives one line for each outage and recovery (for the operator's terminal)
     */
    public UpstreamLink(Settings settings, FactQueue queue, Consumer<String> notices) {
        this.settings = settings;
        this.queue = queue;
        this.notices = notices;
        this.thread = new Thread(this::run, "pqsign-upstream");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        UpstreamTime downSince = null;
        long retry = FIRST_RETRY_MILLIS;
        while (!closed) {
            String why;
            try {
                OpcUaClient c = connect();
                // each notice before its fact: whoever has taken the fact finds the line printed
                notices.accept(
                        "upstream up: " + url() + " (" + settings.security().token() + ")");
                queue.offer(new UpstreamUp(url(), settings.security(), downSince));
                subscribe(c);
                retry = FIRST_RETRY_MILLIS;
                why = awaitLoss();
            } catch (UaException | RuntimeException e) {
                why = describe(e);
            } catch (InterruptedException e) {
                break;
            }
            dropClient();
            if (closed) {
                break;
            }
            if (downSince == null || !stillDown) {
                downSince = UpstreamTime.of(Instant.now());
                notices.accept("upstream down: " + why);
                queue.offer(UpstreamDown.of(downSince, why));
                stillDown = true;
            }
            try {
                Thread.sleep(retry);
            } catch (InterruptedException e) {
                break;
            }
            retry = Math.min(MAX_RETRY_MILLIS, retry * 2);
        }
    }

    /** Whether the last {@code down} stated is not yet followed by an {@code up} (thread-confined). */
    private boolean stillDown;

    private String url() {
        return settings.endpoint().url();
    }

    private OpcUaClient connect() throws UaException {
        String policy = settings.security() == ChannelSecurity.NONE
                ? SecurityPolicy.None.getUri()
                : SecurityPolicy.Basic256Sha256.getUri();
        MessageSecurityMode mode = switch (settings.security()) {
            case NONE -> MessageSecurityMode.None;
            case SIGN -> MessageSecurityMode.Sign;
            case SIGN_AND_ENCRYPT -> MessageSecurityMode.SignAndEncrypt;
        };
        var validator = new DefaultClientCertificateValidator(settings.trustList(), new MemoryCertificateQuarantine());
        IdentityProvider idp = settings.user() == null
                ? new AnonymousProvider()
                : new UsernameProvider(settings.user(), settings.password());
        SensorEndpoint ep = settings.endpoint();
        OpcUaClient c = OpcUaClient.create(
                ep.url(),
                endpoints -> endpoints.stream()
                        .filter(e -> policy.equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode)
                        .findFirst()
                        .map(e -> EndpointUtil.updateUrl(e, ep.host(), ep.port())),
                transport -> transport.setEventLoop(MiloThreads.eventLoop()).setExecutor(MiloThreads.executor()),
                b -> b.setApplicationName(LocalizedText.english("pqsign sensor (upstream client)"))
                        .setApplicationUri(settings.applicationUri())
                        .setKeyPair(settings.identity().keyPair())
                        .setCertificate(settings.identity().certificate())
                        .setCertificateChain(
                                new X509Certificate[] {settings.identity().certificate()})
                        .setCertificateValidator(validator)
                        .setIdentityProvider(idp)
                        .setRequestTimeout(Unsigned.uint(REQUEST_TIMEOUT_MILLIS)));
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("closed");
            }
            client = c;
            lost = null;
        }
        c.addSessionActivityListener(new SessionActivityListener() {
            @Override
            public void onSessionInactive(UaSession session) {
                markLost(c, "session lost");
            }
        });
        try {
            c.connect();
        } catch (UaException | RuntimeException e) {
            var unused = c.disconnectAsync();
            throw e;
        }
        stillDown = false;
        return c;
    }

    private void subscribe(OpcUaClient c) throws UaException {
        OpcUaSubscription sub = new OpcUaSubscription(c, PUBLISHING_INTERVAL_MS);
        long keepAlive = (long) Math.ceil(KEEP_ALIVE_INTERVAL_MS / PUBLISHING_INTERVAL_MS);
        sub.setMaxKeepAliveCount(Unsigned.uint(keepAlive));
        sub.setLifetimeCount(Unsigned.uint(keepAlive * LIFETIME_KEEP_ALIVES));
        sub.setWatchdogMultiplier(LIFETIME_KEEP_ALIVES);
        sub.setSubscriptionListener(new OpcUaSubscription.SubscriptionListener() {
            @Override
            public void onNotificationDataLost(OpcUaSubscription s) {
                queue.offer(new LostNotifications());
            }

            @Override
            public void onWatchdogTimerElapsed(OpcUaSubscription s) {
                markLost(c, "no message from the subscription for " + LIFETIME_KEEP_ALIVES + " keep-alive intervals");
            }

            @Override
            public void onTransferFailed(OpcUaSubscription s, StatusCode status) {
                markLost(c, "subscription lost: " + ValueTexts.status(status).text());
            }
        });
        sub.create();
        List<OpcUaMonitoredItem> items = new ArrayList<>();
        for (String node : settings.nodes()) {
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(NodeId.parse(node));
            item.setSamplingInterval(0.0);
            item.setQueueSize(Unsigned.uint(settings.serverQueueSize()));
            // When the server's queue is full the newest value carries the overflow bit and the
            // lost values are the ones between: stated as a fact before that value.
            item.setDiscardOldest(false);
            item.setDataValueListener((i, dv) -> notified(node, dv));
            items.add(item);
            sub.addMonitoredItem(item);
        }
        try {
            sub.synchronizeMonitoredItems();
        } catch (MonitoredItemSynchronizationException e) {
            // some items were refused (stated below); a failure of the whole request left none created
            if (items.stream().anyMatch(i -> i.getCreateResult().isEmpty())) {
                throw e;
            }
        }
        for (int i = 0; i < items.size(); i++) {
            StatusCode result = items.get(i).getCreateResult().orElse(StatusCode.GOOD);
            if (!result.isGood()) {
                String node = settings.nodes().get(i);
                notices.accept("upstream refused node " + node + ": "
                        + ValueTexts.status(result).text());
                queue.offer(new UpstreamRefused(node, ValueTexts.status(result)));
            }
        }
    }

    private void notified(String node, DataValue dv) {
        StatusCode s = dv.getStatusCode();
        if (s != null && s.isOverflowSet()) {
            queue.offer(new LostUpstream(node));
        }
        queue.offer(ValueTexts.of(node, dv));
    }

    private void markLost(OpcUaClient c, String why) {
        synchronized (lock) {
            if (c == client && lost == null) {
                lost = why;
                lock.notifyAll();
            }
        }
    }

    /** Waits until the session is lost; returns why (the first cause, for the signed {@code down}). */
    private String awaitLoss() throws InterruptedException {
        synchronized (lock) {
            while (lost == null && !closed) {
                lock.wait();
            }
            return lost == null ? "closed" : lost;
        }
    }

    private void dropClient() {
        OpcUaClient c;
        synchronized (lock) {
            c = client;
            client = null;
        }
        if (c != null) {
            try {
                c.disconnectAsync().get(2, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // the session is gone either way
            }
        }
    }

    /** One line for a failed attempt: the deepest cause's message, no stack, no class names. */
    static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        if (m == null || m.isBlank()) {
            m = e instanceof UaException u
                    ? ValueTexts.status(u.getStatusCode()).text()
                    : e.getClass().getSimpleName();
        }
        if (root instanceof java.util.concurrent.TimeoutException) {
            m = "no answer in time";
        }
        m = m.replaceAll("(?:[a-z_][a-z0-9_]*\\.)+[A-Z]\\w*(?:Exception|Error): ?", "");
        return m.lines().findFirst().orElse(m);
    }

    @Override
    public void close() {
        closed = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        dropClient();
    }
}
