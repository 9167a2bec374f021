package dev.pqsign.lms;

import dev.pqsign.core.Secrets;
import dev.pqsign.core.SigningFaultException;

/**
 * The trees of an HSS key in use and the signatures made from them (RFC 8554 sections 5.4 and
 * 6.2). For every level it keeps the tree the next index lives in ({@link StoredTree}), and for
 * every level below the top the signature of that tree's public key by the level above: it is the
 * same for every signature made under the tree, so it is computed once, verified, and copied into
 * each signature.
 *
 * <p>No signature waits for a tree: while a level's tree is in use, the next tree of that level is
 * built a few hash chains per signature ({@link LeafRange}), paced so that it is complete when the
 * index reaches it; when a tree keeps only the nodes of its current block of leaves
 * ({@link TreeShape}), the next block is rebuilt the same way and checked against the nodes above
 * it. Which index may be used is decided by the caller (the stateful signer); this class only
 * computes. Not thread-safe.
 */
final class HssSigning {
    private final HssPrivateKey key;
    private final HssParameterSet params;
    private final int levels;
    private final TreeShape[] shapes;
    /** Per level: log2 of the indices one tree of the level covers. */
    private final int[] treeShift;
    /** Per level: log2 of the indices one leaf of the level covers. */
    private final int[] leafShift;

    private final Level[] state;
    private final TreeHash[] hash;
    private final long endIndex;
    private final int threads;
    private final boolean verifyAfterSign;

    private static final class Level {
        StoredTree tree;
        long treeNumber = -1;
        /** Global number of the block in use (index >>> (leaf shift + k)). */
        long blockNumber = -1;
        /** The level above's LMS signature on this tree's public key, then the public key. */
        byte[] upper;

        Job nextTree;
        Job nextBlock;
    }

    /**
     * Work spread over the indices [windowStart, windowStart + 2^windowShift), paced by hash calls:
     * a next tree ({@code tree}, then its upper signature) or the nodes of a next block
     * ({@code block}, {@code blockNodes}).
     */
    private static final class Job {
        final LeafRange range;
        final int rangeUnitCost;
        final long windowStart;
        final int windowShift;
        final StoredTree tree;
        final int block;
        final byte[] blockNodes;
        /** For a next tree: the tree and leaf above that will sign it, and how to make the signature. */
        final LmsParameterSet parent;

        final byte[] parentId;
        final byte[] parentSeed;
        final int parentLeaf;
        UpperSignature upper;

        Job(
                LeafRange range,
                int rangeUnitCost,
                long windowStart,
                int windowShift,
                StoredTree tree,
                int block,
                byte[] blockNodes,
                LmsParameterSet parent,
                byte[][] parentIds,
                int parentLeaf) {
            this.range = range;
            this.rangeUnitCost = rangeUnitCost;
            this.windowStart = windowStart;
            this.windowShift = windowShift;
            this.tree = tree;
            this.block = block;
            this.blockNodes = blockNodes;
            this.parent = parent;
            this.parentId = parentIds == null ? null : parentIds[0];
            this.parentSeed = parentIds == null ? null : parentIds[1];
            this.parentLeaf = parentLeaf;
        }

        long cost() {
            long c = range.units() * rangeUnitCost;
            if (parent != null) {
                c += (long) (parent.otsType().p() + 1) << parent.otsType().w();
            }
            return c;
        }

        long costDone() {
            long c = range.unitsDone() * rangeUnitCost;
            if (upper != null) {
                c += (long) upper.unitsDone() * upper.unitCost();
            }
            return c;
        }

        boolean isDone() {
            return range.isDone() && (parent == null || (upper != null && upper.isDone()));
        }

        /** One unit: a chain of the tree, or once it is complete, a chain of its upper signature. */
        void step(TreeHash own, TreeHash above) {
            if (!range.isDone()) {
                range.step(own);
            } else if (parent != null) {
                if (upper == null) {
                    upper = new UpperSignature(parent, parentId, parentSeed, parentLeaf, tree.publicKeyBytes());
                }
                upper.step(above.ots);
            }
        }

