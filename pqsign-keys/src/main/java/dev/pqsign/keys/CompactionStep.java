package dev.pqsign.keys;

/**
 * The durable steps of compacting one retired generation into the key directory's handover log
 * (docs/key-directory.md), in order. A {@link SensorKeyDirectory.Observer} hears of each once it
 * is complete (for logs and crash tests that stop a process right after a step).
 */
public enum CompactionStep {
    /** The generation's handover record (and certificate chain) is appended to the log, the log fsynced. */
    RECORD_LOGGED,
    /** The generation's directory is removed and {@code generations/} fsynced: the log alone holds it. */
    DIRECTORY_REMOVED
}
