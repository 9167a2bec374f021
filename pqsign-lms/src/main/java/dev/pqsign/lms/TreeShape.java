package dev.pqsign.lms;

/**
 * Which nodes of an LMS tree a signer keeps: all nodes of height k and above (the "top", indexed
 * like RFC 8554's T[r], r &lt; 2^(h-k+1)), and below height k only those of the block of 2^k leaves
 * in use. k is the smallest height for which the top fits the memory budget; k = 0 keeps the
 * whole tree.
 */
final class TreeShape {
    final LmsParameterSet params;
    final int h;
    final int m;
    final int k;

    private TreeShape(LmsParameterSet params, int k) {
        this.params = params;
        this.h = params.h();
        this.m = params.n();
        this.k = k;
    }

    static TreeShape of(LmsParameterSet params, long budgetBytes) {
        int h = params.h();
        int k = 0;
        while (k < h && ((long) params.n() << (h - k + 1)) > budgetBytes) {
            k++;
        }
        return new TreeShape(params, k);
    }

    /** Bytes of the top array (node r at offset r·m; offset 0 unused). */
    int topBytes() {
        return m << (h - k + 1);
    }

    /** Bytes of one block array (local node s at offset s·m, s = 1 the block's root). */
    int blockBytes() {
        return k == 0 ? 0 : m << (k + 1);
    }

    /** Blocks in the tree. */
    int blocks() {
        return 1 << (h - k);
    }
}
