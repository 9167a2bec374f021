package dev.pqsign.opcua.upstream;

import dev.pqsign.opcua.SensorEndpoint;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;

/**
 * A sensor's upstream, as {@code --source} names it:
 * {@code opcua:opc.tcp://HOST[:PORT][/PATH]?node=NODEID[&node=NODEID]…}, each NODEID in the
 * standard string form ({@code ns=3;s=Motor.Speed}, {@code i=2258}, …), a {@code %HH} escape for
 * each byte of a character that cannot stand in a query ({@code &}, {@code %}, {@code #}, a space).
 * Checked before any connection is tried; no user information (credentials come from a file): an
 * {@code @} before {@code ?node=} is refused, and a message never shows what stands before it.
 */
public final class UpstreamUri {
    /** What a {@code --source} of this kind starts with. */
    public static final String SCHEME = "opcua:";

    /** Most nodes one sensor subscribes to. */
    public static final int MAX_NODES = 1000;

    private final SensorEndpoint endpoint;
    private final List<String> nodes;

    private UpstreamUri(SensorEndpoint endpoint, List<String> nodes) {
        this.endpoint = endpoint;
        this.nodes = List.copyOf(nodes);
    }

    /**
     * Whether a {@code --source} names an upstream OPC UA server.
     *
     * @param source the option's value
     * @return whether it starts with {@value #SCHEME}
     */
    public static boolean isUpstream(String source) {
        return source.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
    }

    /**
     * Parses and checks a source.
     *
     * @param source {@code opcua:opc.tcp://…?node=…}
     * @return the upstream
     * @throws IllegalArgumentException with a one-line reason (never echoing user information)
     */
    public static UpstreamUri parse(String source) {
        if (!isUpstream(source)) {
            throw new IllegalArgumentException("an upstream source starts with " + SCHEME);
        }
        String rest = source.substring(SCHEME.length());
        int nodeList = rest.indexOf("?node=");
        if ((nodeList < 0 ? rest : rest.substring(0, nodeList)).indexOf('@') >= 0) {
            // Before the endpoint is split off: a password with a '?' in it would be cut there, and
            // the endpoint's own check would then show its beginning.
            throw new IllegalArgumentException("opcua: source: the endpoint carries user information (an @ before"
                    + " ?node=, not shown); credentials never go into a URL: use --source-credentials FILE");
        }
        int q = rest.indexOf('?');
        if (q < 0) {
            throw new IllegalArgumentException(
                    "opcua: source names no node (add ?node=NODEID, e.g. ?node=ns=3;s=Motor.Speed)");
        }
        SensorEndpoint endpoint = SensorEndpoint.parse(rest.substring(0, q));
        if (endpoint.url().length() > UpstreamUp.MAX_URL_CHARS) {
            // the url goes into every signed up fact
            throw new IllegalArgumentException(
                    "opcua: source: the endpoint URL is longer than " + UpstreamUp.MAX_URL_CHARS + " characters");
        }
        if (rest.indexOf('#') >= 0) {
            throw new IllegalArgumentException("opcua: source has a fragment (#); escape # in a node as %23");
        }
        Set<String> nodes = new LinkedHashSet<>();
        for (String part : rest.substring(q + 1).split("&", -1)) {
            if (!part.startsWith("node=")) {
                throw new IllegalArgumentException(
                        "opcua: source: only node=NODEID parameters are known, got '" + shown(part) + "'");
            }
            String node = decode(part.substring(5));
            if (node.isEmpty() || node.length() > dev.pqsign.telemetry.upstream.UpstreamText.MAX_NODE_CHARS) {
                throw new IllegalArgumentException("opcua: source: a node must be 1 ... "
                        + dev.pqsign.telemetry.upstream.UpstreamText.MAX_NODE_CHARS + " characters");
            }
            if (NodeId.parseSafe(node).isEmpty()) {
                throw new IllegalArgumentException("opcua: source: '" + shown(node)
                        + "' is not a NodeId in the standard string form (e.g. ns=3;s=Motor.Speed or i=2258)");
            }
            if (!nodes.add(node)) {
                throw new IllegalArgumentException("opcua: source: node '" + shown(node) + "' is given twice");
            }
            if (nodes.size() > MAX_NODES) {
                throw new IllegalArgumentException("opcua: source: more than " + MAX_NODES + " nodes");
            }
        }
        return new UpstreamUri(endpoint, new ArrayList<>(nodes));
    }

    private static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
            int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("opcua: source: a percent sign must be followed by two hex digits");
            }
            bytes.write(hi * 16 + lo);
            i += 2;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("opcua: source: the escaped bytes are not UTF-8");
        }
    }

    private static String shown(String s) {
        String cut = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        StringBuilder b = new StringBuilder(cut.length());
        cut.codePoints().forEach(c -> b.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        return b.toString();
    }

    /**
     * The upstream server's endpoint.
     *
     * @return the endpoint, without the node list
     */
    public SensorEndpoint endpoint() {
        return endpoint;
    }

    /**
     * The nodes to subscribe to, in the order given.
     *
     * @return the NodeIds' string forms, distinct
     */
    public List<String> nodes() {
        return nodes;
    }
}
