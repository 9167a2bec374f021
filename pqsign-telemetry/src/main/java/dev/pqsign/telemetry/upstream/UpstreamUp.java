package dev.pqsign.telemetry.upstream;

import java.util.Objects;

/**
 * The sensor's session with the upstream server is up and its nodes are subscribed:
 * {@code pqsign:upstream up url=Q security=SECURITY down-since=TIME}, where {@code down-since} is
 * when the outage that this ends began ({@code -} for the first connection of the run). The
 * values that follow are the nodes' current values and their changes from then on; what changed
 * during the outage is not known.
 *
 * @param url the upstream endpoint URL (without the node list), at most {@value #MAX_URL_CHARS} characters
 * @param security how the session is secured
 * @param downSince when the outage this ends began, or null for the run's first connection
 */
public record UpstreamUp(String url, ChannelSecurity security, UpstreamTime downSince) implements UpstreamEvent {

    /** Longest URL. */
    public static final int MAX_URL_CHARS = 512;

    /**
     * Checks the fields.
     *
     * @param url the upstream endpoint URL, at most {@value #MAX_URL_CHARS} characters
     * @param security how the session is secured
     * @param downSince when the outage this ends began, or null
     * @throws IllegalArgumentException if the URL is empty or longer
     */
    public UpstreamUp {
        if (url.isEmpty() || url.length() > MAX_URL_CHARS) {
            throw new IllegalArgumentException("url must be 1…" + MAX_URL_CHARS + " characters");
        }
        Objects.requireNonNull(security, "security");
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "up url=" + QuotedText.quote(url) + " security=" + security.token()
                + " down-since=" + UpstreamText.time(downSince);
    }
}
