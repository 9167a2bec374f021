package dev.pqsign.telemetry.operator;

import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import java.util.List;
import java.util.Objects;

/**
 * What checking one {@link SignedRecord} found: the verdict for the record itself, and the index
 * ranges of the same key that were skipped before it (reported as {@link Verdict.Reason#GAP}
 * before the verdict).
 *
 * @param gaps missing index ranges, ascending; empty if none
 * @param verdict the record's verdict
 */
public record RecordCheck(List<Verdict.Gap> gaps, Verdict verdict) {
    /**
     * Copies the gaps.
     *
     * @param gaps missing index ranges, ascending; empty if none
     * @param verdict the record's verdict
     */
    public RecordCheck {
        gaps = List.copyOf(gaps);
        Objects.requireNonNull(verdict, "verdict");
    }
}
