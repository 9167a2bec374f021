package dev.pqsign.xmss;

import dev.pqsign.core.Secrets;
import dev.pqsign.core.Verifier;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Verifies XMSS / XMSS^MT signatures under one public key (RFC 8391 algorithms 14 and 17).
 *
 * <p>Thread-safe: each thread verifies with its own hashing context. Never throws on malformed
 * signatures: wrong length, an index of 2^h or more, or any altered byte gives {@code false}. The
 * final root comparison is constant-time.
 *
 * <p><b>Upper-layer cache</b> ({@link #withUpperLayerCache}, XMSS^MT only; off for
 * {@code new XmssVerifier(key)}). All signatures made under one bottom-layer tree carry the same
 * bytes for layers 1 … d−1 (the WOTS+ signatures of the tree roots above and their
 * authentication paths), and those layers' computation depends on nothing but those bytes, the
 * root computed for layer 0, the index's tree numbers and the public key. After a signature
 * verified <em>completely</em>, the verifier remembers (bottom tree number, computed layer-0 root,
 * upper-layer bytes); a later signature for which all three are equal gets the same result as a
 * full verification without recomputing the upper layers. Anything else (any other byte, another
 * root, another tree) is verified in full, and nothing is remembered from a signature that failed.
 * Each cache belongs to one verifier, i.e. one public key. A stream of signatures from one signer
 * hits 2^(h/d) − 1 times out of 2^(h/d), saving (d−1)/d of the hash work of those verifications.
 * The data involved is all public (signatures and the public key), so the comparisons need not
 * be constant-time.
 *
 * <pre>{@code
 * XmssVerifier v = new XmssVerifier(XmssPublicKey.decode(XmssParameterSet.Family.XMSSMT, pubBytes));
 * boolean ok = v.verify(message, signature);
 * }</pre>
 */
public final class XmssVerifier implements Verifier {
    /** Entries of the cache made by {@link #withUpperLayerCache(XmssPublicKey)}. */
    public static final int DEFAULT_CACHE_ENTRIES = 4;

    private final XmssPublicKey publicKey;
    private final ThreadLocal<Context> contexts;
    /** Verified upper layers, direct-mapped by bottom tree number; null: no cache. */
    private final AtomicReferenceArray<Upper> cache;

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /**
     * A verifier that recomputes every layer of every signature (no cache).
     *
     * @param publicKey the key signatures are checked against
     * @throws NullPointerException if {@code publicKey} is {@code null}
     */
    public XmssVerifier(XmssPublicKey publicKey) {
        this(publicKey, 0);
    }

    private XmssVerifier(XmssPublicKey publicKey, int cacheEntries) {
        this.publicKey = Objects.requireNonNull(publicKey, "publicKey");
        this.cache = cacheEntries > 0 && publicKey.parameterSet().layers() > 1
                ? new AtomicReferenceArray<>(cacheEntries)
                : null;
        this.contexts = ThreadLocal.withInitial(() -> new Context(publicKey, this));
    }

    /**
     * A verifier that remembers the upper layers of the last {@value #DEFAULT_CACHE_ENTRIES}
     * bottom trees it verified completely (see the class description). For XMSS (one layer) it is
     * the same as {@code new XmssVerifier(key)}.
     *
     * @param publicKey the key signatures are checked against
     * @return the verifier
     */
    public static XmssVerifier withUpperLayerCache(XmssPublicKey publicKey) {
        return withUpperLayerCache(publicKey, DEFAULT_CACHE_ENTRIES);
    }

    /**
     * Like {@link #withUpperLayerCache(XmssPublicKey)} with {@code entries} entries (1 … 1024); a
     * signer's stream needs one, several interleaved signers sharing one key need one each.
     *
     * @param publicKey the key signatures are checked against
     * @param entries the number of bottom trees remembered, 1 … 1024
     * @return the verifier
     * @throws IllegalArgumentException if {@code entries} is outside 1 … 1024
     */
    public static XmssVerifier withUpperLayerCache(XmssPublicKey publicKey, int entries) {
        if (entries < 1 || entries > 1024) {
            throw new IllegalArgumentException("cache entries must be 1 .. 1024, got " + entries);
        }
        return new XmssVerifier(publicKey, entries);
    }

    /**
     * Whether this verifier caches upper layers.
     *
     * @return true for an XMSS^MT key and a verifier built with a cache
     */
    public boolean cachesUpperLayers() {
        return cache != null;
    }

    /**
     * Verifications whose upper layers were taken from the cache.
     *
     * @return the hit count since the verifier was made
     */
    public long cacheHits() {
        return hits.sum();
    }

    /**
     * Verifications of a caching verifier that computed the upper layers (signature valid or not).
     *
     * @return the miss count since the verifier was made
     */
    public long cacheMisses() {
        return misses.sum();
    }

    /** One verified bottom tree: its number, the layer-0 root computed for it, the upper-layer bytes. */
    record Upper(long tree, byte[] root, byte[] bytes) {}

    /**
     * Whether a completely verified entry {@code u} stands for the upper layers of {@code sig}: the
     * same bottom tree number (it fixes every upper layer's tree and leaf, i.e. the hash addresses),
     * the same computed layer-0 root (the message the layer-1 WOTS+ signature must sign), and the
     * same bytes from {@code upperStart} to the end of the signature.
     */
    static boolean coversUpperLayers(Upper u, long tree0, byte[] root0, byte[] sig, int upperStart) {
        return u != null
                && u.tree() == tree0
                && Arrays.equals(u.root(), root0)
                && Arrays.equals(sig, upperStart, sig.length, u.bytes(), 0, u.bytes().length);
    }

    /**
     * The key this verifier checks signatures against.
     *
     * @return the public key
     */
    public XmssPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public XmssParameterSet parameterSet() {
        return publicKey.parameterSet();
    }

    @Override
    public boolean verify(byte[] message, byte[] signature) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(signature, "signature");
        XmssParameterSet p = publicKey.parameterSet();
        if (signature.length != p.signatureBytes()) {
            return false;
        }
        long idx = XmssSignatures.index(p, signature);
        if (idx < 0) {
            return false;
        }
        return contexts.get().verify(idx, message, signature);
    }

    /** Per-thread buffers and hashing state for one public key. */
    private static final class Context {
        private final XmssPublicKey pk;
        private final XmssParameterSet p;
        private final Hasher hasher;
        private final Wots wots;
        private final LTree ltree;
        private final byte[] node;
        private final byte[] wotsPk;
        private final byte[] pair;
        private final byte[] root0;
        private final XmssVerifier owner;

        Context(XmssPublicKey pk, XmssVerifier owner) {
            this.pk = pk;
            this.p = pk.parameterSet();
            this.hasher = new Hasher(p, pk.pubSeedRef(), null, null);
            this.wots = new Wots(hasher, WotsDerivation.SP800_208);
            this.ltree = new LTree(hasher);
            this.node = new byte[p.n()];
            this.wotsPk = new byte[p.wotsSignatureBytes()];
            this.pair = new byte[2 * p.n()];
            this.root0 = new byte[p.n()];
            this.owner = owner;
        }

        boolean verify(long idx, byte[] msg, byte[] sig) {
            int n = p.n();
            int ib = p.indexBytes();
            int treeHeight = p.treeHeight();
            hasher.hashMessage(sig, ib, pk.rootRef(), idx, msg, node, 0);
            int off = ib + n;
            long rest = idx;
            AtomicReferenceArray<Upper> cache = owner.cache;
            long tree0 = idx >>> treeHeight;
            int upperStart = off + p.wotsSignatureBytes() + treeHeight * n;
            for (int layer = 0; layer < p.layers(); layer++) {
                if (layer == 1 && cache != null) {
                    Upper u = cache.get((int) Long.remainderUnsigned(tree0, cache.length()));
                    if (coversUpperLayers(u, tree0, node, sig, upperStart)) {
                        owner.hits.increment();
                        return true; // layers 1 .. d-1 are exactly those of a complete, valid verification
                    }
                    owner.misses.increment();
                    System.arraycopy(node, 0, root0, 0, n);
                }
                int leaf = (int) (rest & ((1L << treeHeight) - 1));
                rest >>>= treeHeight;
                HashAddress subtree = new HashAddress().setLayer(layer).setTree(rest);
                HashAddress ots = HashAddress.of(subtree, HashAddress.TYPE_OTS).setOts(leaf);
                wots.publicKeyFromSignature(sig, off, node, 0, ots, wotsPk);
                off += p.wotsSignatureBytes();
                HashAddress lt = HashAddress.of(subtree, HashAddress.TYPE_LTREE).setLTree(leaf);
                ltree.compress(wotsPk, lt, node, 0);
                HashAddress hashTree = HashAddress.of(subtree, HashAddress.TYPE_HASH_TREE);
                for (int k = 0; k < treeHeight; k++) {
                    int index = leaf >>> k;
                    if ((index & 1) == 0) {
                        System.arraycopy(node, 0, pair, 0, n);
                        System.arraycopy(sig, off, pair, n, n);
                    } else {
                        System.arraycopy(sig, off, pair, 0, n);
                        System.arraycopy(node, 0, pair, n, n);
                    }
                    hashTree.setTreeHeight(k).setTreeIndex(index >>> 1);
                    hasher.randHash(pair, 0, node, 0, hashTree);
                    off += n;
                }
            }
            boolean valid = Secrets.constantTimeEquals(node, pk.rootRef());
            if (valid && cache != null) {
                cache.set(
                        (int) Long.remainderUnsigned(tree0, cache.length()),
                        new Upper(tree0, root0.clone(), Arrays.copyOfRange(sig, upperStart, sig.length)));
            }
            return valid;
        }
    }
}
