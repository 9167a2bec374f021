package dev.pqsign.telemetry;

import java.util.Objects;

/**
 * The outcome of checking one published reading.
 *
 * @param reason why it was accepted or rejected
 * @param index the published index (-1 if none could be read)
 * @param detail a short human-readable explanation for the log; never secret
 */
public record Verdict(Reason reason, long index, String detail) {

    /** Why a reading was accepted or rejected. */
    public enum Reason {
        /** Signature valid, index fresh; the replay state has been advanced durably. */
        ACCEPTED,
        /** The signature does not verify over the canonical message (tampered or forged). */
        BAD_SIGNATURE,
        /** Validly signed, but its index is not above the last accepted index of the key. */
        REPLAYED,
        /** Wrong types, empty or oversized values, wrong signature length, unparseable fields. */
        MALFORMED,
        /** The index inside the signature differs from the published index. */
        INDEX_MISMATCH,
        /** The sensor's key or parameter set is not one the operator has pinned. */
        UNKNOWN_KEY,
        /** The replay state could not be read or made durable; the reading is not accepted. */
        STATE_ERROR
    }

    public Verdict {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }

    /** {@code true} only for {@link Reason#ACCEPTED}. */
    public boolean accepted() {
        return reason == Reason.ACCEPTED;
    }

    static Verdict of(Reason reason, long index, String detail) {
        return new Verdict(reason, index, detail);
    }
}
