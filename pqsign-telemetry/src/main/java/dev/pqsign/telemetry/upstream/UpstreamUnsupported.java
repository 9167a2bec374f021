package dev.pqsign.telemetry.upstream;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A value change of a node whose value has a type upstream readings do not carry (an array, a
 * structure, a ByteString, a LocalizedText, ...): the change is stated, the value is not:
 * {@code pqsign:upstream unsupported node=Q type=TYPE source=TIME status=STATUS}.
 *
 * @param node the node, in the standard NodeId string form
 * @param type the value's built-in type name ({@code ExtensionObject}, {@code ByteString}, ...),
 *     with {@code []} after it for an array of any dimensions
 * @param source the upstream source timestamp, or null if the server sent none
 * @param status the status code
 */
public record UpstreamUnsupported(String node, String type, UpstreamTime source, UpstreamStatus status)
        implements UpstreamEvent {

    private static final Pattern TYPE = Pattern.compile("[A-Za-z][A-Za-z0-9]{0,31}(\\[\\])?");

    /**
     * Checks the fields.
     *
     * @param node the node, in the standard NodeId string form
     * @param type the value's built-in type name, {@code []} after it for an array
     * @param source the upstream source timestamp, or null if the server sent none
     * @param status the status code
     * @throws IllegalArgumentException if the node is not 1…{@value UpstreamText#MAX_NODE_CHARS}
     *     characters, or the type is not 1…32 letters and digits (and {@code []})
     */
    public UpstreamUnsupported {
        UpstreamText.checkNode(node);
        if (!TYPE.matcher(type).matches()) {
            throw new IllegalArgumentException("not a type name: " + type);
        }
        Objects.requireNonNull(status, "status");
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "unsupported node=" + QuotedText.quote(node) + " type=" + type + " source="
                + UpstreamText.time(source) + " status=" + status.text();
    }
}
