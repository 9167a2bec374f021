package dev.pqsign.xmss;

/**
 * Every intermediate value of the WOTS+ chains of one bottom-layer tree's key pairs, kept from the
 * moment the tree's leaves are computed (one leaf per signature, while the tree before it is in use;
 * or the whole tree at once when the key is opened, then only for the key pairs not used yet) until
 * each key pair signs. A WOTS+ signature is a chain value at the position its message digit
 * selects; computing the leaf already passed through every position, so keeping them turns the
 * signature's ~500 chain steps (about a third of a signature's hash calls) into copies.
 *
 * <p><b>Secrets.</b> Chain values below the published public key are secret: whoever holds the
 * value at position j can sign any digit at or above j. They are held in memory only as long as the
 * seeds that produce them are; a key pair's values are wiped the moment it signs, and the whole
 * table when it is retired or the signer closes.
 *
 * <p>Size: 2^(h/d) × len × w × n bytes, 1,097,728 bytes for the study's sets (32 leaves, len 67,
 * w 16, n 32), which is why only trees up to {@link #MAX_BYTES} get one. Not thread-safe.
 */
final class WotsChains {
    /** Largest table kept per tree (two per signer: the tree in use and the next one). */
    static final int MAX_BYTES = 2 << 20;

    private final int n;
    private final int len;
    private final int leafBytes;
    private final byte[] values;
    private final boolean[] complete;
    /** Key pairs with values in the table (so wiping touches only those, not the whole megabyte). */
    private final boolean[] dirty;

    private long tree = -1;

    private WotsChains(int n, int len, int leaves) {
        this.n = n;
        this.len = len;
        this.leafBytes = len * XmssParameterSet.W * n;
        this.values = new byte[leaves * leafBytes];
        this.complete = new boolean[leaves];
        this.dirty = new boolean[leaves];
    }

    /** A table for trees of {@code p}'s height, or {@code null} if it would exceed {@link #MAX_BYTES}. */
    static WotsChains forParameters(XmssParameterSet p) {
        long bytes = (1L << p.treeHeight()) * p.wotsLen() * XmssParameterSet.W * p.n();
        return bytes <= MAX_BYTES ? new WotsChains(p.n(), p.wotsLen(), 1 << p.treeHeight()) : null;
    }

    /** Wipes the table and dedicates it to tree {@code tree} (its array is reused, not reallocated). */
    void reset(long tree) {
        wipe();
        this.tree = tree;
    }

    long tree() {
        return tree;
    }

    /** Records the value at chain position {@code pos} of chain {@code chain} of key pair {@code leaf}. */
    void put(int leaf, int chain, int pos, byte[] src, int off) {
        dirty[leaf] = true;
        System.arraycopy(src, off, values, leaf * leafBytes + (chain * XmssParameterSet.W + pos) * n, n);
    }

    /** Marks key pair {@code leaf} as recorded in full. */
    void completed(int leaf) {
        complete[leaf] = true;
    }

    /** Whether every chain value of key pair {@code leaf} is held. */
    boolean has(int leaf) {
        return complete[leaf];
    }

    /**
     * Writes the WOTS+ signature of key pair {@code leaf} for the chain positions {@code lengths}
     * (the message and checksum digits) into {@code sig[off..off+len*n)}, then wipes the key pair:
     * it is used, and its lower chain values must not outlive its one signature.
     */
    void sign(int leaf, int[] lengths, byte[] sig, int off) {
        if (!complete[leaf]) {
            throw new IllegalStateException("chain values of key pair " + leaf + " are not held");
        }
        int base = leaf * leafBytes;
        for (int i = 0; i < len; i++) {
            System.arraycopy(values, base + (i * XmssParameterSet.W + lengths[i]) * n, sig, off + i * n, n);
        }
        wipeLeaf(leaf);
    }

    /**
     * Forgets every value: zeroes the key pairs that hold any. Used key pairs were zeroed when they
     * signed, so at a roll-over this is usually nothing, instead of two megabyte-sized fills in the
     * roll-over signature.
     */
    void wipe() {
        for (int leaf = 0; leaf < dirty.length; leaf++) {
            if (dirty[leaf]) {
                wipeLeaf(leaf);
            }
        }
        tree = -1;
    }

    private void wipeLeaf(int leaf) {
        int base = leaf * leafBytes;
        java.util.Arrays.fill(values, base, base + leafBytes, (byte) 0);
        complete[leaf] = false;
        dirty[leaf] = false;
    }

    /** Whether any value is held (for tests: after {@link #wipe()} none is). */
    boolean holdsAny() {
        for (int leaf = 0; leaf < dirty.length; leaf++) {
            if (dirty[leaf]) {
                return true;
            }
        }
        return false;
    }
}
