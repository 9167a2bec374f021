package dev.pqsign.telemetry.upstream;

/**
 * Connection facts ({@link UpstreamDown}, {@link UpstreamUp}, {@link UpstreamRefused},
 * {@link LostNotifications}) that the sensor could not queue because its queue stayed full while
 * the upstream kept changing state: {@code pqsign:upstream lost where=sensor facts=N}. The facts
 * after it describe the state from then on.
 *
 * @param count how many facts were lost, at least 1
 */
public record LostFacts(long count) implements UpstreamEvent {
    /**
     * Checks the count.
     *
     * @param count how many facts were lost, at least 1
     * @throws IllegalArgumentException if the count is not positive
     */
    public LostFacts {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, got " + count);
        }
    }

    @Override
    public String text() {
        return UpstreamText.PREFIX + "lost where=sensor facts=" + count;
    }
}
