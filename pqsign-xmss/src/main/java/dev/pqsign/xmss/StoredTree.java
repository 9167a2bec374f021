package dev.pqsign.xmss;

/**
 * The nodes of one XMSS tree of height H at heights {@code minHeight..H}, kept in memory so that
 * authentication paths can be read instead of recomputed. Heights below {@code minHeight} are not
 * stored (for very tall trees); {@link #store} silently ignores them.
 *
 * <p>Nodes are public values (they appear in signatures), so this holds no secrets. Concurrent
 * {@link #store} calls for disjoint nodes are safe (each writes its own bytes).
 */
final class StoredTree {
    private final int n;
    private final int height;
    private final int minHeight;
    private final byte[][] levels;
    private final int origin;

    StoredTree(int n, int height, int minHeight) {
        this(n, height, minHeight, 0);
    }

    /**
     * A tree whose leaf 0 is leaf {@code origin} of the enclosing XMSS tree: {@link #store} and
     * {@link #read} take indices of the enclosing tree and ignore nodes outside this part. Used for
     * the bottom block of a very tall tree whose low nodes are not all kept.
     */
    StoredTree(int n, int height, int minHeight, int origin) {
        if (minHeight < 0 || minHeight > height) {
            throw new IllegalArgumentException("minHeight " + minHeight + " outside 0.." + height);
        }
        this.n = n;
        this.height = height;
        this.minHeight = minHeight;
        this.origin = origin;
        this.levels = new byte[height - minHeight + 1][];
        for (int k = minHeight; k <= height; k++) {
            levels[k - minHeight] = new byte[(1 << (height - k)) * n];
        }
    }

    int height() {
        return height;
    }

    int nodeBytes() {
        return n;
    }

    int minHeight() {
        return minHeight;
    }

    void store(int k, int index, byte[] src, int srcOff) {
        if (k >= minHeight && k <= height) {
            int local = index - (origin >>> k);
            if (local >= 0 && local < (1 << (height - k))) {
                System.arraycopy(src, srcOff, levels[k - minHeight], local * n, n);
            }
        }
    }

    /** Copies node (k, index) into out[off..off+n); k must be ≥ minHeight. */
    void read(int k, int index, byte[] out, int off) {
        System.arraycopy(levels[k - minHeight], (index - (origin >>> k)) * n, out, off, n);
    }

    /** The root (height H, index 0). */
    byte[] root() {
        byte[] r = new byte[n];
        read(height, 0, r, 0);
        return r;
    }
}
