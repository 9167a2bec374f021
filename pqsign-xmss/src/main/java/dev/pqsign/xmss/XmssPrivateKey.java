package dev.pqsign.xmss;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import javax.security.auth.Destroyable;

/**
 * The secret material of an XMSS / XMSS^MT key: SK_SEED, SK_PRF, PUB_SEED, the root, the parameter
 * set and the WOTS+ derivation. It carries no index: which indices may still be used is the
 * business of the persisted key state ({@link XmssKeyState}), never of this value.
 *
 * <p>{@link #toString()} never shows secrets. {@link #destroy()} wipes the seeds; from then on every
 * use of the key (its public key, a state encoding, a signer) throws {@link IllegalStateException},
 * so a wiped key can never be written out as all-zero seeds with a valid check value.
 *
 * <p>A key read from a key state ({@link XmssKeyState#decode}) remembers that it was: it can never
 * start a fresh state at index 0 again ({@link XmssKeyState#fresh}), which would reuse indices.
 */
public final class XmssPrivateKey implements Destroyable {
    private final XmssParameterSet params;
    private final WotsDerivation derivation;
    private final byte[] skSeed;
    private final byte[] skPrf;
    private final XmssPublicKey publicKey;
    /** Read from a key state, so some of its indices may be used: it must never start over at 0. */
    private final boolean fromState;

    private volatile boolean destroyed;

    XmssPrivateKey(
            XmssParameterSet params,
            WotsDerivation derivation,
            byte[] skSeed,
            byte[] skPrf,
            byte[] pubSeed,
            byte[] root) {
        this(params, derivation, skSeed, skPrf, pubSeed, root, false);
    }

    XmssPrivateKey(
            XmssParameterSet params,
            WotsDerivation derivation,
            byte[] skSeed,
            byte[] skPrf,
            byte[] pubSeed,
            byte[] root,
            boolean fromState) {
        int n = params.n();
        if (skSeed.length != n || skPrf.length != n) {
            throw new KeyFormatException(params.setName() + " private key needs " + n + "-byte seeds");
        }
        this.params = params;
        this.derivation = derivation;
        this.skSeed = skSeed.clone();
        this.skPrf = skPrf.clone();
        this.publicKey = new XmssPublicKey(params, root, pubSeed);
        this.fromState = fromState;
    }

    /**
     * The key's parameter set (readable after {@link #destroy()}: it is not secret).
     *
     * @return the parameter set
     */
    public XmssParameterSet parameterSet() {
        return params;
    }

    /**
     * How the key's WOTS+ secret keys are derived from SK_SEED.
     *
     * @return the derivation
     */
    public WotsDerivation derivation() {
        return derivation;
    }

    /**
     * The public key.
     *
     * @return the public key: type code, root and PUB_SEED
     * @throws IllegalStateException if the key was destroyed
     */
    public XmssPublicKey publicKey() {
        checkNotDestroyed();
        return publicKey;
    }

    byte[] skSeed() {
        checkNotDestroyed();
        return skSeed;
    }

    byte[] skPrf() {
        checkNotDestroyed();
        return skPrf;
    }

    boolean fromState() {
        return fromState;
    }

    /** Throws if {@link #destroy()} was called: a wiped key must not sign, encode or derive anything. */
    void checkNotDestroyed() {
        if (destroyed) {
            throw new IllegalStateException("the " + params.setName() + " private key was destroyed (its seeds are "
                    + "wiped); load the key state again to use it");
        }
    }

    /** A fresh per-thread hashing context for this key that resumes PRF mid-states (fewest compressions). */
    TreeHash newTreeHash() {
        return newTreeHash(true);
    }

    /**
     * A fresh per-thread hashing context for this key.
     *
     * @param resumeMidstates see {@link Hasher#Hasher(XmssParameterSet, byte[], byte[], byte[], boolean)}
     */
    TreeHash newTreeHash(boolean resumeMidstates) {
        checkNotDestroyed();
        return new TreeHash(new Hasher(params, publicKey.pubSeedRef(), skSeed, skPrf, resumeMidstates), derivation);
    }

    /** Overwrites the secret seeds; every later use of the key throws {@link IllegalStateException}. */
    @Override
    public void destroy() {
        destroyed = true;
        Secrets.wipe(skSeed, skPrf);
    }

    /** Whether {@link #destroy()} was called. */
    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    @Override
    public String toString() {
        return "XmssPrivateKey[" + params.setName() + ", " + derivation.cliName() + ", secrets hidden]";
    }
}
