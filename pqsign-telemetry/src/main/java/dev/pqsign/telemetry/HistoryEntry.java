package dev.pqsign.telemetry;

import dev.pqsign.keys.SignedKeyHandover;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of a sensor's {@link ReadingHistory}: a signed record (a reading), or a key handover
 * record that the sensor published on its record node between the old key's last reading and the
 * new key's first. Either way {@link #value()} is exactly what the record node carried.
 */
public final class HistoryEntry {
    private final Instant sourceTime;
    private final SignedRecord reading;
    private final SignedKeyHandover handover;

    private HistoryEntry(Instant sourceTime, SignedRecord reading, SignedKeyHandover handover) {
        this.sourceTime = sourceTime;
        this.reading = reading;
        this.handover = handover;
    }

    static HistoryEntry ofReading(SignedRecord reading) {
        return new HistoryEntry(reading.sourceTime(), reading, null);
    }

    static HistoryEntry ofHandover(Instant sourceTime, SignedKeyHandover handover) {
        return new HistoryEntry(Objects.requireNonNull(sourceTime), null, Objects.requireNonNull(handover));
    }

    /**
     * When the sensor published it (for a reading: the record's source time).
     *
     * @return the source time
     */
    public Instant sourceTime() {
        return sourceTime;
    }

    /**
     * The signed reading, unless this is a handover.
     *
     * @return the reading, or empty for a handover
     */
    public Optional<SignedRecord> reading() {
        return Optional.ofNullable(reading);
    }

    /**
     * The key handover record, unless this is a reading.
     *
     * @return the handover, or empty for a reading
     */
    public Optional<SignedKeyHandover> handover() {
        return Optional.ofNullable(handover);
    }

    /**
     * The bytes the sensor's record node carried: a signed record or a signed key handover record.
     *
     * @return the node value's bytes
     */
    public byte[] value() {
        return reading != null ? reading.encode() : handover.encode();
    }

    @Override
    public String toString() {
        return "HistoryEntry[" + sourceTime + ", " + (reading != null ? "reading " + reading.index() : handover) + "]";
    }
}
