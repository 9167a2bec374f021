package dev.pqsign.telemetry.upstream;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A value change of a node on the upstream server, as the server reported it:
 * {@code pqsign:upstream value node=Q type=TYPE value=V [truncated=N] source=TIME status=STATUS}.
 *
 * <p>A String value whose text would not fit the reading ({@value UpstreamText#MAX_BYTES} bytes) is
 * cut: the text keeps the longest beginning of the string (whole characters, never half of a
 * surrogate pair) that fits, and {@code truncated=N} gives the length of the whole string in UTF-8
 * bytes. No other value is ever cut (they are short).
 *
 * @param node the node, in the standard NodeId string form
 * @param type the value's built-in type
 * @param value for {@link ScalarType#STRING} the string (its beginning if cut), for the other types
 *     the value's token as the text writes it
 * @param fullLength for a cut string, the whole string's length in UTF-8 bytes; otherwise −1
 * @param source the upstream source timestamp, or null if the server sent none
 * @param status the status code (a value may come with an Uncertain or Bad status)
 */
public record UpstreamValue(
        String node, ScalarType type, String value, long fullLength, UpstreamTime source, UpstreamStatus status)
        implements UpstreamEvent {

    /**
     * Checks the fields.
     *
     * @param node the node, in the standard NodeId string form
     * @param type the value's built-in type
     * @param value the string, or the value's token
     * @param fullLength for a cut string, the whole string's UTF-8 length, else −1
     * @param source the upstream source timestamp, or null
     * @param status the status code
     * @throws IllegalArgumentException if the node is not 1…{@value UpstreamText#MAX_NODE_CHARS}
     *     characters, the token is not one of the type, a length is given for a value that is not a
     *     longer string, or the text would be longer than {@value UpstreamText#MAX_BYTES} bytes
     */
    public UpstreamValue {
        UpstreamText.checkNode(node);
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(status, "status");
        if (type != ScalarType.STRING) {
            type.check(value);
            if (fullLength != -1) {
                throw new IllegalArgumentException("only a String value can be truncated");
            }
        } else if (fullLength != -1 && fullLength <= value.getBytes(StandardCharsets.UTF_8).length) {
            throw new IllegalArgumentException("truncated= must exceed the length of the string kept");
        }
        if (fullLength < -1) {
            throw new IllegalArgumentException("length must be -1 or positive");
        }
    }

    /**
     * A value of any type but String.
     *
     * @param node the node, in the standard NodeId string form
     * @param type the value's built-in type, not {@link ScalarType#STRING}
     * @param token the value as the text writes it (see {@link ScalarType})
     * @param source the upstream source timestamp, or null
     * @param status the status code
     * @return the fact
     * @throws IllegalArgumentException if the token is not a value of the type
     */
    public static UpstreamValue of(
            String node, ScalarType type, String token, UpstreamTime source, UpstreamStatus status) {
        if (type == ScalarType.STRING) {
            throw new IllegalArgumentException("use ofString for a String value");
        }
        UpstreamValue v = new UpstreamValue(node, type, token, -1, source, status);
        v.checkLength();
        return v;
    }

    /**
     * A String value, cut to fit the reading if it is too long.
     *
     * @param node the node, in the standard NodeId string form
     * @param s the whole string
     * @param source the upstream source timestamp, or null
     * @param status the status code
     * @return the fact
     */
    public static UpstreamValue ofString(String node, String s, UpstreamTime source, UpstreamStatus status) {
        UpstreamValue whole = new UpstreamValue(node, ScalarType.STRING, "", -1, source, status);
        int room = UpstreamText.MAX_BYTES - whole.text().length();
        int escaped = 0;
        for (int i = 0; i < s.length(); i++) {
            escaped += QuotedText.escapedLength(s.charAt(i));
        }
        if (escaped <= room) {
            return new UpstreamValue(node, ScalarType.STRING, s, -1, source, status);
        }
        long full = s.getBytes(StandardCharsets.UTF_8).length;
        room -= (" truncated=" + full).length();
        int used = 0;
        int end = 0;
        while (end < s.length()) {
            char c = s.charAt(end);
            int step =
                    Character.isHighSurrogate(c) && end + 1 < s.length() && Character.isLowSurrogate(s.charAt(end + 1))
                            ? 2
                            : 1;
            int cost = 0;
            for (int k = 0; k < step; k++) {
                cost += QuotedText.escapedLength(s.charAt(end + k));
            }
            if (used + cost > room) {
                break;
            }
            used += cost;
            end += step;
        }
        return new UpstreamValue(node, ScalarType.STRING, s.substring(0, end), full, source, status);
    }

    private void checkLength() {
        if (text().length() > UpstreamText.MAX_BYTES) {
            throw new IllegalArgumentException("reading text longer than " + UpstreamText.MAX_BYTES + " bytes");
        }
    }

    /**
     * Whether the string was cut to fit the reading.
     *
     * @return whether {@link #fullLength()} is given
     */
    public boolean truncated() {
        return fullLength >= 0;
    }

    @Override
    public String text() {
        StringBuilder sb = new StringBuilder(96 + value.length());
        sb.append(UpstreamText.PREFIX)
                .append("value node=")
                .append(QuotedText.quote(node))
                .append(" type=")
                .append(type.opcUaName())
                .append(" value=")
                .append(type == ScalarType.STRING ? QuotedText.quote(value) : value);
        if (fullLength >= 0) {
            sb.append(" truncated=").append(fullLength);
        }
        return sb.append(" source=")
                .append(UpstreamText.time(source))
                .append(" status=")
                .append(status.text())
                .toString();
    }
}
