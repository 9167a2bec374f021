package dev.pqsign.opcua;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;

/**
 * A sensor's endpoint URL, checked before any connection is tried: {@code opc.tcp://HOST[:PORT][/PATH]}
 * with a host, a port 1 … 65535 (4840 when absent, the OPC UA default) and no user information
 * (credentials never go into a URL: an {@code @} anywhere is taken for it, and nothing before the
 * last one is shown).
 */
public final class SensorEndpoint {
    /** The OPC UA TCP port registered with IANA. */
    public static final int DEFAULT_PORT = 4840;

    private final String url;
    private final String host;
    private final int port;

    private SensorEndpoint(String url, String host, int port) {
        this.url = url;
        this.host = host;
        this.port = port;
    }

    /**
     * Parses and checks an endpoint URL.
     *
     * @param url e.g. {@code opc.tcp://127.0.0.1:4840/pqsign}
     * @return the endpoint
     * @throws IllegalArgumentException with a one-line reason if the URL is not a usable opc.tcp endpoint
     */
    public static SensorEndpoint parse(String url) {
        Objects.requireNonNull(url, "url");
        String shown = url.length() > 80 ? url.substring(0, 80) + "…" : url;
        int at = url.lastIndexOf('@');
        if (at >= 0) {
            // Before the URL is parsed, and only what follows the last @ is shown: a password with a
            // '/', '?' or '#' in it ends the authority early, and a parser's message would show it.
            String after = url.substring(at + 1);
            throw new IllegalArgumentException(
                    "endpoint …@"
                            + printable(after.length() > 80 ? after.substring(0, 80) + "…" : after)
                            + " carries user information (USER@ or USER:PASSWORD@, not shown); credentials never go into a URL");
        }
        if (!url.startsWith("opc.tcp://")) {
            throw new IllegalArgumentException("endpoint must start with opc.tcp://, got '" + printable(shown) + "'");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "endpoint '" + printable(shown) + "' is not a valid URL: " + e.getReason());
        }
        String host = uri.getHost();
        if (host == null || host.isEmpty()) {
            // URI leaves the host undefined when the authority is not a valid server address
            // (e.g. a port out of range or not a number)
            throw new IllegalArgumentException("endpoint '" + printable(shown)
                    + "' has no valid host and port (HOST or HOST:PORT with PORT 1..65535)");
        }
        int port = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(
                    "endpoint '" + printable(shown) + "': port must be 1..65535, got " + port);
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("endpoint '" + printable(shown) + "' has a query or fragment");
        }
        return new SensorEndpoint(url, host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port);
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(Character.isISOControl(c) ? '?' : c);
        }
        return b.toString();
    }

    /**
     * The URL as given.
     *
     * @return the URL
     */
    public String url() {
        return url;
    }

    /**
     * The host (an IPv6 literal without brackets).
     *
     * @return the host
     */
    public String host() {
        return host;
    }

    /**
     * The port.
     *
     * @return 1 … 65535
     */
    public int port() {
        return port;
    }

    @Override
    public String toString() {
        return url;
    }
}
