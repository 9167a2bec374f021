package dev.pqsign.keys;

/**
 * The durable steps of a key rollover, in order. A {@link SensorKeyDirectory.Observer} hears of each
 * once it is complete (for logs, metrics, and crash tests that stop a process right after a step).
 */
public enum RolloverStep {
    /** The next key was generated in memory; nothing of it is on disk yet. */
    NEXT_KEY_GENERATED,
    /** The next key's directory (public key and fresh state) is durable; the key is not announced. */
    NEXT_KEY_DURABLE,
    /** The current key signed the handover statement; its index is burned, the statement not yet stored. */
    HANDOVER_SIGNED,
    /** The signed statement is durable: the next key is now the current key, on every restart too. */
    HANDOVER_DURABLE,
    /** The retired key's secret state has been wiped and removed. */
    RETIRED_KEY_DESTROYED
}
