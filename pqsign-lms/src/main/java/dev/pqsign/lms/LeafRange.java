package dev.pqsign.lms;

import dev.pqsign.core.Secrets;
import dev.pqsign.core.SigningFaultException;

/**
 * Computes the leaves {@code [start, start + 2^c)} of one LMS tree in order and the nodes above
 * them up to height c (the tree hash algorithm), resumable one hash chain at a time, so that the
 * work can be spread over many signatures. Nodes of height k and above go into the tree's top array
 * ({@code check}: block roots are compared with it instead, for a block rebuilt from the seed);
 * nodes below height k go into the array of the block that is kept, or into a scratch array.
 *
 * <p>Holds the tree's SEED and, while a leaf is half done, secret chain values; {@link #wipe()}
 * clears them. Not thread-safe.
 */
final class LeafRange {
    private final TreeShape s;
    private final byte[] id;
    private final byte[] seed;
    private final int start;
    private final int log2Count;
    private final byte[] top;
    private final boolean check;
    private final int keepBlock;
    private final byte[] kept;
    private final byte[] scratch;
    private final byte[] values;
    private final byte[] key;
    private final int p;
    private final int n;
    private int leaf;
    private int chain;

    /**
     * @param keepBlock the block whose nodes below height k go to {@code kept}, or -1
     * @param kept that block's node array ({@link TreeShape#blockBytes()}), or {@code null}
     */
    LeafRange(
            TreeShape s,
            byte[] id,
            byte[] seed,
            int start,
            int log2Count,
            byte[] top,
            boolean check,
            int keepBlock,
            byte[] kept) {
        if (log2Count < s.k && s.k > 0) {
            throw new IllegalArgumentException("a range below the block height is not built on its own");
        }
        this.s = s;
        this.id = id;
        this.seed = seed.clone();
        this.start = start;
        this.log2Count = log2Count;
        this.top = top;
        this.check = check;
        this.keepBlock = keepBlock;
        this.kept = kept;
        this.scratch = s.k == 0 ? null : new byte[s.blockBytes()];
        this.p = s.params.otsType().p();
        this.n = s.m;
        this.values = new byte[p * n];
        this.key = new byte[n];
    }

    /** Units of work: one per hash chain. */
    long units() {
        return (long) p << log2Count;
    }

    long unitsDone() {
        return (long) leaf * p + chain;
    }

    boolean isDone() {
        return leaf == (1 << log2Count);
    }

    /** Computes one chain (and, after a leaf's last chain, the leaf and the nodes it completes). */
    void step(TreeHash th) {
        if (isDone()) {
            return;
        }
        int q = start + leaf;
        th.ots.chainEnd(id, q, chain, seed, values, chain * n);
        if (++chain == p) {
            th.ots.compressPublicKey(id, q, values, key, 0);
            Secrets.wipe(values);
            byte[] node = new byte[n];
            th.leafFromKey(id, q, key, 0, node, 0);
            store(0, q, node);
            merge(th, q, node);
            chain = 0;
            leaf++;
        }
    }

    /** Runs the remaining units. */
    void finish(TreeHash th) {
        while (!isDone()) {
            step(th);
        }
    }

    /** Runs units until {@code target} are done. */
    void advanceTo(TreeHash th, long target) {
        while (unitsDone() < target && !isDone()) {
            step(th);
        }
    }

    /** Combines the node just stored at (0, q) with its left siblings up to the range's height. */
    private void merge(TreeHash th, int q, byte[] node) {
        int t = q;
        for (int j = 0; j < log2Count && (t & 1) == 1; j++) {
            byte[] left = read(j, t - 1);
            int r = (1 << (s.h - j - 1)) + (t >>> 1);
            th.interior(id, r, left, 0, node, 0, node, 0);
            t >>>= 1;
            store(j + 1, t, node);
        }
    }

    private byte[] blockArray(int j, int t) {
        int b = t >>> (s.k - j);
        return b == keepBlock ? kept : scratch;
    }

    private void store(int j, int t, byte[] node) {
        int m = s.m;
        if (j >= s.k) {
            int off = ((1 << (s.h - j)) + t) * m;
            if (check) {
                if (j == s.k && !Secrets.constantTimeEquals(node, 0, top, off, m)) {
                    throw new SigningFaultException("a block of " + s.params.setName()
                            + " rebuilt from its seed does not match the tree computed before (computation fault)");
                }
            } else {
                System.arraycopy(node, 0, top, off, m);
            }
        }
        if (j <= s.k && s.k > 0) {
            int local = (1 << (s.k - j)) + (t & ((1 << (s.k - j)) - 1));
            System.arraycopy(node, 0, blockArray(j, t), local * m, m);
        }
    }

    private byte[] read(int j, int t) {
        int m = s.m;
        byte[] out = new byte[m];
        if (j >= s.k) {
            System.arraycopy(top, ((1 << (s.h - j)) + t) * m, out, 0, m);
        } else {
            int local = (1 << (s.k - j)) + (t & ((1 << (s.k - j)) - 1));
            System.arraycopy(blockArray(j, t), local * m, out, 0, m);
        }
        return out;
    }

    void wipe() {
        Secrets.wipe(seed, values);
    }
}
