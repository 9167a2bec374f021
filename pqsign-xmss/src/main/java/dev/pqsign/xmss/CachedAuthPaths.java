package dev.pqsign.xmss;

/**
 * Keeps, for every layer, the nodes of the tree the current index lives in, so that an
 * authentication path is a copy instead of a recomputation. A tree is rebuilt only when the index
 * moves into the next tree of that layer (every 2^(h/d) signatures on layer 0).
 *
 * <p>Trees up to height 16 are kept whole. For taller ones (XMSS-SHA2_20_256) only heights
 * ≥ h/d - 16 are kept (4 MiB for n = 32) plus the fully stored bottom block around the current leaf,
 * rebuilt when the index leaves that block.
 *
 * <p>Nodes are public values; this class holds no secrets itself. Not thread-safe.
 */
final class CachedAuthPaths implements AuthPathSource {
    private static final int MAX_FULL_HEIGHT = 16;

    private final XmssPrivateKey key;
    private final TreeHash local;
    private final int threads;
    private final int n;
    private final int treeHeight;
    private final int minStored;
    private final long[] treeIndex;
    private final StoredTree[] trees;
    private final int[] blockIndex;
    private final StoredTree[] blocks;
    private long rebuiltLeaves;

    CachedAuthPaths(XmssPrivateKey key, TreeHash local, int threads) {
        this.key = key;
        this.local = local;
        this.threads = Math.max(1, threads);
        XmssParameterSet p = key.parameterSet();
        this.n = p.n();
        this.treeHeight = p.treeHeight();
        this.minStored = Math.max(0, treeHeight - MAX_FULL_HEIGHT);
        int d = p.layers();
        this.treeIndex = new long[d];
        this.trees = new StoredTree[d];
        this.blockIndex = new int[d];
        this.blocks = new StoredTree[d];
        java.util.Arrays.fill(treeIndex, -1);
        java.util.Arrays.fill(blockIndex, -1);
    }

    /** Builds the trees every layer needs for signing at {@code idx} (done when a key is loaded). */
    void prepare(long idx) {
        long rest = idx;
        for (int layer = 0; layer < trees.length; layer++) {
            int leaf = (int) (rest & ((1L << treeHeight) - 1));
            rest >>>= treeHeight;
            ensure(layer, rest, leaf);
        }
    }

    /** Leaves hashed for cache (re)builds so far; a measure of the work signing had to redo. */
    long rebuiltLeaves() {
        return rebuiltLeaves;
    }

    private void ensure(int layer, long tree, int leaf) {
        HashAddress subtree = new HashAddress().setLayer(layer).setTree(tree);
        if (treeIndex[layer] != tree) {
            trees[layer] = null;
            trees[layer] = TreeBuilder.build(local, key::newTreeHash, subtree, treeHeight, minStored, threads, null);
            treeIndex[layer] = tree;
            blockIndex[layer] = -1;
            rebuiltLeaves += 1L << treeHeight;
        }
        if (minStored > 0) {
            int block = leaf >>> minStored;
            if (blockIndex[layer] != block) {
                StoredTree b = new StoredTree(n, minStored, 0, block << minStored);
                byte[] top = new byte[n];
                local.node(subtree, minStored, block, top, 0, b);
                blocks[layer] = b;
                blockIndex[layer] = block;
                rebuiltLeaves += 1L << minStored;
            }
        }
    }

    @Override
    public void authPath(int layer, long tree, int leaf, byte[] out, int off, byte[] root) {
        ensure(layer, tree, leaf);
        StoredTree t = trees[layer];
        for (int k = 0; k < treeHeight; k++) {
            int sibling = (leaf >>> k) ^ 1;
            if (k < minStored) {
                blocks[layer].read(k, sibling, out, off);
            } else {
                t.read(k, sibling, out, off);
            }
            off += n;
        }
        t.read(treeHeight, 0, root, 0);
    }
}
