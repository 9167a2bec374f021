package dev.pqsign.haetae;

/**
 * Implementation strategy. Both engines compute byte-identical keys and signatures and accept exactly
 * the same signatures; they differ in speed and working memory.
 */
public enum HaetaeEngine {
    /** Whole vectors in memory (per-thread context of a few tens of KB); fastest. */
    FAST,

    /**
     * Streaming engine with a small working set per operation (one Keccak state, two or three
     * polynomial buffers, and for signing and verification the k rows of the commitment as 16-bit
     * values): nothing of size l * n or k * l * n is ever stored; components are regenerated from their
     * seeds, so it is slower than {@link #FAST}. Byte-identical outputs. Meant for memory-constrained
     * deployments and as an independent cross-check of the fast engine. Its working set and speed
     * against FAST are measured in docs/haetae.md.
     */
    COMPACT;

    /**
     * States per vector Keccak permutation of {@link #FAST}'s Vector API path in this JVM (8 with
     * AVX-512), or 0 when it signs with the scalar code, the default. The vector path is an explicit
     * opt-in, fixed when the JVM starts: {@code -Dpqsign.haetae.vector=true} together with
     * {@code --add-modules jdk.incubator.vector} ({@code PQSIGN_VECTOR=1} in the {@code pqsign}
     * launcher). Both paths give identical bytes; this only says which one the timings of this JVM
     * measure.
     *
     * @return the number of Keccak states per vector permutation, or 0 on the scalar path
     */
    public static int fastVectorLanes() {
        return VectorSupport.LANES;
    }

    /**
     * Which code path {@link #FAST} uses in this JVM, and why, in one line (for reports such as the
     * benchmark's JVM line and the demo's summary), e.g. "scalar path (the default; ...)".
     *
     * @return a one-line description of the FAST engine's path
     */
    public static String fastPathDescription() {
        return VectorSupport.describe();
    }

    // One switch per operation: the engines share no code, only these entry points.
    void keyPair(HaetaeParameterSet p, byte[] seed, byte[] pk, byte[] sk) {
        switch (this) {
            case FAST -> FastEngine.keyPair(HaetaeContext.forThread(p), seed, 0, pk, 0, sk, 0);
            case COMPACT ->
                CompactKeyGen.keyPair(p, CompactEngine.forThread(CompactEngine.Op.KEYGEN), seed, 0, pk, 0, sk, 0);
        }
    }

    void sign(
            HaetaeParameterSet p,
            HaetaeSampler sampler,
            byte[] sk,
            byte[] msg,
            int mOff,
            int mLen,
            byte[] ctx,
            int cOff,
            int cLen,
            byte[] rnd,
            byte[] sig,
            int sigOff) {
        switch (this) {
            case FAST -> {
                HaetaeContext c = HaetaeContext.forThread(p);
                FastEngine.sign(c, sampler, sk, 0, msg, mOff, mLen, ctx, cOff, cLen, rnd, 0, sig, sigOff);
            }
            case COMPACT -> {
                CompactEngine.Context c = CompactEngine.forThread(CompactEngine.Op.SIGN);
                CompactSign.sign(p, sampler, c, sk, 0, msg, mOff, mLen, ctx, cOff, cLen, rnd, 0, sig, sigOff);
            }
        }
    }

    boolean verify(
            HaetaeParameterSet p,
            byte[] pk,
            byte[] msg,
            int mOff,
            int mLen,
            byte[] ctx,
            int cOff,
            int cLen,
            byte[] sig,
            int sOff,
            int sLen) {
        return switch (this) {
            case FAST -> {
                HaetaeContext c = HaetaeContext.forThread(p);
                yield FastEngine.verify(c, pk, 0, msg, mOff, mLen, ctx, cOff, cLen, sig, sOff, sLen);
            }
            case COMPACT -> {
                CompactEngine.Context c = CompactEngine.forThread(CompactEngine.Op.VERIFY);
                yield CompactVerify.verify(p, c, pk, 0, msg, mOff, mLen, ctx, cOff, cLen, sig, sOff, sLen);
            }
        };
    }
}
