package dev.pqsign.xmss;

/**
 * A tree built one leaf at a time (the TreeHash algorithm with its stack kept between calls), so the
 * next tree of a layer can be computed a little per signature instead of all at once when the index
 * crosses into it. Spreading the work is what keeps the slowest signature close to the median.
 */
final class IncrementalTree {
    final int layer;
    final long tree;
    private final int height;
    private final int n;
    private final HashAddress subtree;
    private final HashAddress node;
    private final StoredTree stored;
    private final byte[] stack;
    private final int[] heights;
    private int top;
    private int leavesDone;
    /** WOTS+ public key of the leaf being computed a few chains at a time, or null (whole leaves only). */
    private byte[] partialPk;

    private int chainsDone;

    IncrementalTree(int layer, long tree, int height, int n) {
        this.layer = layer;
        this.tree = tree;
        this.height = height;
        this.n = n;
        this.subtree = new HashAddress().setLayer(layer).setTree(tree);
        this.node = HashAddress.of(subtree, HashAddress.TYPE_HASH_TREE);
        this.stored = new StoredTree(n, height, 0);
        this.stack = new byte[(height + 1) * n];
        this.heights = new int[height + 1];
    }

    int leavesDone() {
        return leavesDone;
    }

    /** Work done in WOTS+ chains: len per finished leaf plus the chains of the leaf in progress. */
    long chainsDone(int len) {
        return (long) leavesDone * len + chainsDone;
    }

    boolean isComplete() {
        return leavesDone == (1 << height);
    }

    /** The finished tree; only valid once {@link #isComplete()}. */
    StoredTree result() {
        if (!isComplete()) {
            throw new IllegalStateException("tree (" + layer + ", " + tree + ") is not complete");
        }
        return stored;
    }

    /**
     * Computes the next leaf and every parent it completes, keeping the leaf's WOTS+ chain values in
     * {@code keep} when not {@code null}.
     */
    void step(TreeHash th, WotsChains keep) {
        if (chainsDone != 0) {
            throw new IllegalStateException("a leaf of tree (" + layer + ", " + tree + ") is half done");
        }
        th.leaf(subtree, leavesDone, stack, top * n, keep);
        push(th);
    }

    /**
     * Computes one WOTS+ chain of the next leaf, and when that was the leaf's last chain the leaf
     * itself (its L-tree) and every parent it completes. Spreads an upper layer's leaf, which would
     * otherwise double the cost of the one signature that computes it, over many signatures.
     */
    void stepChain(TreeHash th) {
        int len = th.hasher.params.wotsLen();
        if (partialPk == null) {
            partialPk = new byte[len * n];
        }
        th.leafChain(subtree, leavesDone, chainsDone, partialPk);
        if (++chainsDone == len) {
            chainsDone = 0;
            th.leafFromPublicKey(subtree, leavesDone, partialPk, stack, top * n);
            push(th);
        }
    }

    /** Stores the leaf just written on top of the stack and merges the parents it completes. */
    private void push(TreeHash th) {
        int leaf = leavesDone;
        stored.store(0, leaf, stack, top * n);
        heights[top++] = 0;
        while (top >= 2 && heights[top - 1] == heights[top - 2]) {
            int h = heights[top - 1];
            th.parent(node, h, leaf >>> (h + 1), stack, (top - 2) * n, stack, (top - 2) * n);
            heights[top - 2] = h + 1;
            top--;
            stored.store(h + 1, leaf >>> (h + 1), stack, top * n - n);
        }
        leavesDone++;
    }
}
