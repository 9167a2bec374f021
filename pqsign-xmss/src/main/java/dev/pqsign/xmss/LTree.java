package dev.pqsign.xmss;

/**
 * The L-tree of RFC 8391 section 4.1.5: compresses a WOTS+ public key of len n-byte values into one
 * n-byte leaf by hashing pairs level by level, carrying an odd last node up unchanged.
 */
final class LTree {
    private final Hasher hasher;
    private final int n;
    private final int len;

    LTree(Hasher hasher) {
        this.hasher = hasher;
        this.n = hasher.n;
        this.len = hasher.params.wotsLen();
    }

    /**
     * Compresses {@code pk[0..len*n)} (destroyed in the process) into {@code out[off..off+n)}.
     *
     * @param ltree an L-tree address with layer, tree and L-tree index set
     */
    void compress(byte[] pk, HashAddress ltree, byte[] out, int off) {
        int l = len;
        int height = 0;
        ltree.setTreeHeight(0);
        while (l > 1) {
            int parents = l >>> 1;
            for (int i = 0; i < parents; i++) {
                ltree.setTreeIndex(i);
                hasher.randHash(pk, 2 * i * n, pk, i * n, ltree);
            }
            if ((l & 1) == 1) {
                System.arraycopy(pk, (l - 1) * n, pk, parents * n, n);
                l = parents + 1;
            } else {
                l = parents;
            }
            height++;
            ltree.setTreeHeight(height);
        }
        System.arraycopy(pk, 0, out, off, n);
    }
}
