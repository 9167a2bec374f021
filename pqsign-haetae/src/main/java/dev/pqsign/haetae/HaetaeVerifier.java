package dev.pqsign.haetae;

import dev.pqsign.core.Verifier;
import java.util.Objects;

/**
 * Verifies HAETAE signatures ({@code crypto_sign_verify} with a context string) under one public key.
 * Never throws for malformed signatures: wrong length, nonzero padding, rANS errors and out-of-range
 * values all return {@code false}. Thread-safe; allocation-free per call once warmed up.
 */
public final class HaetaeVerifier implements Verifier {
    private static final byte[] EMPTY = new byte[0];

    private final HaetaePublicKey key;
    private final byte[] context;
    private final HaetaeEngine engine;

    /**
     * Verifier with the empty context and the fast engine.
     *
     * @param key the key signatures are checked against
     */
    public HaetaeVerifier(HaetaePublicKey key) {
        this(key, EMPTY, HaetaeEngine.FAST);
    }

    /**
     * Verifier with a default context string and an engine.
     *
     * @param key the key signatures are checked against
     * @param context the default context string, at most 255 bytes; copied
     * @param engine the engine that verifies (both accept exactly the same signatures)
     * @throws IllegalArgumentException if {@code context} is longer than 255 bytes
     */
    public HaetaeVerifier(HaetaePublicKey key, byte[] context, HaetaeEngine engine) {
        this.key = Objects.requireNonNull(key, "key");
        this.context = HaetaeSigner.checkContext(context).clone();
        this.engine = Objects.requireNonNull(engine, "engine");
    }

    /** Verifies with the verifier's default context. */
    @Override
    public boolean verify(byte[] message, byte[] signature) {
        return verify(message, 0, message.length, context, signature, 0, signature.length);
    }

    /**
     * Verifies with an explicit context; a context longer than 255 bytes simply fails.
     *
     * @param message the signed message
     * @param ctx the context string the signature was made with
     * @param signature the signature
     * @return whether the signature is valid for this message and context
     */
    public boolean verify(byte[] message, byte[] ctx, byte[] signature) {
        return verify(message, 0, message.length, ctx, signature, 0, signature.length);
    }

    /**
     * Verifies {@code signature[sOff..sOff+sLen)} on {@code message[off..off+len)}.
     *
     * @param message the array holding the signed message
     * @param off the start of the message in {@code message}
     * @param len the message length in bytes
     * @param ctx the context string the signature was made with; longer than 255 bytes fails
     * @param signature the array holding the signature
     * @param sOff the start of the signature in {@code signature}
     * @param sLen the signature length in bytes; any length but the set's fails
     * @return whether the signature is valid for this message and context
     * @throws IndexOutOfBoundsException if the message or the signature range lies outside its array
     */
    public boolean verify(byte[] message, int off, int len, byte[] ctx, byte[] signature, int sOff, int sLen) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(ctx, "context");
        Objects.requireNonNull(signature, "signature");
        Objects.checkFromIndexSize(off, len, message.length);
        Objects.checkFromIndexSize(sOff, sLen, signature.length);
        if (ctx.length > HaetaeSigner.MAX_CONTEXT_BYTES) {
            return false;
        }
        HaetaeParameterSet p = key.parameterSet();
        return engine.verify(p, key.encodedRef(), message, off, len, ctx, 0, ctx.length, signature, sOff, sLen);
    }

    @Override
    public HaetaeParameterSet parameterSet() {
        return key.parameterSet();
    }

    /**
     * The key signatures are checked against.
     *
     * @return the public key
     */
    public HaetaePublicKey publicKey() {
        return key;
    }

    @Override
    public String toString() {
        return "HaetaeVerifier[" + key + ", " + engine + "]";
    }
}
