package dev.pqsign.telemetry.upstream;

/**
 * Value changes of a node that the sensor received but could not sign, because its queue between
 * the upstream and the signer was full (the upstream changed faster than the sensor signs):
 * {@code pqsign:upstream lost where=sensor node=Q count=N from=TIME to=TIME}, with the source
 * timestamps of the first and the last value lost. The node's newest value is kept and follows.
 *
 * @param node the node, in the standard NodeId string form
 * @param count how many values of the node were lost, at least 1
 * @param from the source timestamp of the first value lost, or null if it had none
 * @param to the source timestamp of the last value lost, or null if it had none
 */
public record LostInSensor(String node, long count, UpstreamTime from, UpstreamTime to) implements UpstreamEvent {
    /**
     * Checks the fields.
     *
     * @param node the node, in the standard NodeId string form
     * @param count how many values of the node were lost, at least 1
     * @param from the source timestamp of the first value lost, or null
     * @param to the source timestamp of the last value lost, or null
     * @throws IllegalArgumentException if the node is not 1…{@value UpstreamText#MAX_NODE_CHARS}
     *     characters or the count is not positive
     */
    public LostInSensor {
        UpstreamText.checkNode(node);
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, got " + count);
        }
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "lost where=sensor node=" + QuotedText.quote(node) + " count=" + count + " from="
                + UpstreamText.time(from) + " to=" + UpstreamText.time(to);
    }
}
