package dev.pqsign.lms;

import dev.pqsign.core.Verifier;
import java.util.Objects;

/**
 * Verifies HSS signatures (RFC 8554 section 6.3) under one public key, for one hierarchy.
 *
 * <p>An HSS public key names only its top tree; the trees below are named inside each signature. A
 * verifier made with an {@link HssParameterSet} accepts only signatures whose every level is the
 * tree that set names (and whose length is its {@link HssParameterSet#signatureBytes()}), so a key
 * holder cannot switch to other lower trees unnoticed. {@link #verifyAnyLowerLevels} is RFC 8554's
 * own rule, which accepts any lower trees, as the JDK's and BouncyCastle's verifiers do.
 *
 * <p>Thread-safe: each thread verifies with its own hashing context. Never throws on malformed
 * signatures: a wrong length, an unknown or mismatching type code, a leaf index out of range or any
 * altered byte gives {@code false}. The root comparisons are constant-time.
 *
 * <pre>{@code
 * HssVerifier v = new HssVerifier(HssPublicKey.decode(pubBytes), params);
 * boolean ok = v.verify(message, signature);
 * }</pre>
 */
public final class HssVerifier implements Verifier {
    private static final ThreadLocal<HssVerification> CONTEXTS = ThreadLocal.withInitial(HssVerification::new);

    private final HssPublicKey publicKey;
    private final HssParameterSet params;
    /** Whether every level must be the tree {@link #params} names ({@code false}: RFC 8554's rule). */
    private final boolean strict;

    /**
     * A verifier that accepts signatures of {@code params} only.
     *
     * @param publicKey the key signatures are checked against
     * @param params the hierarchy the key's signatures use
     * @throws IllegalArgumentException if the key's L or top tree differ from {@code params}
     */
    public HssVerifier(HssPublicKey publicKey, HssParameterSet params) {
        this(publicKey, params, true);
    }

    private HssVerifier(HssPublicKey publicKey, HssParameterSet params, boolean strict) {
        this.publicKey = Objects.requireNonNull(publicKey, "publicKey");
        this.params = Objects.requireNonNull(params, "params");
        this.strict = strict;
        if (!publicKey.matches(params)) {
            throw new IllegalArgumentException(publicKey + " is not a key of " + params.setName());
        }
    }

    /**
     * A verifier with RFC 8554's rule ({@link #verifyAnyLowerLevels}): any trees below the top one,
     * as each signature names them; for keys whose lower trees are unknown, e.g. a certificate
     * issuer's. Its {@link #parameterSet()} is nominal for more than one level: the key's L copies
     * of its top tree, which signatures need not have.
     *
     * @param publicKey the key signatures are checked against
     * @return the verifier
     */
    public static HssVerifier anyLowerLevels(HssPublicKey publicKey) {
        return new HssVerifier(
                publicKey, HssParameterSet.uniform(publicKey.top().parameterSet(), publicKey.levels()), false);
    }

    /**
     * Whether this verifier requires every level to be the tree its parameter set names.
     *
     * @return {@code false} for {@link #anyLowerLevels}
     */
    public boolean isStrict() {
        return strict;
    }

    /**
     * A verifier for a one-level key, whose public key names its whole hierarchy.
     *
     * @param publicKey a key with L = 1
     * @throws IllegalArgumentException if the key has more levels: their trees must be given with
     *     {@link #HssVerifier(HssPublicKey, HssParameterSet)}, or checked with
     *     {@link #verifyAnyLowerLevels}
     */
    public HssVerifier(HssPublicKey publicKey) {
        this(publicKey, singleLevel(publicKey));
    }

    private static HssParameterSet singleLevel(HssPublicKey key) {
        if (key.levels() != 1) {
            throw new IllegalArgumentException("an HSS public key with L = " + key.levels()
                    + " does not name its lower trees; give the parameter set");
        }
        return HssParameterSet.of(key.top().parameterSet());
    }

    /**
     * RFC 8554's verification: any trees below the top one are accepted, as the signature names
     * them. Never throws on malformed signatures.
     *
     * @param publicKey the key
     * @param message the signed message
     * @param signature the HSS signature
     * @return whether the signature is valid
     */
    public static boolean verifyAnyLowerLevels(HssPublicKey publicKey, byte[] message, byte[] signature) {
        Objects.requireNonNull(publicKey, "publicKey");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(signature, "signature");
        return CONTEXTS.get().verify(publicKey, null, message, signature);
    }

    @Override
    public boolean verify(byte[] message, byte[] signature) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(signature, "signature");
        return CONTEXTS.get().verify(publicKey, strict ? params : null, message, signature);
    }

    @Override
    public HssParameterSet parameterSet() {
        return params;
    }

    /**
     * The key signatures are checked against.
     *
     * @return the public key
     */
    public HssPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public String toString() {
        return "HssVerifier[" + params.setName() + "]";
    }
}
