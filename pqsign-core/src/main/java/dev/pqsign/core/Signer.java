package dev.pqsign.core;

/**
 * Produces signatures over byte messages.
 *
 * <p>Stateless schemes (HAETAE) implement this directly; stateful hash-based schemes implement
 * {@link StatefulSigner}, whose contract adds that every call durably consumes one index before the
 * signature is returned.
 */
public interface Signer {

    /**
     * Signs {@code message}.
     *
     * @param message the message, not modified
     * @return a freshly allocated signature in the scheme's standard encoding
     * @throws KeyExhaustedException if a stateful key has no indices left
     * @throws StatePersistenceException if the key's state could not be made durable; no signature is released
     */
    byte[] sign(byte[] message);

    /**
     * The parameter set this signer uses.
     *
     * @return the key's parameter set
     */
    ParameterSet parameterSet();
}
