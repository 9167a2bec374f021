package dev.pqsign.xmss;

import dev.pqsign.core.Secrets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * Creates XMSS / XMSS^MT keys (RFC 8391 algorithms 10 and 15): three n-byte seeds, then the root of
 * the single top-layer tree. The top tree has 2^(h/d) leaves; for tall ones (XMSS-SHA2_20_256:
 * 2^20 leaves) the work is spread over {@code threads} threads and reported through
 * {@code progress} (cumulative leaves done).
 *
 * <p>Example:
 * <pre>{@code
 * XmssPrivateKey key = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_20_4_256);
 * byte[] pub = key.publicKey().encoded();
 * }</pre>
 */
public final class XmssKeyGenerator {
    private XmssKeyGenerator() {}

    /**
     * A new key from a {@link SecureRandom}, SP 800-208 derivation, all available cores.
     *
     * @param params the parameter set
     * @return the new private key
     */
    public static XmssPrivateKey generate(XmssParameterSet params) {
        return generate(
                params,
                WotsDerivation.SP800_208,
                new SecureRandom(),
                Runtime.getRuntime().availableProcessors(),
                null);
    }

    /**
     * A new key whose 3n seed bytes are drawn from {@code random}.
     *
     * @param params the parameter set
     * @param derivation how the WOTS+ secret keys are derived from SK_SEED
     * @param random the source of the seeds
     * @param threads how many threads build the top tree; values below 1 mean 1
     * @param progress receives the cumulative number of top-tree leaves done, or {@code null}
     * @return the new private key
     */
    public static XmssPrivateKey generate(
            XmssParameterSet params,
            WotsDerivation derivation,
            SecureRandom random,
            int threads,
            LongConsumer progress) {
        byte[] seed = new byte[3 * params.n()];
        random.nextBytes(seed);
        try {
            return fromSeed(params, derivation, seed, threads, progress);
        } finally {
            Secrets.wipe(seed);
        }
    }

    /**
     * A key from explicit seeds {@code SK_SEED || SK_PRF || PUB_SEED} (3n bytes), as the reference
     * implementation's {@code xmssmt_core_seed_keypair} takes them. For tests and reproducibility only:
     * a key whose seed is known to anyone else is not secret.
     *
     * @param params the parameter set
     * @param derivation how the WOTS+ secret keys are derived from SK_SEED
     * @param seed {@code SK_SEED || SK_PRF || PUB_SEED}, 3n bytes; copied, not wiped
     * @param threads how many threads build the top tree; values below 1 mean 1
     * @param progress receives the cumulative number of top-tree leaves done, or {@code null}
     * @return the new private key
     * @throws IllegalArgumentException if {@code seed} is not 3n bytes long
     */
    public static XmssPrivateKey fromSeed(
            XmssParameterSet params, WotsDerivation derivation, byte[] seed, int threads, LongConsumer progress) {
        int n = params.n();
        if (seed.length != 3 * n) {
            throw new IllegalArgumentException(
                    params.setName() + " seed must be 3n = " + 3 * n + " bytes, got " + seed.length);
        }
        byte[] skSeed = Arrays.copyOfRange(seed, 0, n);
        byte[] skPrf = Arrays.copyOfRange(seed, n, 2 * n);
        byte[] pubSeed = Arrays.copyOfRange(seed, 2 * n, 3 * n);
        try {
            // The root is not known yet: build a key with a placeholder root only to get its hashing context.
            XmssPrivateKey partial = new XmssPrivateKey(params, derivation, skSeed, skPrf, pubSeed, new byte[n]);
            HashAddress top = new HashAddress().setLayer(params.layers() - 1).setTree(0);
            StoredTree tree = TreeBuilder.build(
                    partial, top, params.treeHeight(), params.treeHeight(), Math.max(1, threads), progress);
            XmssPrivateKey key = new XmssPrivateKey(params, derivation, skSeed, skPrf, pubSeed, tree.root());
            partial.destroy();
            return key;
        } finally {
            Secrets.wipe(skSeed, skPrf);
        }
    }
}
