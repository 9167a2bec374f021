package dev.pqsign.telemetry.operator;

import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import java.util.List;
import java.util.Objects;

/**
 * What checking one {@link SignedRecord} found: the verdict for the record itself, the index
 * ranges of the same key that were skipped before it and never arrived (reported as
 * {@link Verdict.Reason#GAP} before the verdict), and those the record, a signed
 * {@link dev.pqsign.telemetry.SkipNotice}, says the sensor burned without publishing
 * ({@link Verdict.Reason#SKIPPED}).
 *
 * @param gaps missing index ranges, ascending; empty if none
 * @param skipped index ranges accounted for by the record's skip notice, ascending; empty if none
 * @param verdict the record's verdict
 */
public record RecordCheck(List<Verdict.Gap> gaps, List<Verdict.Gap> skipped, Verdict verdict) {
    /**
     * Copies the ranges.
     *
     * @param gaps missing index ranges, ascending; empty if none
     * @param skipped index ranges accounted for by the record's skip notice, ascending; empty if none
     * @param verdict the record's verdict
     */
    public RecordCheck {
        gaps = List.copyOf(gaps);
        skipped = List.copyOf(skipped);
        Objects.requireNonNull(verdict, "verdict");
    }

    /**
     * A check without skipped ranges.
     *
     * @param gaps missing index ranges, ascending; empty if none
     * @param verdict the record's verdict
     */
    public RecordCheck(List<Verdict.Gap> gaps, Verdict verdict) {
        this(gaps, List.of(), verdict);
    }
}
