package dev.pqsign.telemetry;

import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.SignedKeyHandover;
import java.util.List;
import java.util.Objects;

/**
 * What an operator made of one key handover record.
 *
 * @param outcome followed, seen again, or why it must not move trust
 * @param handover the decoded record (null if it could not be decoded)
 * @param generation the chain's generation afterwards
 * @param gaps readings of the retired key that never arrived before its handover index
 * @param detail one line for logs
 */
public record HandoverCheck(
        HandoverOutcome outcome, SignedKeyHandover handover, long generation, List<Verdict.Gap> gaps, String detail) {
    /**
     * Copies the gaps.
     *
     * @param outcome followed, seen again, or why it must not move trust
     * @param handover the decoded record (null if it could not be decoded)
     * @param generation the chain's generation afterwards
     * @param gaps readings of the retired key that never arrived before its handover index
     * @param detail one line for logs
     */
    public HandoverCheck {
        Objects.requireNonNull(outcome, "outcome");
        gaps = List.copyOf(gaps);
        Objects.requireNonNull(detail, "detail");
    }

    /**
     * The verdict this check gives in a verdict stream.
     *
     * @return {@link Verdict.Reason#HANDOVER_REJECTED} for an alarm outcome, else {@link Verdict.Reason#HANDOVER}, with
     *     the handover index (-1 if undecoded)
     */
    public Verdict verdict() {
        long index = handover == null ? -1 : handover.statement().handoverIndex();
        return new Verdict(
                outcome.isAlarm() ? Verdict.Reason.HANDOVER_REJECTED : Verdict.Reason.HANDOVER, index, detail);
    }
}
