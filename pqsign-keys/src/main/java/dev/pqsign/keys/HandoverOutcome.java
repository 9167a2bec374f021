package dev.pqsign.keys;

/** What an operator makes of a key handover it receives ({@link KeyChain#follow}). */
public enum HandoverOutcome {
    /** Verified; the chain now continues with the new key. */
    FOLLOWED(false),
    /** The statement that made the current key current, received again: informational. */
    ALREADY_FOLLOWED(false),
    /** The statement names another chain (another sensor's identity). */
    FOREIGN_CHAIN(true),
    /** An older statement, or a different key for the current generation: replayed or conflicting. */
    REPLAYED(true),
    /** The statement skips generations; the missing handovers are needed first. */
    OUT_OF_ORDER(true),
    /** The statement names a signer other than the chain's current key. */
    WRONG_SIGNER(true),
    /** The signature does not verify under the current key (or its embedded index is not the handover index). */
    BAD_SIGNATURE(true),
    /** The new key is already a key of this chain or of another sensor. */
    KEY_REUSED(true),
    /**
     * An operator in certificate mode found no certificate chain for the new key that validates to
     * its root and was issued by the sensor's device CA.
     */
    UNCERTIFIED(true),
    /** The record or statement cannot be decoded. */
    MALFORMED(true);

    private final boolean alarm;

    HandoverOutcome(boolean alarm) {
        this.alarm = alarm;
    }

    /**
     * {@code true} for outcomes that mean someone tried to move trust without the right to.
     *
     * @return true for every outcome but {@link #FOLLOWED} and {@link #ALREADY_FOLLOWED}
     */
    public boolean isAlarm() {
        return alarm;
    }
}