        void wipe() {
            range.wipe();
            if (tree != null) {
                tree.wipe();
            }
            if (upper != null) {
                upper.wipe();
            }
            Secrets.wipe(parentSeed);
        }
    }

    HssSigning(HssPrivateKey key, long endIndex, long treeCacheBytes, int threads, boolean verifyAfterSign) {
        this.key = key;
        this.params = key.parameterSet();
        this.levels = params.levels();
        this.shapes = new TreeShape[levels];
        this.treeShift = new int[levels];
        this.leafShift = new int[levels];
        this.state = new Level[levels];
        this.hash = new TreeHash[levels];
        int shift = 0;
        for (int l = levels - 1; l >= 0; l--) {
            leafShift[l] = shift;
            shift += params.level(l).h();
            treeShift[l] = shift;
            shapes[l] = TreeShape.of(params.level(l), treeCacheBytes);
            hash[l] = new TreeHash(params.level(l));
            state[l] = new Level();
        }
        this.endIndex = endIndex;
        this.threads = Math.max(1, threads);
        this.verifyAfterSign = verifyAfterSign;
    }

    /** Leaf of level {@code l} that index {@code g} uses. */
    private int leaf(int l, long g) {
        return (int) ((g >>> leafShift[l]) & ((1L << params.level(l).h()) - 1));
    }

    private long tree(int l, long g) {
        return g >>> treeShift[l];
    }

    /**
     * Builds the trees index {@code g} needs (done when a key is opened), their upper signatures,
     * and brings every level's next tree and next block to where the per-signature schedule would
     * have them after index {@code g - 1}.
     */
    void prepare(long g) {
        prepareFrom(0, g);
    }

    /**
     * Moves to index {@code g} at or after the index the trees are prepared for (another signer of
     * the same key file used the indices in between): levels whose tree and block stay the same only
     * advance their jobs; from the first level that changes, the trees are rebuilt.
     */
    void moveTo(long g) {
        for (int l = 0; l < levels; l++) {
            StoredTree t = state[l].tree;
            int blockShift = leafShift[l] + shapes[l].k;
            if (t == null
                    || state[l].treeNumber != tree(l, g)
                    || (shapes[l].k > 0 && state[l].blockNumber != (g >>> blockShift))) {
                prepareFrom(l, g);
                return;
            }
            advance(l, state[l].nextTree, g);
            advance(l, state[l].nextBlock, g);
        }
    }

    private void prepareFrom(int from, long g) {
        for (int l = from; l < levels; l++) {
            wipeLevel(state[l]);
            state[l].treeNumber = tree(l, g);
            state[l].blockNumber = g >>> (leafShift[l] + shapes[l].k);
            byte[][] ids = TreeIds.of(params, key.id(), key.seed(), l, tree(l, g), hash[0].ots);
            TreeShape s = shapes[l];
            state[l].tree = TreeBuilder.build(s, ids[0], ids[1], leaf(l, g) >>> s.k, threads, null);
            Secrets.wipe(ids[1]);
            if (l == 0
                    && !Secrets.constantTimeEquals(
                            state[0].tree.root(), key.publicKey().top().rootRef())) {
                throw new SigningFaultException("the top tree rebuilt from the key state's SEED does not have the "
                        + "root of its public key (corrupt state or computation fault)");
            }
            if (l > 0) {
                state[l].upper = upperSignature(l, g);
            }
            state[l].nextTree = l > 0 ? nextTreeJob(l, g) : null;
            state[l].nextBlock = nextBlockJob(l, g);
            advance(l, state[l].nextTree, g);
            advance(l, state[l].nextBlock, g);
        }
    }

    /** The HSS signature of {@code msg} at index {@code g} (prepared by the last call's upkeep). */
    byte[] sign(long g, byte[] msg) {
        byte[] out = new byte[params.signatureBytes()];
        Bytes.putInt(out, 0, levels - 1);
        int off = 4;
        for (int l = 1; l < levels; l++) {
            byte[] u = state[l].upper;
            System.arraycopy(u, 0, out, off, u.length);
            off += u.length;
        }
        int bottom = levels - 1;
        lmsSign(bottom, leaf(bottom, g), msg, 0, msg.length, out, off);
        if (verifyAfterSign && !verifies(bottom, out, off, msg, 0, msg.length)) {
            throw new SigningFaultException("the " + params.level(bottom).setName() + " signature at index " + g
                    + " does not verify (computation fault); it was not released");
        }
        return out;
    }

