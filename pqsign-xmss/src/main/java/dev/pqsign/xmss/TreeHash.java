package dev.pqsign.xmss;

/**
 * Leaves and inner nodes of one XMSS tree (RFC 8391 sections 4.1.6 and 4.1.9): leaf i is the L-tree
 * compression of WOTS+ key pair i; node (height k, index j) is RAND_HASH of its two children.
 *
 * <p>One instance per thread; it owns its {@link Hasher}, {@link Wots} and scratch buffers.
 */
final class TreeHash {
    final Hasher hasher;
    final Wots wots;
    private final LTree ltree;
    private final int n;
    private final byte[] wotsPk;
    private final byte[] pair;

    TreeHash(Hasher hasher, WotsDerivation derivation) {
        this.hasher = hasher;
        this.wots = new Wots(hasher, derivation);
        this.ltree = new LTree(hasher);
        this.n = hasher.n;
        this.wotsPk = new byte[hasher.params.wotsSignatureBytes()];
        this.pair = new byte[2 * n];
    }

    /** Leaf {@code index} of the tree at {@code subtree} (layer and tree address set), into out[off..). */
    void leaf(HashAddress subtree, int index, byte[] out, int off) {
        leaf(subtree, index, out, off, null);
    }

    /** As {@link #leaf(HashAddress, int, byte[], int)}, keeping the key pair's chain values in {@code keep} if not null. */
    void leaf(HashAddress subtree, int index, byte[] out, int off, WotsChains keep) {
        HashAddress ots = HashAddress.of(subtree, HashAddress.TYPE_OTS).setOts(index);
        wots.publicKey(ots, wotsPk, keep, index);
        HashAddress lt = HashAddress.of(subtree, HashAddress.TYPE_LTREE).setLTree(index);
        ltree.compress(wotsPk, lt, out, off);
    }

    /**
     * Element {@code chain} of the WOTS+ public key of leaf {@code index}, into {@code pk[chain*n..)};
     * once all len elements are there, {@link #leafFromPublicKey} finishes the leaf.
     */
    void leafChain(HashAddress subtree, int index, int chain, byte[] pk) {
        wots.publicKeyChain(HashAddress.of(subtree, HashAddress.TYPE_OTS).setOts(index), chain, pk);
    }

    /** Leaf {@code index} from its complete WOTS+ public key {@code pk} (the L-tree), into out[off..). */
    void leafFromPublicKey(HashAddress subtree, int index, byte[] pk, byte[] out, int off) {
        ltree.compress(pk, HashAddress.of(subtree, HashAddress.TYPE_LTREE).setLTree(index), out, off);
    }

    /** Parent of {@code in[inOff..inOff+2n)} = left || right at (height of children, parent index). */
    void parent(HashAddress node, int childHeight, int parentIndex, byte[] in, int inOff, byte[] out, int outOff) {
        node.setTreeHeight(childHeight).setTreeIndex(parentIndex);
        hasher.randHash(in, inOff, out, outOff, node);
    }

    /**
     * Computes node (height, index) of the tree at {@code subtree} with the stack-based TreeHash
     * algorithm, i.e. from its 2^height leaves, into {@code out[off..off+n)}.
     */
    void node(HashAddress subtree, int height, int index, byte[] out, int off) {
        node(subtree, height, index, out, off, null);
    }

    /**
     * As {@link #node(HashAddress, int, int, byte[], int)}, also storing every node it passes whose
     * height is at least {@code sink.minHeight()} into {@code sink} (when not {@code null}).
     */
    void node(HashAddress subtree, int height, int index, byte[] out, int off, StoredTree sink) {
        node(subtree, height, index, out, off, sink, null, 0);
    }

    /**
     * As {@link #node(HashAddress, int, int, byte[], int, StoredTree)}, also keeping the WOTS+ chain
     * values of key pairs {@code keepFrom} and up in {@code keep} (when not {@code null}); the key
     * pairs below are used already, so none of their values is stored.
     */
    void node(
            HashAddress subtree,
            int height,
            int index,
            byte[] out,
            int off,
            StoredTree sink,
            WotsChains keep,
            int keepFrom) {
        byte[] stack = new byte[(height + 1) * n];
        int[] heights = new int[height + 1];
        int top = 0;
        HashAddress node = HashAddress.of(subtree, HashAddress.TYPE_HASH_TREE);
        int first = index << height;
        int count = 1 << height;
        for (int i = 0; i < count; i++) {
            int leafIndex = first + i;
            leaf(subtree, leafIndex, stack, top * n, leafIndex >= keepFrom ? keep : null);
            if (sink != null) {
                sink.store(0, leafIndex, stack, top * n);
            }
            heights[top] = 0;
            top++;
            while (top >= 2 && heights[top - 1] == heights[top - 2]) {
                int h = heights[top - 1];
                parent(node, h, leafIndex >>> (h + 1), stack, (top - 2) * n, stack, (top - 2) * n);
                heights[top - 2] = h + 1;
                if (sink != null) {
                    sink.store(h + 1, leafIndex >>> (h + 1), stack, (top - 2) * n);
                }
                top--;
            }
        }
        System.arraycopy(stack, 0, out, off, n);
    }

    /** Combines a node with its sibling: writes the parent of (height k, index j) given both children. */
    void combine(
            HashAddress subtree,
            int childHeight,
            int childIndex,
            byte[] self,
            int selfOff,
            byte[] sibling,
            int sibOff,
            byte[] out,
            int outOff) {
        if ((childIndex & 1) == 0) {
            System.arraycopy(self, selfOff, pair, 0, n);
            System.arraycopy(sibling, sibOff, pair, n, n);
        } else {
            System.arraycopy(sibling, sibOff, pair, 0, n);
            System.arraycopy(self, selfOff, pair, n, n);
        }
        HashAddress node = HashAddress.of(subtree, HashAddress.TYPE_HASH_TREE);
        parent(node, childHeight, childIndex >>> 1, pair, 0, out, outOff);
    }
}
