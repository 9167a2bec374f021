package dev.pqsign.xmss;

import dev.pqsign.core.Secrets;
import dev.pqsign.core.SigningFaultException;

/**
 * Assembles an XMSS / XMSS^MT signature at a given index (RFC 8391 algorithms 12 and 16):
 * {@code idx || r || (WOTS+ signature || authentication path) per layer}. Which index may be used is
 * decided by the caller (the stateful signer); this class only computes.
 *
 * <p>Not thread-safe: one instance per thread (it owns a {@link TreeHash}).
 */
final class XmssSigning {
    private final XmssPrivateKey key;
    private final XmssParameterSet params;
    final TreeHash treeHash;
    private final byte[] node;
    private final byte[] wotsSk;
    /** Per layer ≥ 1: the (tree, leaf) whose WOTS+ signature and auth path are cached, or -1. */
    private final long[] segmentKey;

    private final byte[][] segment;
    private final byte[][] segmentRoot;
    private boolean cacheSegments;
    /** Verification of upper-layer segments before their first use (made when first needed). */
    private LTree checkTree;

    private byte[] checkPk;
    private byte[] checkNode;
    private byte[] checkPair;

    /** A signer that resumes PRF mid-states (fewest compressions; allocates per PRF call). */
    XmssSigning(XmssPrivateKey key) {
        this(key, true);
    }

    /** @param resumeMidstates see {@link Hasher#Hasher(XmssParameterSet, byte[], byte[], byte[], boolean)} */
    XmssSigning(XmssPrivateKey key, boolean resumeMidstates) {
        this.key = key;
        this.params = key.parameterSet();
        this.treeHash = key.newTreeHash(resumeMidstates);
        this.node = new byte[params.n()];
        this.wotsSk = new byte[params.wotsSignatureBytes()];
        int d = params.layers();
        this.segmentKey = new long[d];
        java.util.Arrays.fill(segmentKey, -1);
        this.segment = new byte[d][];
        this.segmentRoot = new byte[d][];
    }

    /**
     * Keeps the signature part of every layer above the bottom one: it only changes when the tree
     * below rolls over, so consecutive signatures reuse it (the hypertree's upper WOTS+ signatures
     * are the same for 2^(h/d) signatures in a row).
     */
    XmssSigning cachingUpperLayers() {
        this.cacheSegments = true;
        return this;
    }

    /** Signs {@code msg} at {@code idx} taking auth paths from {@code source}. */
    byte[] sign(long idx, byte[] msg, AuthPathSource source) {
        int n = params.n();
        int treeHeight = params.treeHeight();
        byte[] sig = new byte[params.signatureBytes()];
        int ib = params.indexBytes();
        for (int i = 0; i < ib; i++) {
            sig[ib - 1 - i] = (byte) (idx >>> (8 * i));
        }
        Hasher hasher = treeHash.hasher;
        hasher.prfMessageRandomness(idx, sig, ib);
        hasher.hashMessage(sig, ib, key.publicKey().rootRef(), idx, msg, node, 0);
        int off = ib + n;
        long rest = idx;
        for (int layer = 0; layer < params.layers(); layer++) {
            int leaf = (int) (rest & ((1L << treeHeight) - 1));
            rest >>>= treeHeight;
            off = signLayer(layer, rest, leaf, sig, off, source);
        }
        Secrets.wipe(wotsSk);
        return sig;
    }

    /**
     * Fills the upper-layer cache for signing at {@code idx}: the WOTS+ signatures of the layers
     * above the bottom one sign tree roots, not messages, and are part of every signature made in
     * the same bottom tree, so computing them when a key is loaded moves their cost out of the first
     * signature. Does nothing unless upper layers are cached.
     */
    void prepareUpperLayers(long idx, AuthPathSource source) {
        if (!cacheSegments || params.layers() == 1) {
            return;
        }
        int treeHeight = params.treeHeight();
        long mask = (1L << treeHeight) - 1;
        byte[] scratch = new byte[params.wotsSignatureBytes() + treeHeight * params.n()];
        int leaf = (int) (idx & mask);
        long rest = idx >>> treeHeight;
        source.authPath(0, rest, leaf, scratch, 0, node);
        for (int layer = 1; layer < params.layers(); layer++) {
            leaf = (int) (rest & mask);
            rest >>>= treeHeight;
            signLayer(layer, rest, leaf, scratch, 0, source);
        }
    }

