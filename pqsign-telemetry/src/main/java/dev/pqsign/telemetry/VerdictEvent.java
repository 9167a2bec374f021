package dev.pqsign.telemetry;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of an operator's verdict stream: a verdict on a received record, or a gap of missing
 * indices of one key. Immutable.
 */
public final class VerdictEvent {

    private final String sensor;
    private final KeyId keyId;
    private final Verdict verdict;
    private final Verdict.Gap gap;
    private final SignedRecord record;
    private final Instant receivedAt;
    private final HandoverCheck handover;

    private VerdictEvent(
            String sensor, KeyId keyId, Verdict verdict, Verdict.Gap gap, SignedRecord record, Instant receivedAt) {
        this(sensor, keyId, verdict, gap, record, receivedAt, null);
    }

    private VerdictEvent(
            String sensor,
            KeyId keyId,
            Verdict verdict,
            Verdict.Gap gap,
            SignedRecord record,
            Instant receivedAt,
            HandoverCheck handover) {
        this.sensor = Objects.requireNonNull(sensor, "sensor");
        this.keyId = keyId;
        this.verdict = Objects.requireNonNull(verdict, "verdict");
        this.gap = gap;
        this.record = record;
        this.receivedAt = Objects.requireNonNull(receivedAt, "receivedAt");
        this.handover = handover;
    }

    /**
     * A key handover record the operator received (followed, seen again, or rejected). Its key id is
     * the new key's (null if the record could not be decoded).
     *
     * @param sensor the sensor's name as configured at the operator
     * @param check what the operator made of the record
     * @param receivedAt the operator's UTC wall-clock time of receipt
     * @return the event
     */
    public static VerdictEvent handover(String sensor, HandoverCheck check, Instant receivedAt) {
        Objects.requireNonNull(check, "check");
        KeyId newKey = check.handover() == null
                ? null
                : KeyId.of(check.handover().statement().newKeyId());
        return new VerdictEvent(sensor, newKey, check.verdict(), null, null, receivedAt, check);
    }

    /**
     * For a key handover event: what the operator made of it, else null.
     *
     * @return the handover check, or null
     */
    public HandoverCheck handover() {
        return handover;
    }

    /**
     * The verdict on a received record.
     *
     * @param sensor the sensor's name as configured at the operator
     * @param verdict the verdict
     * @param record the record as received, or null if it could not be decoded
     * @param receivedAt the operator's UTC wall-clock time of receipt
     * @return the event
     */
    public static VerdictEvent of(String sensor, Verdict verdict, SignedRecord record, Instant receivedAt) {
        return new VerdictEvent(sensor, record == null ? null : record.keyId(), verdict, null, record, receivedAt);
    }

    /**
     * Missing indices of {@code keyId}, noticed when a later record arrived at {@code receivedAt}.
     *
     * @param sensor the sensor's name as configured at the operator
     * @param keyId the key whose indices are missing
     * @param gap the missing range
     * @param receivedAt when the later record arrived, operator's UTC wall clock
     * @return the event, its verdict {@link Verdict.Reason#GAP}
     */
    public static VerdictEvent gap(String sensor, KeyId keyId, Verdict.Gap gap, Instant receivedAt) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(gap, "gap");
        Verdict v = Verdict.of(
                Verdict.Reason.GAP,
                gap.to(),
                gap.size() + " reading(s) missing: indices " + gap.from() + ".." + gap.to());
        return new VerdictEvent(sensor, keyId, v, gap, null, receivedAt);
    }

    /**
     * Indices of {@code keyId} the sensor's signed skip notice, accepted at {@code receivedAt}, says
     * it burned without publishing.
     *
     * @param sensor the sensor's name as configured at the operator
     * @param keyId the key whose indices were skipped
     * @param skipped the skipped range
     * @param receivedAt when the notice arrived, operator's UTC wall clock
     * @return the event, its verdict {@link Verdict.Reason#SKIPPED} (no alarm)
     */
    public static VerdictEvent skipped(String sensor, KeyId keyId, Verdict.Gap skipped, Instant receivedAt) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(skipped, "skipped");
        Verdict v = Verdict.of(
                Verdict.Reason.SKIPPED,
                skipped.to(),
                skipped.size() + " index(es) burned by the sensor without publishing: " + skipped.from() + ".."
                        + skipped.to());
        return new VerdictEvent(sensor, keyId, v, skipped, null, receivedAt);
    }

    /**
     * The sensor's name as configured at the operator.
     *
     * @return the sensor's name
     */
    public String sensor() {
        return sensor;
    }

    /**
     * The key id the record states (null if unknown).
     *
     * @return the key id, or null
     */
    public KeyId keyId() {
        return keyId;
    }

    /**
     * The verdict ({@link Verdict.Reason#GAP} for a gap).
     *
     * @return the verdict
     */
    public Verdict verdict() {
        return verdict;
    }

    /**
     * The missing range of a gap, else null.
     *
     * @return the range, or null
     */
    public Verdict.Gap gap() {
        return gap;
    }

    /**
     * The record as received (null for a gap or an undecodable value).
     *
     * @return the record, or null
     */
    public SignedRecord record() {
        return record;
    }

    /**
     * The operator's UTC wall-clock time of receipt.
     *
     * @return the receipt time
     */
    public Instant receivedAt() {
        return receivedAt;
    }

    /**
     * The line's {@code verdict} word: {@code ACCEPTED}, {@code DUPLICATE}, {@code GAP},
     * {@code INDEX_REUSE}, {@code SKIPPED}, or {@code REJECTED} for every other reason.
     *
     * @return the word
     */
    public String verdictWord() {
        return switch (verdict.reason()) {
            case ACCEPTED, DUPLICATE, GAP, INDEX_REUSE, SKIPPED ->
                verdict.reason().name();
            default -> "REJECTED";
        };
    }

    /**
     * End-to-end latency by the wall clocks, source time to receipt, in nanoseconds (meaningful only
     * with synchronized clocks), or null without a record.
     *
     * @return the latency in nanoseconds (negative if the clocks disagree), or null
     */
    public Long wallLatencyNanos() {
        if (record == null) {
            return null;
        }
        java.time.Duration d = java.time.Duration.between(record.sourceTime(), receivedAt);
        return d.getSeconds() * 1_000_000_000L + d.getNano();
    }
}