    /** Writes the LMS signature of leaf {@code q} of level {@code l}'s tree on the message at {@code out[off..]}. */
    private void lmsSign(int l, int q, byte[] msg, int msgOff, int msgLen, byte[] out, int off) {
        StoredTree t = state[l].tree;
        LmsParameterSet p = params.level(l);
        byte[] c = TreeIds.randomizer(t.id, t.seed, q, hash[l].ots);
        Bytes.putInt(out, off, q);
        hash[l].ots.sign(t.id, q, t.seed, c, msg, msgOff, msgLen, out, off + 4);
        int at = off + 4 + p.otsType().signatureBytes();
        Bytes.putInt(out, at, p.lmsType().typeCode());
        t.authPath(q, out, at + 4);
    }

    /** Whether the LMS signature at {@code sig[off..]} by level {@code l}'s tree verifies against its root. */
    private boolean verifies(int l, byte[] sig, int off, byte[] msg, int msgOff, int msgLen) {
        byte[] computed = new byte[params.level(l).n()];
        StoredTree t = state[l].tree;
        return hash[l].candidateRoot(t.id, sig, off, msg, msgOff, msgLen, computed)
                && Secrets.constantTimeEquals(computed, t.root());
    }

    /** Level {@code l - 1}'s signature on level {@code l}'s tree at index {@code g}, verified before use. */
    private byte[] upperSignature(int l, long g) {
        StoredTree parent = state[l - 1].tree;
        UpperSignature u = new UpperSignature(
                params.level(l - 1), parent.id, parent.seed, leaf(l - 1, g), state[l].tree.publicKeyBytes());
        return u.finish(hash[l - 1], parent);
    }

    /**
     * The upkeep after index {@code g} was signed: advances every job by its share, and where
     * {@code g + 1} enters a new tree or block of a level, switches to it (top level first, so that a
     * new tree's upper signature is made by the parent's tree for {@code g + 1}).
     */
    void afterSign(long g) {
        long next = g + 1;
        if (next >= endIndex) {
            return;
        }
        for (int l = 0; l < levels; l++) {
            Level lv = state[l];
            advance(l, lv.nextTree, next);
            advance(l, lv.nextBlock, next);
            if (l > 0 && (next & ((1L << treeShift[l]) - 1)) == 0) {
                switchTree(l, next);
            } else if (shapes[l].k > 0 && (next & ((1L << (leafShift[l] + shapes[l].k)) - 1)) == 0) {
                switchBlock(l, next);
            }
        }
    }

    private void switchTree(int l, long g) {
        Level lv = state[l];
        Job job = lv.nextTree;
        if (job == null) {
            throw new IllegalStateException("level " + l + " has no next tree for index " + g);
        }
        while (!job.isDone()) {
            job.step(hash[l], hash[l - 1]);
        }
        byte[] upper = job.upper.finish(hash[l - 1], state[l - 1].tree);
        job.range.wipe();
        Secrets.wipe(job.parentSeed);
        lv.tree.wipe();
        lv.tree = job.tree;
        lv.treeNumber = tree(l, g);
        lv.blockNumber = g >>> (leafShift[l] + shapes[l].k);
        lv.upper = upper;
        lv.nextTree = nextTreeJob(l, g);
        lv.nextBlock = nextBlockJob(l, g);
    }

    private void switchBlock(int l, long g) {
        Level lv = state[l];
        Job job = lv.nextBlock;
        if (job == null) {
            throw new IllegalStateException("level " + l + " has no next block for index " + g);
        }
        while (!job.isDone()) {
            job.step(hash[l], null);
        }
        job.range.wipe();
        lv.tree.installBlock(job.block, job.blockNodes);
        lv.blockNumber = g >>> (leafShift[l] + shapes[l].k);
        lv.nextBlock = nextBlockJob(l, g);
    }

