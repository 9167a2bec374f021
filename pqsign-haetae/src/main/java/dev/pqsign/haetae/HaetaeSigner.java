package dev.pqsign.haetae;

import dev.pqsign.core.Signer;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

/**
 * Signs with a HAETAE private key ({@code crypto_sign_signature} with a context string). Randomised:
 * 32 bytes from the {@link SecureRandom} per signature (there is deliberately no method that takes
 * the randomness from the caller; known-answer tests pass a {@code SecureRandom} that replays it).
 * Thread-safe; every thread uses its own per-thread work context, so signing into a caller buffer ({@link #sign(byte[], int, int, byte[], byte[], int)})
 * allocates nothing once warmed up (given a random source that does not allocate).
 */
public final class HaetaeSigner implements Signer {
    /** Maximum context string length. */
    public static final int MAX_CONTEXT_BYTES = 255;

    private static final byte[] EMPTY = new byte[0];
    private static final ThreadLocal<byte[]> RND =
            ThreadLocal.withInitial(() -> new byte[HaetaeParameterSet.SEEDBYTES]);

    private final HaetaePrivateKey key;
    private final byte[] context;
    private final HaetaeSampler sampler;
    private final HaetaeEngine engine;
    private final SecureRandom random;

    /**
     * Signer with the empty context, the v1.2.0 sampler, the fast engine and a new {@link SecureRandom}.
     *
     * @param key the signing key; it is used, not copied, so destroying it stops the signer
     */
    public HaetaeSigner(HaetaePrivateKey key) {
        this(key, EMPTY, HaetaeSampler.defaultSampler(), HaetaeEngine.FAST, new SecureRandom());
    }

    /**
     * Fully configured signer.
     *
     * @param key the signing key; it is used, not copied, so destroying it stops the signer
     * @param context default context string (at most 255 bytes), copied
     * @param sampler the hyperball sampler version
     * @param engine the engine that computes the signatures (both give the same bytes)
     * @param random the source of the 32 random bytes of each signature
     * @throws IllegalArgumentException if the context is longer than 255 bytes
     */
    public HaetaeSigner(
            HaetaePrivateKey key, byte[] context, HaetaeSampler sampler, HaetaeEngine engine, SecureRandom random) {
        this.key = Objects.requireNonNull(key, "key");
        this.context = checkContext(context).clone();
        this.sampler = Objects.requireNonNull(sampler, "sampler");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.random = Objects.requireNonNull(random, "random");
    }

    static byte[] checkContext(byte[] ctx) {
        Objects.requireNonNull(ctx, "context");
        if (ctx.length > MAX_CONTEXT_BYTES) {
            throw new IllegalArgumentException("HAETAE context string must be at most 255 bytes, got " + ctx.length);
        }
        return ctx;
    }

    /** Signs with the signer's default context. */
    @Override
    public byte[] sign(byte[] message) {
        return sign(message, context);
    }

    /**
     * Signs with an explicit context string.
     *
     * @param message the message, not modified
     * @param ctx the context string, at most 255 bytes
     * @return a new array of {@link HaetaeParameterSet#signatureBytes()} bytes
     * @throws IllegalArgumentException if {@code ctx} is longer than 255 bytes
     * @throws IllegalStateException if the private key was destroyed
     */
    public byte[] sign(byte[] message, byte[] ctx) {
        byte[] sig = new byte[key.parameterSet().sigBytes];
        sign(message, 0, message.length, ctx, sig, 0);
        return sig;
    }

    /**
     * Signs {@code message[off..off+len)} into {@code out[outOff..outOff + signatureBytes)}.
     *
     * @param message the array holding the message, not modified
     * @param off the start of the message in {@code message}
     * @param len the message length in bytes
     * @param ctx the context string, at most 255 bytes
     * @param out the array that receives the signature
     * @param outOff where the signature starts in {@code out}
     * @return the number of bytes written (always {@link HaetaeParameterSet#signatureBytes()})
     * @throws IndexOutOfBoundsException if the message or the signature range lies outside its array
     * @throws IllegalArgumentException if {@code ctx} is longer than 255 bytes
     * @throws IllegalStateException if the private key was destroyed
     */
    public int sign(byte[] message, int off, int len, byte[] ctx, byte[] out, int outOff) {
        Objects.checkFromIndexSize(off, len, message.length);
        checkContext(ctx);
        HaetaeParameterSet p = key.parameterSet();
        Objects.checkFromIndexSize(outOff, p.sigBytes, out.length);
        byte[] rnd = RND.get();
        random.nextBytes(rnd);
        try {
            engine.sign(p, sampler, key.encodedRef(), message, off, len, ctx, 0, ctx.length, rnd, out, outOff);
        } finally {
            Arrays.fill(rnd, (byte) 0);
        }
        return p.sigBytes;
    }

    @Override
    public HaetaeParameterSet parameterSet() {
        return key.parameterSet();
    }

    /**
     * The hyperball sampler version this signer uses.
     *
     * @return the sampler
     */
    public HaetaeSampler sampler() {
        return sampler;
    }

    @Override
    public String toString() {
        return "HaetaeSigner[" + key.parameterSet().setName() + ", " + sampler + ", " + engine + "]";
    }
}
