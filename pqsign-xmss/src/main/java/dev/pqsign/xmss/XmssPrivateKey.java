package dev.pqsign.xmss;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;

/**
 * The secret material of an XMSS / XMSS^MT key: SK_SEED, SK_PRF, PUB_SEED, the root, the parameter
 * set and the WOTS+ derivation. It carries no index: which indices may still be used is the
 * business of the persisted key state ({@link XmssKeyState}), never of this value.
 *
 * <p>{@link #toString()} never shows secrets. {@link #destroy()} wipes the seeds.
 */
public final class XmssPrivateKey {
    private final XmssParameterSet params;
    private final WotsDerivation derivation;
    private final byte[] skSeed;
    private final byte[] skPrf;
    private final XmssPublicKey publicKey;

    XmssPrivateKey(XmssParameterSet params, WotsDerivation derivation, byte[] skSeed, byte[] skPrf, byte[] pubSeed,
            byte[] root) {
        int n = params.n();
        if (skSeed.length != n || skPrf.length != n) {
            throw new KeyFormatException(params.setName() + " private key needs " + n + "-byte seeds");
        }
        this.params = params;
        this.derivation = derivation;
        this.skSeed = skSeed.clone();
        this.skPrf = skPrf.clone();
        this.publicKey = new XmssPublicKey(params, root, pubSeed);
    }

    public XmssParameterSet parameterSet() {
        return params;
    }

    public WotsDerivation derivation() {
        return derivation;
    }

    public XmssPublicKey publicKey() {
        return publicKey;
    }

    byte[] skSeed() {
        return skSeed;
    }

    byte[] skPrf() {
        return skPrf;
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
        return new TreeHash(new Hasher(params, publicKey.pubSeedRef(), skSeed, skPrf, resumeMidstates), derivation);
    }

    /** Overwrites the secret seeds; the key is unusable afterwards. */
    public void destroy() {
        Secrets.wipe(skSeed, skPrf);
    }

    @Override
    public String toString() {
        return "XmssPrivateKey[" + params.setName() + ", " + derivation.cliName() + ", secrets hidden]";
    }
}
