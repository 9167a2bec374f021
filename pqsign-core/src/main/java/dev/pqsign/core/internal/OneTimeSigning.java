package dev.pqsign.core.internal;

import dev.pqsign.core.SigningFaultException;

/**
 * The scheme-specific half of a stateful signer: makes the signature at an index that
 * {@link StatefulSignerCore} has already reserved durably, and keeps the scheme's caches (trees,
 * upper-layer signatures) in step with the index. Its methods are called under the core's lock, one
 * at a time, never concurrently.
 *
 * <p>A {@link SigningFaultException} from any method makes the signer unusable for good.
 */
public interface OneTimeSigning {

    /**
     * Builds what signing at {@code next} needs, when the key is opened with indices left.
     *
     * @param next the stored next index
     * @param end the end of the key file's range (exclusive)
     * @throws SigningFaultException if a rebuilt value does not match the key
     */
    void prepare(long next, long end);

    /**
     * Signs {@code message} at {@code index}.
     *
     * @param index a reserved index, each used once
     * @param message the message
     * @return the signature
     * @throws SigningFaultException if a check of the computation failed; nothing is released
     */
    byte[] sign(long index, byte[] message);

    /**
     * The upkeep after the signature at {@code signed}: brings the caches forward for the next
     * index (on the background thread when reserving ahead, else right after the signature).
     *
     * @param signed the index just used
     * @param end the end of the key file's range as last read from the store (exclusive)
     * @throws SigningFaultException if a check of the computation failed
     */
    void afterSign(long signed, long end);

    /**
     * Moves the caches to {@code index}: another signer of the same key file used the indices
     * between the last reservation and {@code index}.
     *
     * @param index the first index of the new reservation, above the last one used here
     * @throws SigningFaultException if a check of the computation failed
     */
    void moveTo(long index);

    /** Wipes every secret: the caches' and the private key's. */
    void destroy();
}
