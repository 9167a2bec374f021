package dev.pqsign.telemetry.operator;

import dev.pqsign.telemetry.HandoverCheck;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import java.time.Instant;
import java.util.Locale;

/**
 * What an operator made of one value of a sensor's record node: a reading's verdict, a gap, or a
 * key handover (and the gaps its retired key left).
 *
 * @param sensor the sensor's name
 * @param sequence the sensor's publication sequence number (-1 for a handover, or an undecodable value)
 * @param verdict accepted or rejected with a reason
 * @param reading the reading as read (null if it could not be decoded, and for gaps and handovers)
 * @param latency monotonic-clock durations (null without a record; meaningful only when sensor and
 *     operator share a clock, i.e. a process)
 * @param record the record as received (for a gap: the record whose arrival revealed it; null for an
 *     undecodable value and for handovers)
 * @param receivedAt the operator's UTC wall-clock time of receipt
 * @param gap for a {@link Verdict.Reason#GAP}: the missing range; for {@link Verdict.Reason#SKIPPED} the
 *     skipped range; else null
 * @param handover for a key handover (and the gaps its retired key left): what the operator made of
 *     it, else null
 * @param live false for a value read from the sensor's history (a backfill): its latency says how long
 *     it waited there, not how fast the path is
 */
public record Observation(
        String sensor,
        long sequence,
        Verdict verdict,
        SignedReading reading,
        LatencyRecord latency,
        SignedRecord record,
        Instant receivedAt,
        Verdict.Gap gap,
        HandoverCheck handover,
        boolean live) {

    /**
     * An observation of a live value.
     *
     * @param sensor the sensor's name
     * @param sequence the sensor's publication sequence number
     * @param verdict accepted or rejected with a reason
     * @param reading the reading as read (null if it could not be decoded)
     * @param latency monotonic-clock durations (null without a record)
     * @param record the record as received
     * @param receivedAt the operator's UTC wall-clock time of receipt
     * @param gap the missing or skipped range, else null
     * @param handover what the operator made of a key handover, else null
     */
    public Observation(
            String sensor,
            long sequence,
            Verdict verdict,
            SignedReading reading,
            LatencyRecord latency,
            SignedRecord record,
            Instant receivedAt,
            Verdict.Gap gap,
            HandoverCheck handover) {
        this(sensor, sequence, verdict, reading, latency, record, receivedAt, gap, handover, true);
    }

    /**
     * An observation of a reading or a gap.
     *
     * @param sensor the sensor's name
     * @param sequence the sensor's publication sequence number
     * @param verdict accepted or rejected with a reason
     * @param reading the reading as read (null if it could not be decoded)
     * @param latency monotonic-clock durations (null without a record)
     * @param record the record as received (for a gap: the record whose arrival revealed it)
     * @param receivedAt the operator's UTC wall-clock time of receipt
     * @param gap for a {@link Verdict.Reason#GAP}: the missing range, else null
     */
    public Observation(
            String sensor,
            long sequence,
            Verdict verdict,
            SignedReading reading,
            LatencyRecord latency,
            SignedRecord record,
            Instant receivedAt,
            Verdict.Gap gap) {
        this(sensor, sequence, verdict, reading, latency, record, receivedAt, gap, null, true);
    }

    /**
     * Whether this is a reading's verdict (not a gap, not a handover).
     *
     * @return true for a reading's verdict
     */
    public boolean isReading() {
        return gap == null && handover == null;
    }

    /**
     * The observation as a verdict-stream event.
     *
     * @return the event
     */
    public VerdictEvent event() {
        if (gap != null && handover != null) {
            return VerdictEvent.gap(
                    sensor, KeyId.of(handover.handover().statement().oldKeyId()), gap, receivedAt);
        }
        if (gap != null && verdict.reason() == Verdict.Reason.SKIPPED) {
            return VerdictEvent.skipped(sensor, record.keyId(), gap, receivedAt);
        }
        if (gap != null) {
            return VerdictEvent.gap(sensor, record.keyId(), gap, receivedAt);
        }
        if (handover != null) {
            return VerdictEvent.handover(sensor, handover, receivedAt);
        }
        return VerdictEvent.of(sensor, verdict, record, receivedAt);
    }

    /**
     * One log line: sensor, index, reason, end-to-end and transfer milliseconds, and the reading
     * (control characters replaced) or the rejection detail.
     *
     * @return the line, without a line separator
     */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(sensor).append(" index=").append(verdict.index()).append(' ').append(verdict.reason());
        if (latency != null) {
            sb.append(String.format(
                    Locale.ROOT,
                    " e2e=%.3fms transfer=%.3fms",
                    latency.endToEndNanos() / 1e6,
                    latency.transferNanos() / 1e6));
        }
        String text = verdict.accepted() && reading != null ? reading.reading() : verdict.detail();
        if (text.length() > 120) {
            text = text.substring(0, 120) + "…";
        }
        sb.append(' ');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            sb.append(Character.isISOControl(c) ? '?' : c);
        }
        return sb.toString();
    }
}
