package dev.pqsign.telemetry.upstream;

/**
 * Notification messages of the subscription were lost on the way (the client saw a gap in their
 * sequence numbers and the server could not send them again): value changes of any of the nodes
 * may be missing before the next readings. {@code pqsign:upstream lost where=subscription}.
 */
public record LostNotifications() implements UpstreamEvent {
    @Override
    public String text() {
        return UpstreamText.PREFIX + "lost where=subscription";
    }
}
