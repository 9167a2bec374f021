package dev.pqsign.console;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the console listens. Immutable. The console binds to the loopback address unless a
 * host is given explicitly, so a plant network sees it only when someone asks for that.
 */
public final class ConsoleOptions {

    /** The default bind address. */
    public static final String LOOPBACK = "127.0.0.1";

    /** How long the per-sensor reading charts reach back by default. */
    public static final Duration DEFAULT_HISTORY = Duration.ofMinutes(5);

    /** How many feed entries (rejections, gaps, handovers, alarms) the page keeps by default. */
    public static final int DEFAULT_FEED_SIZE = 200;

    private final String bindAddress;
    private final int port;
    private final Duration history;
    private final int feedSize;

    private ConsoleOptions(String bindAddress, int port, Duration history, int feedSize) {
        this.bindAddress = bindAddress;
        this.port = port;
        this.history = history;
        this.feedSize = feedSize;
    }

    /**
     * Loopback on {@code port} (0 picks a free port).
     *
     * @param port the TCP port, 0..65535
     * @return the options, with the default history and feed size
     * @throws IllegalArgumentException if the port is out of range
     */
    public static ConsoleOptions loopback(int port) {
        return new ConsoleOptions(LOOPBACK, checkPort(port), DEFAULT_HISTORY, DEFAULT_FEED_SIZE);
    }

    /**
     * Parses {@code [HOST:]PORT} as given on a command line: {@code 8080} binds loopback,
     * {@code 0.0.0.0:8080} or {@code [::]:8080} binds every interface because it was asked for.
     *
     * @param hostPort {@code PORT} or {@code HOST:PORT}; an IPv6 host in brackets
     * @return the options, with the default history and feed size
     * @throws IllegalArgumentException with a one-line reason if the text is not {@code [HOST:]PORT} or the port
     *     is not 0..65535
     */
    public static ConsoleOptions parse(String hostPort) {
        Objects.requireNonNull(hostPort, "hostPort");
        String host = LOOPBACK;
        String portText = hostPort;
        int colon = hostPort.lastIndexOf(':');
        if (colon >= 0) {
            host = hostPort.substring(0, colon);
            portText = hostPort.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            } else if (host.contains(":")) {
                throw new IllegalArgumentException("an IPv6 address needs brackets: [" + host + "]:" + portText);
            }
            if (host.isEmpty()) {
                throw new IllegalArgumentException("no host before ':' in " + hostPort);
            }
        }
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a port number: " + portText);
        }
        return new ConsoleOptions(host, checkPort(port), DEFAULT_HISTORY, DEFAULT_FEED_SIZE);
    }

    /**
     * These options with another bind address (a host name or IP literal, given explicitly).
     *
     * @param address the host name or IP literal to bind
     * @return the changed copy
     * @throws IllegalArgumentException if {@code address} is blank
     */
    public ConsoleOptions withBindAddress(String address) {
        Objects.requireNonNull(address, "address");
        if (address.isBlank()) {
            throw new IllegalArgumentException("empty bind address");
        }
        return new ConsoleOptions(address, port, history, feedSize);
    }

    /**
     * These options with another chart history (1 s .. 24 h).
     *
     * @param d how far back the charts reach
     * @return the changed copy
     * @throws IllegalArgumentException if {@code d} is outside 1 s .. 24 h
     */
    public ConsoleOptions withHistory(Duration d) {
        Objects.requireNonNull(d, "history");
        if (d.compareTo(Duration.ofSeconds(1)) < 0 || d.compareTo(Duration.ofHours(24)) > 0) {
            throw new IllegalArgumentException("history must be 1 s .. 24 h, got " + d);
        }
        return new ConsoleOptions(bindAddress, port, d, feedSize);
    }

    /**
     * These options with another feed length (1 .. 10,000 entries).
     *
     * @param n feed entries to keep
     * @return the changed copy
     * @throws IllegalArgumentException if {@code n} is outside 1 .. 10,000
     */
    public ConsoleOptions withFeedSize(int n) {
        if (n < 1 || n > 10_000) {
            throw new IllegalArgumentException("feed size must be 1..10000, got " + n);
        }
        return new ConsoleOptions(bindAddress, port, history, n);
    }

    /**
     * The address to bind.
     *
     * @return the host name or IP literal, as given
     */
    public String bindAddress() {
        return bindAddress;
    }

    /**
     * The TCP port (0: any free port).
     *
     * @return the port as configured; a started console reports the bound port in {@link ConsoleServer#port()}
     */
    public int port() {
        return port;
    }

    /**
     * How far back the reading charts reach.
     *
     * @return the chart history
     */
    public Duration history() {
        return history;
    }

    /**
     * How many feed entries are kept.
     *
     * @return the feed length
     */
    public int feedSize() {
        return feedSize;
    }

    /**
     * {@code true} if the bind address resolves to a loopback address.
     *
     * @return false also if the address cannot be resolved
     */
    public boolean isLoopback() {
        try {
            return InetAddress.getByName(bindAddress).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static int checkPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        return port;
    }

    @Override
    public String toString() {
        return bindAddress + ":" + port;
    }
}
