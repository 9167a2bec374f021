package dev.pqsign.lms;

import dev.pqsign.core.Secrets;
import javax.security.auth.Destroyable;

/**
 * The secret material of an HSS key: the hierarchy, the top tree's SEED and identifier I (every
 * lower tree's SEED and I are derived from them, see docs/formats/hss-state.md) and the public key.
 * It carries no index: which indices may still be used is the business of the persisted key state
 * ({@link HssKeyState}), never of this value.
 *
 * <p>{@link #toString()} never shows secrets. {@link #destroy()} wipes the SEED; from then on every
 * use of the key throws {@link IllegalStateException}. A key read from a key state remembers that
 * it was: it can never start a fresh state at index 0 again ({@link HssKeyState#fresh}).
 */
public final class HssPrivateKey implements Destroyable {
    private final HssParameterSet params;
    private final byte[] seed;
    private final HssPublicKey publicKey;
    private final boolean fromState;
    private volatile boolean destroyed;

    HssPrivateKey(HssParameterSet params, byte[] seed, HssPublicKey publicKey, boolean fromState) {
        if (seed.length != params.top().n()) {
            throw new IllegalArgumentException(
                    params.setName() + " needs a " + params.top().n() + "-byte SEED");
        }
        this.params = params;
        this.seed = seed.clone();
        this.publicKey = publicKey;
        this.fromState = fromState;
    }

    /**
     * The hierarchy (readable after {@link #destroy()}: it is not secret).
     *
     * @return the parameter set
     */
    public HssParameterSet parameterSet() {
        return params;
    }

    /**
     * The public key.
     *
     * @return the HSS public key
     * @throws IllegalStateException if the key was destroyed
     */
    public HssPublicKey publicKey() {
        checkNotDestroyed();
        return publicKey;
    }

    byte[] seed() {
        checkNotDestroyed();
        return seed;
    }

    byte[] id() {
        return publicKey.top().idRef();
    }

    boolean fromState() {
        return fromState;
    }

    void checkNotDestroyed() {
        if (destroyed) {
            throw new IllegalStateException("the " + params.setName() + " private key was destroyed (its SEED is "
                    + "wiped); load the key state again to use it");
        }
    }

    /** Overwrites the SEED; every later use of the key throws {@link IllegalStateException}. */
    @Override
    public void destroy() {
        destroyed = true;
        Secrets.wipe(seed);
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    @Override
    public String toString() {
        return "HssPrivateKey[" + params.setName() + ", secrets hidden]";
    }
}
