package dev.pqsign.lms;

import dev.pqsign.core.Secrets;

/**
 * One LMS tree of a key in use: its SEED and identifier I, the nodes a {@link TreeShape} keeps, and
 * the block of 2^k leaves whose nodes below height k are kept (see {@link TreeShape}). Gives
 * authentication paths (RFC 8554 section 5.4.1, step 5) by copying. Holds the tree's SEED, a
 * secret; {@link #wipe()} clears it. Not thread-safe.
 */
final class StoredTree {
    final TreeShape shape;
    final byte[] id;
    final byte[] seed;
    final byte[] top;
    private int blockIndex;
    private byte[] block;

    StoredTree(TreeShape shape, byte[] id, byte[] seed, byte[] top, int blockIndex, byte[] block) {
        this.shape = shape;
        this.id = id;
        this.seed = seed;
        this.top = top;
        this.blockIndex = blockIndex;
        this.block = block;
    }

    /** Replaces the kept block by block {@code index}, whose nodes below height k are {@code nodes}. */
    void installBlock(int index, byte[] nodes) {
        this.blockIndex = index;
        this.block = nodes;
    }

    int blockIndex() {
        return blockIndex;
    }

    /** Writes the h sibling nodes of leaf {@code q}'s path, bottom first, at {@code out[off..]}. */
    void authPath(int q, byte[] out, int off) {
        int h = shape.h;
        int k = shape.k;
        int m = shape.m;
        if (k > 0 && (q >>> k) != blockIndex) {
            throw new IllegalStateException("leaf " + q + " is not in the kept block " + blockIndex);
        }
        for (int j = 0; j < h; j++) {
            if (j < k) {
                int s = ((1 << k) + (q & ((1 << k) - 1))) >>> j;
                System.arraycopy(block, (s ^ 1) * m, out, off + j * m, m);
            } else {
                int r = ((1 << h) + q) >>> j;
                System.arraycopy(top, (r ^ 1) * m, out, off + j * m, m);
            }
        }
    }

    /** Copies the root T[1] into {@code out[off..]}. */
    void root(byte[] out, int off) {
        System.arraycopy(top, shape.m, out, off, shape.m);
    }

    /** The root T[1] as a new array. */
    byte[] root() {
        byte[] r = new byte[shape.m];
        root(r, 0);
        return r;
    }

    /** The tree's LMS public key encoding: types, I, root. */
    byte[] publicKeyBytes() {
        byte[] out = new byte[shape.params.publicKeyBytes()];
        Bytes.putInt(out, 0, shape.params.lmsType().typeCode());
        Bytes.putInt(out, 4, shape.params.otsType().typeCode());
        System.arraycopy(id, 0, out, 8, LmsPublicKey.ID_BYTES);
        root(out, 8 + LmsPublicKey.ID_BYTES);
        return out;
    }

    void wipe() {
        Secrets.wipe(seed);
    }
}
