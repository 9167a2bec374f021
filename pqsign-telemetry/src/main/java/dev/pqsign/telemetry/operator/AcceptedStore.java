package dev.pqsign.telemetry.operator;

import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SignedRecord;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where an operator remembers the records it accepted recently, to tell a reading delivered again
 * ({@code DUPLICATE}) from a different reading under an index already used ({@code INDEX_REUSE}):
 * the operator's ring files ({@link AcceptedRecords}), or another durable store such as a stream
 * processor's state store. A record is stored before the replay mark advances.
 */
public interface AcceptedStore {

    /**
     * Remembers an accepted record (replacing whatever record shared its place).
     *
     * @param record the accepted record
     * @param signatureBytes the key's signature size
     * @throws IOException if it cannot be stored
     */
    void put(SignedRecord record, int signatureBytes) throws IOException;

    /**
     * The record remembered for {@code index} of {@code key}, if still remembered.
     *
     * @param key the key
     * @param index the index
     * @param signatureBytes the key's signature size
     * @return the record, or empty
     * @throws IOException if the store cannot be read
     */
    Optional<SignedRecord> get(KeyId key, long index, int signatureBytes) throws IOException;

    /**
     * Notes that the verdict on {@code record} was written out, so that {@link #unreported} does not
     * offer it again after a restart. A store whose verdicts are written atomically with the record
     * (a transaction) may do nothing.
     *
     * @param record the record whose verdict was written
     * @param signatureBytes the key's signature size
     * @throws IOException if the note cannot be stored
     */
    default void markReported(SignedRecord record, int signatureBytes) throws IOException {}

    /**
     * The accepted records of {@code key} whose verdict was never written out, oldest first.
     *
     * @param key the key
     * @param lastAccepted the key's last accepted index
     * @param signatureBytes the key's signature size
     * @return the records; empty if none (always, for a store without the note)
     * @throws IOException if the store cannot be read
     */
    default List<SignedRecord> unreported(KeyId key, long lastAccepted, int signatureBytes) throws IOException {
        return List.of();
    }
}