    /** Brings {@code job} to its share of the work (in hash calls) for the indices before {@code g}. */
    private void advance(int l, Job job, long g) {
        if (job == null) {
            return;
        }
        long done = g - job.windowStart;
        long cost = job.cost();
        // ceil(cost * done / 2^shift), exact in 128 bits
        long hi = Math.multiplyHigh(cost, done);
        long lo = cost * done;
        int s = job.windowShift;
        long target = s == 0 ? lo : (hi << (64 - s)) | (lo >>> s);
        if (s > 0 && (lo & ((1L << s) - 1)) != 0) {
            target++;
        }
        TreeHash above = l > 0 ? hash[l - 1] : null;
        while (job.costDone() < Math.min(target, cost) && !job.isDone()) {
            job.step(hash[l], above);
        }
    }

    /** The job building the level's tree after the one index {@code g} is in, or null if none is needed. */
    private Job nextTreeJob(int l, long g) {
        long current = tree(l, g);
        long nextStart = (current + 1) << treeShift[l];
        if (nextStart >= endIndex || nextStart <= 0) {
            return null;
        }
        byte[][] ids = TreeIds.of(params, key.id(), key.seed(), l, current + 1, hash[0].ots);
        TreeShape s = shapes[l];
        byte[] top = new byte[s.topBytes()];
        byte[] block = s.k == 0 ? null : new byte[s.blockBytes()];
        LeafRange r = new LeafRange(s, ids[0], ids[1], 0, s.h, top, false, 0, block);
        StoredTree result = new StoredTree(s, ids[0], ids[1], top, 0, block);
        // The tree above that signs it: the same one unless the next tree is the first child of the
        // parent's next tree.
        int parentHeight = params.level(l - 1).h();
        long parentTree = (current + 1) >>> parentHeight;
        int parentLeaf = (int) ((current + 1) & ((1L << parentHeight) - 1));
        byte[][] parentIds = TreeIds.of(params, key.id(), key.seed(), l - 1, parentTree, hash[0].ots);
        return new Job(
                r,
                1 << s.params.otsType().w(),
                current << treeShift[l],
                treeShift[l],
                result,
                0,
                null,
                params.level(l - 1),
                parentIds,
                parentLeaf);
    }

    /** The job rebuilding the block after the one index {@code g} uses, or null if none is needed. */
    private Job nextBlockJob(int l, long g) {
        TreeShape s = shapes[l];
        if (s.k == 0) {
            return null;
        }
        int blockShift = leafShift[l] + s.k;
        long block = g >>> blockShift;
        int inTree = (int) (block & (s.blocks() - 1));
        long nextStart = (block + 1) << blockShift;
        if (inTree + 1 >= s.blocks() || nextStart >= endIndex) {
            return null;
        }
        StoredTree t = state[l].tree;
        byte[] nodes = new byte[s.blockBytes()];
        LeafRange r = new LeafRange(s, t.id, t.seed, (inTree + 1) << s.k, s.k, t.top, true, inTree + 1, nodes);
        return new Job(
                r,
                1 << s.params.otsType().w(),
                block << blockShift,
                blockShift,
                null,
                inTree + 1,
                nodes,
                null,
                null,
                0);
    }

    /** The public key the key's top tree has. */
    HssPublicKey publicKey() {
        return key.publicKey();
    }

    private static void wipeLevel(Level lv) {
        if (lv.tree != null) {
            lv.tree.wipe();
        }
        for (Job j : new Job[] {lv.nextTree, lv.nextBlock}) {
            if (j != null) {
                j.wipe();
            }
        }
        lv.tree = null;
        lv.nextTree = null;
        lv.nextBlock = null;
        lv.upper = null;
    }

    /** Wipes every tree's SEED and the jobs' secret values. */
    void wipe() {
        for (Level lv : state) {
            wipeLevel(lv);
        }
        for (TreeHash th : hash) {
            th.wipe();
        }
    }
}
