package dev.pqsign.console;

import dev.pqsign.console.internal.ConsoleHandler;
import dev.pqsign.console.internal.ConsoleMetrics;
import dev.pqsign.console.internal.ConsoleModel;
import dev.pqsign.console.internal.EventHub;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.VerdictEvent;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.util.HashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The operator console: a live, read-only web page of every sensor's latest reading, verdict, key
 * and counts, a feed of rejections, gaps, handovers and alarms, charts, Prometheus {@code /metrics}
 * and {@code /healthz}. Feed it from the operator (or demo, or verifier) through the methods below;
 * they are thread-safe, cheap and never block on the network: pages are updated by a separate thread
 * a few times a second.
 *
 * <p>Routes: {@code /} the page, {@code /static/*} its scripts, styles and the chart library's
 * licence, {@code /events} Server-Sent Events, {@code /state} the page's data as JSON,
 * {@code /metrics}, {@code /healthz}. Only GET and HEAD are answered.
 */
public final class ConsoleServer implements AutoCloseable {

    private final Server server;
    private final ConsoleModel model;
    private final ConsoleMetrics metrics;
    private final EventHub hub;
    private final URI uri;

    private ConsoleServer(Server server, ConsoleModel model, ConsoleMetrics metrics, EventHub hub, URI uri) {
        this.server = server;
        this.model = model;
        this.metrics = metrics;
        this.hub = hub;
        this.uri = uri;
    }

    /**
     * Starts the console.
     *
     * @param options where to listen, chart history and feed length
     * @return the running console; close it to stop
     * @throws IOException if the address cannot be bound (e.g. the port is taken)
     */
    public static ConsoleServer start(ConsoleOptions options) throws IOException {
        Objects.requireNonNull(options, "options");
        ConsoleModel model = new ConsoleModel(options.history(), options.feedSize(), Clock.systemUTC());
        ConsoleMetrics metrics = new ConsoleMetrics();
        EventHub hub = new EventHub(model);
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("pqsign-console");
        threads.setDaemon(true);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(true);
        ServerConnector connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(options.bindAddress());
        connector.setPort(options.port());
        server.addConnector(connector);
        Set<String> allowedHosts = null;
        if (options.isLoopback()) {
            allowedHosts = new HashSet<>(ConsoleHandler.LOOPBACK_NAMES);
            allowedHosts.add(options.bindAddress().toLowerCase(Locale.ROOT));
        }
        server.setHandler(new ConsoleHandler(model, metrics, hub, allowedHosts));
        // No graceful drain: open event streams would hold the stop for the whole timeout.
        server.setStopTimeout(0);
        try {
            server.start();
        } catch (Exception e) {
            hub.close();
            try {
                server.stop();
            } catch (Exception ignored) {
                // the start failure is the error to report
            }
            throw new IOException("cannot listen on " + options + ": " + e.getMessage(), e);
        }
        String host = options.bindAddress().contains(":") ? "[" + options.bindAddress() + "]" : options.bindAddress();
        if (!options.isLoopback() && (host.equals("0.0.0.0") || host.equals("[::]"))) {
            host = "127.0.0.1";
        }
        URI uri = URI.create("http://" + host + ":" + connector.getLocalPort() + "/");
        return new ConsoleServer(server, model, metrics, hub, uri);
    }

    /**
     * The page's address (for a console bound to all interfaces, its loopback address).
     *
     * @return an {@code http://host:port/} address a local browser can open
     */
    public URI uri() {
        return uri;
    }

    /**
     * The TCP port listened on.
     *
     * @return the bound port (also when the options asked for port 0)
     */
    public int port() {
        return uri.getPort();
    }

    /**
     * A verdict on a received record, or a gap, without monotonic-clock latencies.
     *
     * @param event the operator's verdict event
     */
    public void verdict(VerdictEvent event) {
        verdict(event, null);
    }

    /**
     * A verdict on a received record, or a gap.
     *
     * @param latency sign / transfer / verify / end-to-end durations when the operator has them, else null
     * @param event the operator's verdict event
     */
    public void verdict(VerdictEvent event, LatencyRecord latency) {
        verdict(event, latency, true);
    }

    /**
     * A verdict on a reading or a gap, received live or read from the sensor's history: a
     * backfilled reading counts like any other but adds nothing to the latency charts (its latency
     * is how long it waited in the history).
     *
     * @param event the verdict
     * @param latency the monotonic latency record, or null
     * @param live false for a value read from the sensor's history
     */
    public void verdict(VerdictEvent event, LatencyRecord latency, boolean live) {
        Objects.requireNonNull(event, "event");
        model.verdict(event, live ? latency : null, live);
        metrics.verdict(event, live ? latency : null, live);
    }

    /**
     * Publishes the cost of the operator's signature checks on {@code /metrics}, read from the
     * suppliers at each scrape: {@code pqsign_signature_checks_total} and
     * {@code pqsign_signature_check_cpu_seconds_total}. Beside the JVM's
     * {@code process_cpu_seconds_total} they tell the operator's own overhead from the cryptography.
     * Call once.
     *
     * @param checks signatures checked so far
     * @param cpuNanos CPU time of those checks so far, in nanoseconds
     */
    public void signatureCost(java.util.function.LongSupplier checks, java.util.function.LongSupplier cpuNanos) {
        metrics.signatureCost(Objects.requireNonNull(checks, "checks"), Objects.requireNonNull(cpuNanos, "cpuNanos"));
    }

    /**
     * A sensor's connection state since a time, e.g. {@code down} since the last failed attempt.
     *
     * @param sensor the sensor's name
     * @param state the state, e.g. {@code connected}, {@code reconnecting}, {@code down}
     * @param since when it entered the state
     */
    public void connectionState(String sensor, String state, java.time.Instant since) {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(since, "since");
        model.connectionState(sensor, state, since);
        metrics.connectionState(sensor, state);
    }

    /**
     * A sensor that has sent no reading for longer than the operator's threshold, or that sends again.
     *
     * @param sensor the sensor's name
     * @param silent true when it went silent, false when a reading came again
     * @param detail one line, e.g. "no reading for 31 s (connection: down)"
     */
    public void silence(String sensor, boolean silent, String detail) {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(detail, "detail");
        model.silence(sensor, silent, detail);
        metrics.silence(sensor, silent);
    }

    /**
     * A sensor's connection state, e.g. {@code connected}, {@code reconnecting}, {@code closed}.
     *
     * @param sensor the sensor's name
     * @param state the state, shown as given
     */
    public void connectionState(String sensor, String state) {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(state, "state");
        model.connectionState(sensor, state);
        metrics.connectionState(sensor, state);
    }

    /**
     * What a sensor's key has left.
     *
     * @param status the sensor's key status; replaces the one shown before
     */
    public void keyStatus(KeyStatus status) {
        Objects.requireNonNull(status, "status");
        model.keyStatus(status);
        metrics.keyStatus(status);
    }

    /**
     * What a sensor's key has left; see {@link KeyStatus}.
     *
     * @param sensor the sensor's name
     * @param parameterSet the canonical parameter-set name
     * @param keyIdHex the key id in hex
     * @param remaining signatures the key can still make, or -1 if unknown or unlimited
     * @param secondsLeft estimated seconds until the key is exhausted, or null if unknown
     * @param nextKeyReady whether the successor key is prepared for a handover
     * @throws IllegalArgumentException as {@link KeyStatus}'s constructor
     */
    public void keyStatus(
            String sensor,
            String parameterSet,
            String keyIdHex,
            long remaining,
            Double secondsLeft,
            boolean nextKeyReady) {
        keyStatus(new KeyStatus(sensor, parameterSet, keyIdHex, remaining, secondsLeft, nextKeyReady));
    }

    /**
     * An alarm about a sensor (shown in the feed, counted in {@code pqsign_alarms_total}).
     *
     * @param sensor the sensor's name
     * @param text the alarm, one line
     */
    public void alarm(String sensor, String text) {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(text, "text");
        model.alarm(sensor, text);
        metrics.alarm(sensor);
    }

    /**
     * A sensor handed over to its next key: {@code generation} now signs under {@code newKeyIdHex}.
     *
     * @param sensor the sensor's name
     * @param generation the new key's generation in the sensor's key chain (the first key is 0)
     * @param newKeyIdHex the new key's id in hex
     */
    public void handover(String sensor, long generation, String newKeyIdHex) {
        Objects.requireNonNull(sensor, "sensor");
        Objects.requireNonNull(newKeyIdHex, "newKeyIdHex");
        model.handover(sensor, generation, newKeyIdHex);
        metrics.handover(sensor, generation);
    }

    /**
     * Pages currently connected for live updates.
     *
     * @return the number of open event streams
     */
    public int openPages() {
        return hub.clientCount();
    }

    /** Stops serving; open pages see the stream end. */
    @Override
    public void close() {
        hub.close();
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("console did not stop: " + e.getMessage(), e);
        }
    }
}
