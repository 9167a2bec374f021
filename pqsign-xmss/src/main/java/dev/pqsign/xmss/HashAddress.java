package dev.pqsign.xmss;

/**
 * The 32-byte hash address ADRS of RFC 8391 section 2.5: eight big-endian 32-bit words
 * (layer, tree [two words], type, then three type-specific words and keyAndMask).
 *
 * <p>Mutable on purpose: the hash functions are called millions of times per key generation and an
 * address is updated field by field along the way, exactly as the RFC's pseudo-code does.
 */
final class HashAddress {
    static final int TYPE_OTS = 0;
    static final int TYPE_LTREE = 1;
    static final int TYPE_HASH_TREE = 2;

    private final int[] words = new int[8];

    HashAddress() {}

    /** A fresh address of {@code type} in the same layer and tree as {@code subtree}, other words zero. */
    static HashAddress of(HashAddress subtree, int type) {
        HashAddress a = new HashAddress();
        a.words[0] = subtree.words[0];
        a.words[1] = subtree.words[1];
        a.words[2] = subtree.words[2];
        a.words[3] = type;
        return a;
    }

    HashAddress copy() {
        HashAddress a = new HashAddress();
        System.arraycopy(words, 0, a.words, 0, 8);
        return a;
    }

    HashAddress setLayer(int layer) {
        words[0] = layer;
        return this;
    }

    HashAddress setTree(long tree) {
        words[1] = (int) (tree >>> 32);
        words[2] = (int) tree;
        return this;
    }

    HashAddress setType(int type) {
        words[3] = type;
        return this;
    }

    /** OTS address: index of the WOTS+ key pair in its tree. */
    HashAddress setOts(int index) {
        words[4] = index;
        return this;
    }

    /** L-tree address: index of the leaf whose WOTS+ public key is compressed. */
    HashAddress setLTree(int index) {
        words[4] = index;
        return this;
    }

    HashAddress setChain(int chain) {
        words[5] = chain;
        return this;
    }

    HashAddress setTreeHeight(int height) {
        words[5] = height;
        return this;
    }

    HashAddress setHash(int hash) {
        words[6] = hash;
        return this;
    }

    HashAddress setTreeIndex(int index) {
        words[6] = index;
        return this;
    }

    HashAddress setKeyAndMask(int keyAndMask) {
        words[7] = keyAndMask;
        return this;
    }

    /** Writes the 32-byte big-endian encoding at {@code out[off..off+32)}. */
    void toBytes(byte[] out, int off) {
        for (int i = 0; i < 8; i++) {
            int w = words[i];
            out[off + 4 * i] = (byte) (w >>> 24);
            out[off + 4 * i + 1] = (byte) (w >>> 16);
            out[off + 4 * i + 2] = (byte) (w >>> 8);
            out[off + 4 * i + 3] = (byte) w;
        }
    }
}
