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

    /** Verifier with the empty context and the fast engine. */
    public HaetaeVerifier(HaetaePublicKey key) {
        this(key, EMPTY, HaetaeEngine.FAST);
    }

    /** Verifier with a default context string (at most 255 bytes, copied) and an engine. */
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

    /** Verifies with an explicit context; a context longer than 255 bytes simply fails. */
    public boolean verify(byte[] message, byte[] ctx, byte[] signature) {
        return verify(message, 0, message.length, ctx, signature, 0, signature.length);
    }

    /** Verifies {@code signature[sOff..sOff+sLen)} on {@code message[off..off+len)}. */
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

    /** The key signatures are checked against. */
    public HaetaePublicKey publicKey() {
        return key;
    }

    @Override
    public String toString() {
        return "HaetaeVerifier[" + key + ", " + engine + "]";
    }
}
