package dev.pqsign.xmss;

/**
 * One underlying hash function with n-byte output, plus an optional "prefixed" mode that resumes
 * from a saved internal state. XMSS hashes millions of short inputs whose first block is constant
 * per key (toByte(3, n) || PUB_SEED for PRF), so hashing that block once and cloning the
 * mid-state saves one compression in every PRF call.
 *
 * <p>Not thread-safe: each thread uses its own instance. Reports its work to
 * {@link dev.pqsign.xmss.internal.XmssHashCounter} when counting is enabled.
 */
abstract class HashCore {
    /** Hashes {@code in[0..len)} into {@code out[outOff..outOff+n)}. */
    abstract void hash(byte[] in, int len, byte[] out, int outOff);

    /**
     * Saves the state after absorbing {@code prefix} (whose length must be a whole number of blocks
     * for the saving to be real). Returns {@code null} if this core cannot resume from a mid-state,
     * in which case callers hash the full input.
     */
    abstract Object absorbPrefix(byte[] prefix, int len);

    /** Hashes prefix || {@code in[0..len)} where {@code midstate} came from {@link #absorbPrefix}. */
    abstract void hashAfterPrefix(Object midstate, byte[] in, int len, byte[] out, int outOff);

    /** Forgets a mid-state (it may hold a secret key's first block); the object is unusable afterwards. */
    abstract void discard(Object midstate);

    /** Starts an incremental hash (for messages of arbitrary length). */
    abstract void start();

    abstract void update(byte[] in, int off, int len);

    abstract void finish(byte[] out, int outOff);
}