    /** WOTS+ signs {@link #node} with the key pair (layer, tree, leaf), appends the auth path, advances node. */
    private int signLayer(int layer, long tree, int leaf, byte[] sig, int off, AuthPathSource source) {
        int segmentBytes = params.wotsSignatureBytes() + params.treeHeight() * params.n();
        long key = (tree << params.treeHeight()) | leaf;
        if (cacheSegments && layer > 0 && segmentKey[layer] == key) {
            System.arraycopy(segment[layer], 0, sig, off, segmentBytes);
            System.arraycopy(segmentRoot[layer], 0, node, 0, node.length);
            return off + segmentBytes;
        }
        int start = off;
        byte[] signed = cacheSegments && layer > 0 ? node.clone() : null;
        off = computeLayer(layer, tree, leaf, sig, off, source);
        if (cacheSegments && layer > 0) {
            // Computed once and kept for every signature of the trees below: verified before its
            // first use, so that a fault can never put a second, different WOTS+ signature of this
            // key pair into the world (docs/stateful-signing.md, "Fault hardening").
            if (!segmentVerifies(layer, tree, leaf, signed, sig, start, node)) {
                throw new SigningFaultException("the layer-" + layer + " WOTS+ signature of tree " + tree + ", leaf "
                        + leaf + " does not verify (computation fault); it was not used");
            }
            segment[layer] = java.util.Arrays.copyOfRange(sig, start, start + segmentBytes);
            segmentRoot[layer] = node.clone();
            segmentKey[layer] = key;
        }
        return off;
    }

    private int computeLayer(int layer, long tree, int leaf, byte[] sig, int off, AuthPathSource source) {
        WotsChains kept = source.chains(layer, tree, leaf);
        if (kept != null) {
            treeHash.wots.signFromChains(node, 0, kept, leaf, sig, off);
        } else {
            HashAddress ots = new HashAddress()
                    .setLayer(layer)
                    .setTree(tree)
                    .setType(HashAddress.TYPE_OTS)
                    .setOts(leaf);
            treeHash.wots.sign(node, 0, ots, sig, off, wotsSk);
        }
        off += params.wotsSignatureBytes();
        source.authPath(layer, tree, leaf, sig, off, node);
        return off + params.treeHeight() * params.n();
    }

    /**
     * Whether the WOTS+ signature and authentication path at {@code sig[off..]} of key pair
     * (layer, tree, leaf) on {@code signed} lead to {@code root}, as a verifier computes them
     * (RFC 8391 Algorithm 17, one layer).
     */
    private boolean segmentVerifies(int layer, long tree, int leaf, byte[] signed, byte[] sig, int off, byte[] root) {
        int n = params.n();
        if (checkTree == null) {
            checkTree = new LTree(treeHash.hasher);
            checkPk = new byte[params.wotsSignatureBytes()];
            checkNode = new byte[n];
            checkPair = new byte[2 * n];
        }
        HashAddress subtree = new HashAddress().setLayer(layer).setTree(tree);
        treeHash.wots.publicKeyFromSignature(
                sig,
                off,
                signed,
                0,
                HashAddress.of(subtree, HashAddress.TYPE_OTS).setOts(leaf),
                checkPk);
        checkTree.compress(
                checkPk, HashAddress.of(subtree, HashAddress.TYPE_LTREE).setLTree(leaf), checkNode, 0);
        HashAddress hashTree = HashAddress.of(subtree, HashAddress.TYPE_HASH_TREE);
        int path = off + params.wotsSignatureBytes();
        for (int k = 0; k < params.treeHeight(); k++) {
            int index = leaf >>> k;
            if ((index & 1) == 0) {
                System.arraycopy(checkNode, 0, checkPair, 0, n);
                System.arraycopy(sig, path + k * n, checkPair, n, n);
            } else {
                System.arraycopy(sig, path + k * n, checkPair, 0, n);
                System.arraycopy(checkNode, 0, checkPair, n, n);
            }
            hashTree.setTreeHeight(k).setTreeIndex(index >>> 1);
            treeHash.hasher.randHash(checkPair, 0, checkNode, 0, hashTree);
        }
        return Secrets.constantTimeEquals(checkNode, root);
    }

    /** Wipes the secret seeds this signing context holds. */
    void wipe() {
        treeHash.hasher.wipe();
        Secrets.wipe(wotsSk);
    }

    /** An auth-path source that recomputes each tree from scratch (the study's method; slow). */
    AuthPathSource recomputing(int threads) {
        return (layer, tree, leaf, out, off, root) -> {
            HashAddress subtree = new HashAddress().setLayer(layer).setTree(tree);
            StoredTree t =
                    TreeBuilder.build(treeHash, key::newTreeHash, subtree, params.treeHeight(), 0, threads, null);
            readAuthPath(t, leaf, out, off);
            t.read(t.height(), 0, root, 0);
        };
    }

    /** Copies the siblings of {@code leaf}'s path from a fully stored tree. */
    static void readAuthPath(StoredTree t, int leaf, byte[] out, int off) {
        for (int k = 0; k < t.height(); k++) {
            int sibling = (leaf >>> k) ^ 1;
            t.read(k, sibling, out, off);
            off += t.nodeBytes();
        }
    }
}
