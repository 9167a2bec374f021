package dev.pqsign.telemetry.upstream;

import java.util.regex.Pattern;

/**
 * The reading texts of a sensor whose source is an upstream OPC UA server ({@code pqsign sensor
 * --source opcua:…}): every text starts with {@value #PREFIX}, is printable ASCII and at most
 * {@value #MAX_BYTES} bytes long. Texts starting with {@code pqsign:} are reserved for the sensor's
 * own statements: a sensor never signs one that came from outside it (a pipe, a file), so a
 * verified upstream text was made by the sensor's own OPC UA client. Grammar:
 * {@code docs/formats/signed-reading.md}, "Upstream readings".
 */
public final class UpstreamText {

    /** What every upstream reading text starts with. */
    public static final String PREFIX = "pqsign:upstream ";

    /** Longest reading text (the signed-reading limit). */
    public static final int MAX_BYTES = 4096;

    /** Longest node (NodeId string form), in characters. */
    public static final int MAX_NODE_CHARS = 256;

    private static final Pattern COUNT = Pattern.compile("[1-9][0-9]{0,18}");

    private UpstreamText() {}

    /**
     * Whether a reading text is an upstream text (starts with {@value #PREFIX}); it may still be malformed.
     *
     * @param text a reading text
     * @return whether it starts with the prefix
     */
    public static boolean isUpstream(String text) {
        return text.startsWith(PREFIX);
    }

    static void checkNode(String node) {
        if (node.isEmpty() || node.length() > MAX_NODE_CHARS) {
            throw new IllegalArgumentException("node must be 1…" + MAX_NODE_CHARS + " characters");
        }
    }

    /** A time field: the time's text, {@code -} for none. */
    static String time(UpstreamTime t) {
        return t == null ? "-" : t.text();
    }

    /**
     * Parses an upstream reading text.
     *
     * @param text a reading text
     * @return the fact it states
     * @throws IllegalArgumentException if it is not a well-formed upstream reading text (the
     *     message says where and why, in one line)
     */
    public static UpstreamEvent parse(String text) {
        if (!isUpstream(text)) {
            throw new IllegalArgumentException("not an upstream reading text: it does not start with '" + PREFIX + "'");
        }
        if (text.length() > MAX_BYTES) {
            throw new IllegalArgumentException("upstream reading text longer than " + MAX_BYTES + " bytes");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException(
                        "upstream reading text, at byte " + i + ": a character outside printable ASCII");
            }
        }
        TextCursor c = new TextCursor(text, PREFIX.length());
        String kind = c.token();
        UpstreamEvent e = switch (kind) {
            case "value" -> value(c);
            case "novalue" -> new UpstreamNoValue(node(c), time(c, "source"), status(c));
            case "unsupported" -> new UpstreamUnsupported(node(c), field(c, "type"), time(c, "source"), status(c));
            case "refused" -> new UpstreamRefused(node(c), status(c));
            case "lost" -> lost(c);
            case "down" -> down(c);
            case "up" -> up(c);
            default -> throw c.error("unknown kind '" + kind + "'");
        };
        if (!c.atEnd()) {
            throw c.error("end of text expected");
        }
        return e;
    }

    private static UpstreamEvent value(TextCursor c) {
        String node = node(c);
        ScalarType type = ScalarType.named(field(c, "type"));
        c.expect(" value=");
        String value = type == ScalarType.STRING ? QuotedText.read(c) : c.token();
        long full = -1;
        if (c.accept(" truncated=")) {
            full = count(c.token());
        }
        return new UpstreamValue(node, type, value, full, time(c, "source"), status(c));
    }

    private static UpstreamEvent lost(TextCursor c) {
        String where = field(c, "where");
        return switch (where) {
            case "upstream" -> new LostUpstream(node(c));
            case "subscription" -> new LostNotifications();
            case "sensor" -> c.accept(" facts=") ? new LostFacts(count(c.token())) : lostInSensor(c);
            default -> throw c.error("where= must be upstream, sensor or subscription");
        };
    }

    private static UpstreamEvent lostInSensor(TextCursor c) {
        String node = node(c);
        long n = count(field(c, "count"));
        return new LostInSensor(node, n, time(c, "from"), time(c, "to"));
    }

    private static UpstreamEvent down(TextCursor c) {
        UpstreamTime since = UpstreamTime.parse(field(c, "since"));
        c.expect(" reason=");
        return new UpstreamDown(since, QuotedText.read(c));
    }

    private static UpstreamEvent up(TextCursor c) {
        c.expect(" url=");
        String url = QuotedText.read(c);
        ChannelSecurity security = ChannelSecurity.ofToken(field(c, "security"));
        return new UpstreamUp(url, security, time(c, "down-since"));
    }

    private static String node(TextCursor c) {
        c.expect(" node=");
        return QuotedText.read(c);
    }

    private static String field(TextCursor c, String name) {
        c.expect(" " + name + "=");
        String t = c.token();
        if (t.isEmpty()) {
            throw c.error(name + "= is empty");
        }
        return t;
    }

    private static UpstreamTime time(TextCursor c, String name) {
        String t = field(c, name);
        return t.equals("-") ? null : UpstreamTime.parse(t);
    }

    private static UpstreamStatus status(TextCursor c) {
        return UpstreamStatus.parse(field(c, "status"));
    }

    private static long count(String token) {
        if (!COUNT.matcher(token).matches()) {
            throw new IllegalArgumentException("not a positive decimal count below 10^19: " + token);
        }
        return Long.parseLong(token);
    }
}
