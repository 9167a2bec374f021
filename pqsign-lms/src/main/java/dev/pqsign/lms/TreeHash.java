package dev.pqsign.lms;

/**
 * One thread's hashing context for one LMS tree type (RFC 8554 section 5.3): leaf nodes
 * {@code H(I || u32(r) || u16(D_LEAF) || K)}, interior nodes
 * {@code H(I || u32(r) || u16(D_INTR) || left || right)}, and the LM-OTS operations of its leaves.
 * Not thread-safe.
 */
final class TreeHash {
    final LmsParameterSet params;
    final LmOts ots;
    private final LmsHasher hasher;
    private final int m;
    private final int h;
    private final byte[] buf;
    private final byte[] k;

    TreeHash(LmsParameterSet params) {
        this.params = params;
        this.hasher = LmsHasher.create(params.hash());
        this.ots = new LmOts(params.otsType(), hasher);
        this.m = params.n();
        this.h = params.h();
        this.buf = new byte[22 + 2 * m];
        this.k = new byte[m];
    }

    /** Leaf node of leaf {@code q} whose one-time public key is {@code key[keyOff..]}. */
    void leafFromKey(byte[] id, int q, byte[] key, int keyOff, byte[] out, int outOff) {
        System.arraycopy(id, 0, buf, 0, 16);
        Bytes.putInt(buf, 16, (1 << h) + q);
        Bytes.putShort(buf, 20, LmOts.D_LEAF);
        System.arraycopy(key, keyOff, buf, 22, m);
        hasher.hash(buf, 22 + m, out, outOff);
    }

    /** Leaf node of leaf {@code q}: its one-time public key from the seed, then the leaf hash. */
    void leaf(byte[] id, int q, byte[] seed, byte[] out, int outOff) {
        ots.publicKey(id, q, seed, k, 0);
        leafFromKey(id, q, k, 0, out, outOff);
    }

    /** Interior node {@code r} (heap index, root = 1) from its children. */
    void interior(byte[] id, int r, byte[] left, int leftOff, byte[] right, int rightOff, byte[] out, int outOff) {
        System.arraycopy(id, 0, buf, 0, 16);
        Bytes.putInt(buf, 16, r);
        Bytes.putShort(buf, 20, LmOts.D_INTR);
        System.arraycopy(left, leftOff, buf, 22, m);
        System.arraycopy(right, rightOff, buf, 22 + m, m);
        hasher.hash(buf, 22 + 2 * m, out, outOff);
    }

    /**
     * The root an LMS signature leads to (RFC 8554 Algorithm 6a, steps after the candidate), for the
     * signature at {@code sig[off..]} whose lengths and types the caller has checked, or writes
     * nothing and returns {@code false} if q is out of range.
     */
    boolean candidateRoot(byte[] id, byte[] sig, int off, byte[] msg, int msgOff, int msgLen, byte[] out) {
        long q = Bytes.getInt(sig, off) & 0xffffffffL;
        if (q >= (1L << h)) {
            return false;
        }
        ots.candidate(id, (int) q, sig, off + 4, msg, msgOff, msgLen, k, 0);
        leafFromKey(id, (int) q, k, 0, out, 0);
        int path = off + 4 + params.otsType().signatureBytes() + 4;
        long node = (1L << h) + q;
        for (int i = 0; i < h; i++) {
            int sibling = path + i * m;
            if ((node & 1) == 1) {
                interior(id, (int) (node >>> 1), sig, sibling, out, 0, out, 0);
            } else {
                interior(id, (int) (node >>> 1), out, 0, sig, sibling, out, 0);
            }
            node >>>= 1;
        }
        return true;
    }

    void wipe() {
        ots.wipe();
    }
}
