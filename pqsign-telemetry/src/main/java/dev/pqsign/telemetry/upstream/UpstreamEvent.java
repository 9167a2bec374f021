package dev.pqsign.telemetry.upstream;

/**
 * One signed fact of a sensor whose readings come from an upstream OPC UA server: a value change of
 * a node, or what happened to the values and the connection (lost values, outages, refused nodes).
 * Each is one reading text starting with {@value UpstreamText#PREFIX}; grammar in
 * {@code docs/formats/signed-reading.md}, "Upstream readings".
 */
public sealed interface UpstreamEvent
        permits UpstreamValue,
                UpstreamNoValue,
                UpstreamUnsupported,
                UpstreamRefused,
                LostUpstream,
                LostInSensor,
                LostNotifications,
                LostFacts,
                UpstreamDown,
                UpstreamUp {

    /**
     * The reading text of this fact: printable ASCII, at most {@value UpstreamText#MAX_BYTES} bytes.
     *
     * @return the text, which {@link UpstreamText#parse} turns back into an equal fact
     */
    String text();
}
