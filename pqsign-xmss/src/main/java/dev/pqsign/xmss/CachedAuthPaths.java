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
    /** Per layer: the next tree, built a few leaves per signature (only when trees are stored whole). */
    private final IncrementalTree[] next;

    private final int len;
    private long rebuiltLeaves;
    private long precomputedLeaves;
    private long precomputedChains;
    private long keptSignatures;
    /**
     * Layer 0 only, when enabled: the chain values of the tree in use ({@code currentChains}) and of
     * the next one as its leaves are computed ({@code nextChains}). Two tables, swapped at each tree
     * roll-over and reused, so keeping them allocates nothing per signature.
     */
    private WotsChains currentChains;

    private WotsChains nextChains;

    CachedAuthPaths(XmssPrivateKey key, TreeHash local, int threads) {
        this(key, local, threads, false);
    }

    /**
     * @param keepChains keep the bottom layer's WOTS+ chain values while computing next trees' leaves,
     *        and those of the unused key pairs of the tree built when the key is loaded, so that
     *        signing copies instead of hashing ({@link WotsChains}; about 1 MiB per table, two
     *        tables, only for trees small enough and only when next trees are built incrementally)
     */
    CachedAuthPaths(XmssPrivateKey key, TreeHash local, int threads, boolean keepChains) {
        this.key = key;
        this.local = local;
        this.threads = Math.max(1, threads);
        XmssParameterSet p = key.parameterSet();
        this.n = p.n();
        this.treeHeight = p.treeHeight();
        this.minStored = Math.max(0, treeHeight - MAX_FULL_HEIGHT);
        this.len = p.wotsLen();
        int d = p.layers();
        this.treeIndex = new long[d];
        this.trees = new StoredTree[d];
        this.blockIndex = new int[d];
        this.blocks = new StoredTree[d];
        this.next = new IncrementalTree[d];
        java.util.Arrays.fill(treeIndex, -1);
        java.util.Arrays.fill(blockIndex, -1);
        if (keepChains && d > 1 && minStored == 0) {
            this.currentChains = WotsChains.forParameters(p);
            this.nextChains = currentChains == null ? null : WotsChains.forParameters(p);
        }
    }

    /**
     * Builds the trees every layer needs for signing at {@code idx} (done when a key is loaded), and
     * brings the next trees to where the per-signature schedule would have them.
     */
    void prepare(long idx, long endIndex) {
        buildLayersInParallel(idx);
        long rest = idx;
        for (int layer = 0; layer < trees.length; layer++) {
            int leaf = (int) (rest & ((1L << treeHeight) - 1));
            rest >>>= treeHeight;
            ensure(layer, rest, leaf);
        }
        if (idx > 0) {
            afterSign(idx - 1, endIndex);
        }
    }

    /**
     * The trees of the different layers are independent, so a key with several layers builds them
     * side by side when it is opened (each thread with its own hashing context); key load then costs
     * about one tree instead of d. Trees too tall to keep whole are left to {@link #ensure}.
     */
    private void buildLayersInParallel(long idx) {
        int d = trees.length;
        if (threads <= 1 || d <= 1 || minStored > 0) {
            return;
        }
        java.util.concurrent.ExecutorService pool =
                java.util.concurrent.Executors.newFixedThreadPool(Math.min(threads, d), r -> {
                    Thread t = new Thread(r, "xmss-key-load");
                    t.setDaemon(true);
                    return t;
                });
        try {
            java.util.List<java.util.concurrent.Future<StoredTree>> built = new java.util.ArrayList<>();
            long rest = idx;
            long[] index = new long[d];
            for (int layer = 0; layer < d; layer++) {
                int leaf = (int) (rest & ((1L << treeHeight) - 1));
                rest >>>= treeHeight;
                index[layer] = rest;
                HashAddress subtree = new HashAddress().setLayer(layer).setTree(rest);
                if (layer == 0 && currentChains != null) {
                    // As in ensure(): the unused key pairs of the bottom tree keep their chain values.
                    currentChains.reset(rest);
                    built.add(pool.submit(
                            () -> TreeBuilder.buildKeepingChains(key, subtree, treeHeight, currentChains, leaf)));
                } else {
                    built.add(pool.submit(() -> TreeBuilder.build(key, subtree, treeHeight, 0, 1, null)));
                }
            }
            for (int layer = 0; layer < d; layer++) {
                trees[layer] = built.get(layer).get();
                treeIndex[layer] = index[layer];
                rebuiltLeaves += 1L << treeHeight;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("key load interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("key load failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Advances the next tree of every layer so that it is complete exactly when the index leaves the
     * current tree: after the k-th of the P signatures a tree of layer i spans (P = 2^((i+1)·h/d)),
     * about k · 2^(h/d) / P of the next tree's leaves are done. On layer 0 that is one leaf per
     * signature; upper layers advance by WOTS+ chains (about two per signature on layer 1, fewer
     * higher up), so no signature computes more than its bottom leaf and a few chains.
     *
     * @param signed the index just used
     * @param endIndex the key's exclusive end index (trees beyond it are never needed)
     */
    void afterSign(long signed, long endIndex) {
        if (minStored > 0) {
            return;
        }
        long leaves = 1L << treeHeight;
        for (int layer = 0; layer < trees.length - 1; layer++) {
            int shift = treeHeight * (layer + 1);
            long period = 1L << shift;
            long nextTree = (signed >>> shift) + 1;
            if ((nextTree << shift) >= endIndex) {
                continue;
            }
            IncrementalTree b = next[layer];
            WotsChains keep = layer == 0 ? nextChains : null;
            if (b == null || b.tree != nextTree) {
                b = new IncrementalTree(layer, nextTree, treeHeight, n);
                next[layer] = b;
                if (keep != null) {
                    keep.reset(nextTree);
                }
            }
            long done = (signed & (period - 1)) + 1;
            long every = period / leaves;
            if (layer == 0) {
                // One leaf per signature, its chain values kept for signing with it.
                while (b.leavesDone() < done) {
                    b.step(local, keep);
                    precomputedLeaves++;
                }
                continue;
            }
            // Layer i > 0 needs a leaf every `every` = 2^(i*h/d) signatures. Computed whole, that
            // leaf would double one signature's cost (about 6,800 compressions on top of a median
            // of 6,800 with kept chains); in WOTS+ chains it is len / every chains per signature
            // (about 2 on layer 1), rounded up so the tree is complete when the index reaches it.
            long target = Math.min(leaves * len, (done * len + every - 1) / every);
            while (b.chainsDone(len) < target) {
                int before = b.leavesDone();
                b.stepChain(local);
                precomputedChains++;
                precomputedLeaves += b.leavesDone() - before;
            }
        }
    }

    /** WOTS+ chains computed ahead of time for upper layers' next trees (their leaves are spread out). */
    long precomputedChains() {
        return precomputedChains;
    }

    /** Leaves computed ahead of time for next trees. */
    long precomputedLeaves() {
        return precomputedLeaves;
    }

    /** Leaves hashed for cache (re)builds so far; a measure of the work signing had to redo. */
    long rebuiltLeaves() {
        return rebuiltLeaves;
    }

    private void ensure(int layer, long tree, int leaf) {
        HashAddress subtree = new HashAddress().setLayer(layer).setTree(tree);
        if (treeIndex[layer] != tree) {
            trees[layer] = null;
            IncrementalTree b = next[layer];
            if (layer == 0 && currentChains != null) {
                // The tree in use is left: its unused key pairs' values go, and its table is
                // handed to the next tree to come; the completed next tree's table becomes current.
                WotsChains retired = currentChains;
                retired.wipe();
                currentChains = nextChains;
                nextChains = retired;
            }
            if (b != null && b.tree == tree && b.isComplete()) {
                trees[layer] = b.result();
            } else if (layer == 0 && currentChains != null) {
                // Built whole (the tree in use when the key is opened, unless built beside the upper
                // layers): its key pairs from `leaf` on, the ones still to sign, keep their chain
                // values like a tree built leaf by leaf, so the first tree after opening signs by
                // copying too; the used ones keep none.
                currentChains.reset(tree);
                trees[layer] = TreeBuilder.buildKeepingChains(key, subtree, treeHeight, currentChains, leaf);
                rebuiltLeaves += 1L << treeHeight;
            } else {
                // Not with `local`: whole-tree builds resume PRF mid-states (see TreeBuilder).
                trees[layer] = TreeBuilder.build(key, subtree, treeHeight, minStored, threads, null);
                rebuiltLeaves += 1L << treeHeight;
            }
            next[layer] = null;
            treeIndex[layer] = tree;
            blockIndex[layer] = -1;
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
    public WotsChains chains(int layer, long tree, int leaf) {
        if (layer != 0 || currentChains == null) {
            return null;
        }
        ensure(layer, tree, leaf);
        if (currentChains.tree() == tree && currentChains.has(leaf)) {
            keptSignatures++;
            return currentChains;
        }
        return null;
    }

    /** Bottom-layer WOTS+ signatures made from kept chain values instead of hashing. */
    long keptSignatures() {
        return keptSignatures;
    }

    /** Wipes the kept chain values (they are secret); the cache keeps working, hashing again. */
    void wipe() {
        if (currentChains != null) {
            currentChains.wipe();
            nextChains.wipe();
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
