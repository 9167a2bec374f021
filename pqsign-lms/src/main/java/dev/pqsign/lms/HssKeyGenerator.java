package dev.pqsign.lms;

import dev.pqsign.core.Secrets;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Creates HSS keys (RFC 8554 sections 5.2 and 6.1, with the pseudorandom keys of Appendix A and
 * SP 800-208): a random n-byte SEED and 16-byte I for the top tree, then the top tree's root. The
 * trees below are derived from the top one when the key signs, so the key is two values. The top
 * tree's 2^h leaves are spread over {@code threads} threads and reported through {@code progress}
 * (cumulative leaves done).
 *
 * <pre>{@code
 * HssParameterSet params = HssParameterSet.byName("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4").orElseThrow();
 * HssPrivateKey key = HssKeyGenerator.generate(params);
 * byte[] pub = key.publicKey().encoded();
 * }</pre>
 */
public final class HssKeyGenerator {
    private HssKeyGenerator() {}

    /**
     * A new key from a {@link SecureRandom}, on all available cores.
     *
     * @param params the hierarchy
     * @return the new private key
     * @throws IllegalArgumentException if pqsign cannot sign with {@code params}
     *     ({@link HssParameterSet#isSignable()})
     */
    public static HssPrivateKey generate(HssParameterSet params) {
        return generate(params, new SecureRandom(), Runtime.getRuntime().availableProcessors(), null);
    }

    /**
     * A new key whose SEED and I are drawn from {@code random}.
     *
     * @param params the hierarchy
     * @param random the source of SEED and I
     * @param threads how many threads build the top tree; values below 1 mean 1
     * @param progress receives the cumulative number of top-tree leaves done, or {@code null}
     * @return the new private key
     * @throws IllegalArgumentException if pqsign cannot sign with {@code params}
     */
    public static HssPrivateKey generate(
            HssParameterSet params, SecureRandom random, int threads, LongConsumer progress) {
        byte[] seed = new byte[params.top().n()];
        byte[] id = new byte[LmsPublicKey.ID_BYTES];
        random.nextBytes(seed);
        random.nextBytes(id);
        try {
            return fromSeed(params, seed, id, threads, progress);
        } finally {
            Secrets.wipe(seed);
        }
    }

    /**
     * The key with the given top-tree SEED and I (as RFC 8554 Appendix F and RFC 9858 Appendix A
     * publish them). For tests and reproducibility only: a key whose SEED is known to anyone else is
     * not secret.
     *
     * @param params the hierarchy
     * @param seed the top tree's SEED, n bytes; copied, not wiped
     * @param id the top tree's identifier I, 16 bytes
     * @param threads how many threads build the top tree; values below 1 mean 1
     * @param progress receives the cumulative number of top-tree leaves done, or {@code null}
     * @return the private key
     * @throws IllegalArgumentException if the lengths are wrong or pqsign cannot sign with
     *     {@code params}
     */
    public static HssPrivateKey fromSeed(
            HssParameterSet params, byte[] seed, byte[] id, int threads, LongConsumer progress) {
        Objects.requireNonNull(params, "params");
        params.whyNotSignable().ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        LmsParameterSet top = params.top();
        if (seed.length != top.n() || id.length != LmsPublicKey.ID_BYTES) {
            throw new IllegalArgumentException(params.setName() + " needs a " + top.n()
                    + "-byte SEED and a 16-byte I, got " + seed.length + " and " + id.length + " bytes");
        }
        TreeShape shape = TreeShape.of(top, HssSignerOptions.defaults().treeCacheBytes());
        StoredTree tree = TreeBuilder.build(shape, id, seed, 0, Math.max(1, threads), progress);
        try {
            HssPublicKey pub = new HssPublicKey(params.levels(), new LmsPublicKey(top, id, tree.root()));
            return new HssPrivateKey(params, seed, pub, false);
        } finally {
            tree.wipe();
        }
    }
}
