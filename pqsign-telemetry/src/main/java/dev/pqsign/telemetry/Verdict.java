package dev.pqsign.telemetry;

import java.util.Objects;

/**
 * The outcome of checking one published reading.
 *
 * @param reason why it was accepted or rejected
 * @param index the published index (-1 if none could be read; for a {@link Reason#GAP} the last missing index)
 * @param detail a short human-readable explanation for the log; never secret
 */
public record Verdict(Reason reason, long index, String detail) {

    /**
     * A missing index range {@code from..to} (inclusive), reported as {@link Reason#GAP}.
     *
     * @param from the first missing index
     * @param to the last missing index
     */
    public record Gap(long from, long to) {
        /**
         * Checks the range.
         *
         * @param from the first missing index, 0 or more
         * @param to the last missing index, at least {@code from}
         * @throws IllegalArgumentException if {@code from} is negative or {@code to} is below it
         */
        public Gap {
            if (from < 0 || to < from) {
                throw new IllegalArgumentException("bad gap " + from + ".." + to);
            }
        }

        /**
         * Number of missing indices.
         *
         * @return {@code to - from + 1}
         */
        public long size() {
            return to - from + 1;
        }
    }

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
        STATE_ERROR,
        /**
         * Identical (same key, index, signed message and signature) to a reading already accepted,
         * e.g. the current reading delivered again after a restart: informational, not a rejection.
         */
        DUPLICATE,
        /**
         * A valid reading whose index was already accepted with a different valid message or
         * signature: the key's index was used twice (restored key state, cloned device, stolen key).
         */
        INDEX_REUSE,
        /** Indices that never arrived before a later reading of the same key ({@link Gap}). */
        GAP,
        /**
         * A validly signed reading of a key that was handed over to a newer key, under an index at or
         * above the index its handover statement used: the key signs nothing after its handover.
         */
        RETIRED_KEY,
        /** A key handover statement that was followed, or the latest one received again: informational. */
        HANDOVER,
        /** A key handover statement that must not move trust (forged, replayed, foreign, out of order). */
        HANDOVER_REJECTED,
        /**
         * Indices the sensor said, in a signed {@link SkipNotice}, it burned without publishing
         * (reserved ahead before a crash, or never in its records): accounted for, not lost.
         */
        SKIPPED
    }

    /**
     * Checks that reason and detail are given.
     *
     * @param reason why it was accepted or rejected
     * @param index the published index (-1 if none could be read; for a {@link Reason#GAP} the last missing index)
     * @param detail a short human-readable explanation for the log; never secret
     */
    public Verdict {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
    }

    /**
     * {@code true} only for {@link Reason#ACCEPTED}.
     *
     * @return whether the reading was accepted
     */
    public boolean accepted() {
        return reason == Reason.ACCEPTED;
    }

    /**
     * {@code true} for verdicts that count against a run: everything except {@link Reason#ACCEPTED},
     * {@link Reason#DUPLICATE} and a followed {@link Reason#HANDOVER}.
     *
     * @return whether this verdict is an alarm
     */
    public boolean alarm() {
        return reason != Reason.ACCEPTED
                && reason != Reason.DUPLICATE
                && reason != Reason.HANDOVER
                && reason != Reason.SKIPPED;
    }

    /**
     * A verdict.
     *
     * @param reason why
     * @param index the reading's index, or -1 if unknown
     * @param detail one line for logs
     * @return the verdict
     */
    public static Verdict of(Reason reason, long index, String detail) {
        return new Verdict(reason, index, detail);
    }
}
