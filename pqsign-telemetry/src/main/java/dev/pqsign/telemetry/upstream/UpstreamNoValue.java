package dev.pqsign.telemetry.upstream;

import java.util.Objects;

/**
 * A notification of a node that carries a status but no value (typically a Bad status: the device
 * behind the server is not connected, the value is not readable):
 * {@code pqsign:upstream novalue node=Q source=TIME status=STATUS}.
 *
 * @param node the node, in the standard NodeId string form
 * @param source the upstream source timestamp, or null if the server sent none
 * @param status the status code
 */
public record UpstreamNoValue(String node, UpstreamTime source, UpstreamStatus status) implements UpstreamEvent {
    /**
     * Checks the fields.
     *
     * @param node the node, in the standard NodeId string form
     * @param source the upstream source timestamp, or null if the server sent none
     * @param status the status code
     * @throws IllegalArgumentException if the node is not 1…{@value UpstreamText#MAX_NODE_CHARS} characters
     */
    public UpstreamNoValue {
        UpstreamText.checkNode(node);
        Objects.requireNonNull(status, "status");
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "novalue node=" + QuotedText.quote(node) + " source=" + UpstreamText.time(source)
                + " status=" + status.text();
    }
}
