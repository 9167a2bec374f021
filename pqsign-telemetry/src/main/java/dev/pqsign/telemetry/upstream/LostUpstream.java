package dev.pqsign.telemetry.upstream;

/**
 * The upstream server's queue for a node overflowed (the notification carried the overflow bit):
 * at least one value change of the node, between the node's previous reading and its next, was
 * lost in the server; how many, the server does not say. {@code pqsign:upstream lost where=upstream
 * node=Q}, always followed by the node's next value.
 *
 * @param node the node, in the standard NodeId string form
 */
public record LostUpstream(String node) implements UpstreamEvent {
    /**
     * Checks the node.
     *
     * @param node the node, in the standard NodeId string form
     * @throws IllegalArgumentException if the node is not 1…{@value UpstreamText#MAX_NODE_CHARS} characters
     */
    public LostUpstream {
        UpstreamText.checkNode(node);
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "lost where=upstream node=" + QuotedText.quote(node);
    }
}
