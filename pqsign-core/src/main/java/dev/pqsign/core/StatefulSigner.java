package dev.pqsign.core;

/**
 * A signer whose key may produce each one-time index once only (XMSS, XMSS^MT).
 *
 * <p>Contract: before {@link #sign} returns, the index it uses has been written durably to the key's
 * state store, so a crash at any point can lose indices but can never make the signer reuse one. If
 * persisting fails the signer becomes unusable ({@link #isUsable()} is {@code false}) and every
 * further call throws {@link StatePersistenceException}. Implementations are thread-safe.
 */
public interface StatefulSigner extends Signer, IndexedSigner, AutoCloseable {

    /**
     * The parameter set of the key.
     *
     * @return the key's parameter set
     */
    @Override
    ParameterSet parameterSet();

    /**
     * Number of signatures this key can still produce.
     *
     * @return the count of unused indices, 0 when exhausted
     */
    long remaining();

    /**
     * The index the next signature will use (the lowest index not yet burned).
     *
     * @return the next index
     */
    long nextIndex();

    /**
     * Whether the signer may still sign.
     *
     * @return {@code false} after a persistence failure or after {@link #close()}
     */
    boolean isUsable();

    /** Releases caches and locks; the persisted state is left intact. */
    @Override
    void close();
}
