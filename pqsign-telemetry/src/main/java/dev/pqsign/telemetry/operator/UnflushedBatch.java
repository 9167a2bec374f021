package dev.pqsign.telemetry.operator;

import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * The judgements of a run of values whose replay marks were written without a flush
 * ({@link SensorVerification#judgeAll}): what they say if that flush succeeds, and what they must
 * say instead if it fails.
 */
final class UnflushedBatch {
    private UnflushedBatch() {}

    /** Whether the judgement accepts a reading (whose mark then waits for the batch's flush). */
    static boolean acceptsAny(SensorVerification.Judgement j) {
        for (Observation o : j.observations()) {
            if (acceptedReading(o)) {
                return true;
            }
        }
        return false;
    }

    private static boolean acceptedReading(Observation o) {
        return o.isReading() && o.record() != null && o.verdict().accepted();
    }

    /**
     * The judgements as they stand when the batch's marks could not be made durable: every
     * accepted reading becomes {@code STATE_ERROR}, and the gaps and skipped ranges reported before
     * it are left out, as for a reading whose mark could not be written ({@link ReadingVerifier}).
     *
     * @param judged the batch's judgements
     * @param why the verdict detail, one line
     * @return the judgements to report instead
     */
    static List<SensorVerification.Judgement> notAccepted(List<SensorVerification.Judgement> judged, String why) {
        List<SensorVerification.Judgement> out = new ArrayList<>(judged.size());
        for (SensorVerification.Judgement j : judged) {
            if (!acceptsAny(j)) {
                out.add(j);
                continue;
            }
            List<SignedRecord> failed = new ArrayList<>();
            for (Observation o : j.observations()) {
                if (acceptedReading(o)) {
                    failed.add(o.record());
                }
            }
            List<Observation> kept = new ArrayList<>();
            for (Observation o : j.observations()) {
                if (acceptedReading(o)) {
                    kept.add(stateError(o, why));
                } else if (!(o.gap() != null && o.handover() == null && isOneOf(o.record(), failed))) {
                    kept.add(o);
                }
            }
            out.add(new SensorVerification.Judgement(j.deferred(), kept));
        }
        return out;
    }

    private static Observation stateError(Observation o, String why) {
        return new Observation(
                o.sensor(),
                o.sequence(),
                Verdict.of(Verdict.Reason.STATE_ERROR, o.verdict().index(), why),
                o.reading(),
                o.latency(),
                o.record(),
                o.receivedAt(),
                null,
                null,
                o.live());
    }

    private static boolean isOneOf(SignedRecord r, List<SignedRecord> records) {
        for (SignedRecord x : records) {
            if (x == r) {
                return true;
            }
        }
        return false;
    }
}
