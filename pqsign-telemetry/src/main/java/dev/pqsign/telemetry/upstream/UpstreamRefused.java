package dev.pqsign.telemetry.upstream;

import java.util.Objects;

/**
 * The upstream server refused to monitor a node (it does not exist, it has no value attribute, the
 * sensor's user may not read it): {@code pqsign:upstream refused node=Q status=STATUS}. Stated each
 * time the sensor subscribes (at start and after every reconnection); the other nodes go on.
 *
 * @param node the node, in the standard NodeId string form
 * @param status the server's answer, e.g. {@code Bad_NodeIdUnknown}
 */
public record UpstreamRefused(String node, UpstreamStatus status) implements UpstreamEvent {
    /**
     * Checks the fields.
     *
     * @param node the node, in the standard NodeId string form
     * @param status the server's answer
     * @throws IllegalArgumentException if the node is not 1…{@value UpstreamText#MAX_NODE_CHARS} characters
     */
    public UpstreamRefused {
        UpstreamText.checkNode(node);
        Objects.requireNonNull(status, "status");
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "refused node=" + QuotedText.quote(node) + " status=" + status.text();
    }
}
