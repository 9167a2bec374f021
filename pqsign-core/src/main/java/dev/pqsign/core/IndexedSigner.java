package dev.pqsign.core;

import java.util.function.LongFunction;

/**
 * Signs messages that must embed the index they are signed under (telemetry binds each reading to
 * its index). The index is reserved durably first, then the message is built for it, then signed, so
 * the message and the signature can never disagree about the index.
 */
public interface IndexedSigner {

    /**
     * Reserves the next index, asks {@code messageForIndex} for the message to sign under it, and
     * signs that message.
     *
     * @param messageForIndex builds the message to sign from the reserved index; called once
     * @return the reserved index and the signature over the message built for it
     * @throws KeyExhaustedException if no index is left
     * @throws StatePersistenceException if the reservation could not be made durable
     */
    IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex);

    /**
     * The parameter set of the key.
     *
     * @return the key's parameter set
     */
    ParameterSet parameterSet();
}
