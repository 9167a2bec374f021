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
     * @throws KeyExhaustedException if no index is left
     * @throws StatePersistenceException if the reservation could not be made durable
     */
    IndexedSignature signIndexed(LongFunction<byte[]> messageForIndex);

    /** The parameter set of the key. */
    ParameterSet parameterSet();
}
