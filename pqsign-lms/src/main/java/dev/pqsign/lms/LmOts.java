package dev.pqsign.lms;

/**
 * LM-OTS (RFC 8554 section 4) for one thread: the pseudorandom secret keys of RFC 8554 Appendix A,
 * the hash chains, one-time public keys, signing, and the public-key candidate a signature yields
 * (Algorithm 4b). Every hash of a chain step or a derivation has the same layout,
 * {@code I || u32(q) || u16(i) || u8(j) || value}, kept in one buffer so that only {@code i},
 * {@code j} and the value change between calls.
 *
 * <p>Not thread-safe. Holds secret values (chain values, derived keys) in its buffers while it
 * works; {@link #wipe()} clears them.
 */
final class LmOts {
    static final int D_PBLC = 0x8080;
    static final int D_MESG = 0x8181;
    static final int D_LEAF = 0x8282;
    static final int D_INTR = 0x8383;
    /** The {@code j} byte of the Appendix A derivation (and of pqsign's other seed derivations). */
    static final int J_DERIVE = 0xff;
    /** Derivation index {@code i} of a signature's randomizer C (pqsign, docs/formats/hss-state.md). */
    static final int I_RANDOMIZER = 0xfffd;
    /** Derivation index {@code i} of a child tree's SEED. */
    static final int I_CHILD_SEED = 0xfffe;
    /** Derivation index {@code i} of a child tree's identifier I. */
    static final int I_CHILD_ID = 0xffff;

    private static final int VALUE = 23;

    final LmOtsType type;
    final LmsHasher hasher;
    private final int n;
    private final int p;
    private final int w;
    private final int chainLength;
    private final byte[] buf;
    private final byte[] digits;
    private final byte[] values;

    LmOts(LmOtsType type, LmsHasher hasher) {
        this.type = type;
        this.hasher = hasher;
        this.n = type.n();
        this.p = type.p();
        this.w = type.w();
        this.chainLength = type.chainLength();
        this.buf = new byte[VALUE + n];
        this.digits = new byte[n + 2];
        this.values = new byte[p * n];
    }

    private void address(byte[] id, int q) {
        System.arraycopy(id, 0, buf, 0, 16);
        Bytes.putInt(buf, 16, q);
    }

    /**
     * {@code H(I || u32(q) || u16(i) || 0xff || seed)}: RFC 8554 Appendix A's x_q[i] for i &lt; p,
     * and with the reserved indices {@link #I_RANDOMIZER}, {@link #I_CHILD_SEED},
     * {@link #I_CHILD_ID} pqsign's other derivations from a tree's SEED.
     */
    void derive(byte[] id, int q, int i, byte[] seed, byte[] out, int outOff) {
        address(id, q);
        Bytes.putShort(buf, 20, i);
        buf[22] = (byte) J_DERIVE;
        System.arraycopy(seed, 0, buf, VALUE, n);
        hasher.hash(buf, VALUE + n, out, outOff);
    }

    /** Applies chain steps {@code from .. to-1} of chain {@code i} (address already set) to buf's value. */
    private void chain(int i, int from, int to) {
        Bytes.putShort(buf, 20, i);
        for (int j = from; j < to; j++) {
            buf[22] = (byte) j;
            hasher.hash(buf, VALUE + n, buf, VALUE);
        }
    }

    /** Writes chain value y_i = end of the full chain from x_q[i] into {@code out[outOff..]}. */
    void chainEnd(byte[] id, int q, int i, byte[] seed, byte[] out, int outOff) {
        derive(id, q, i, seed, buf, VALUE);
        chain(i, 0, chainLength);
        System.arraycopy(buf, VALUE, out, outOff, n);
    }

    /**
     * K = H(I || u32(q) || u16(D_PBLC) || y_0 || … || y_(p-1)) over {@code ys} (p·n bytes), the
     * last step of a one-time public key and of a candidate.
     */
    void compressPublicKey(byte[] id, int q, byte[] ys, byte[] out, int outOff) {
        address(id, q);
        Bytes.putShort(buf, 20, D_PBLC);
        hasher.start();
        hasher.update(buf, 0, 22);
        hasher.update(ys, 0, p * n);
        hasher.finish(out, outOff);
    }

    /** The one-time public key K of leaf {@code q} (RFC 8554 Algorithm 1 with Appendix A's keys). */
    void publicKey(byte[] id, int q, byte[] seed, byte[] out, int outOff) {
        for (int i = 0; i < p; i++) {
            chainEnd(id, q, i, seed, values, i * n);
        }
        compressPublicKey(id, q, values, out, outOff);
    }

    /** Length of Q || Cksm(Q). */
    int digitsLength() {
        return n + 2;
    }

    /**
     * Q || Cksm(Q) into {@code out[0, n + 2)}: Q = H(I || u32(q) || u16(D_MESG) || C || message),
     * then the checksum of RFC 8554 section 4.4.
     */
    void messageDigits(byte[] id, int q, byte[] c, int cOff, byte[] msg, int msgOff, int msgLen, byte[] out) {
        address(id, q);
        Bytes.putShort(buf, 20, D_MESG);
        hasher.start();
        hasher.update(buf, 0, 22);
        hasher.update(c, cOff, n);
        hasher.update(msg, msgOff, msgLen);
        hasher.finish(out, 0);
        int sum = 0;
        int count = n * 8 / w;
        for (int i = 0; i < count; i++) {
            sum += chainLength - coef(out, i, w);
        }
        Bytes.putShort(out, n, sum << type.ls());
    }

    /** coef(S, i, w) of RFC 8554 section 3.1.3: the i-th w-bit digit of S, most significant first. */
    static int coef(byte[] s, int i, int w) {
        int perByte = 8 / w;
        int shift = 8 - (w * (i % perByte) + w);
        return ((s[i / perByte] & 0xff) >>> shift) & ((1 << w) - 1);
    }

    /** Signature value y_i: x_q[i] advanced coef(digits, i) steps, into {@code out[outOff..]}. */
    void signChain(byte[] id, int q, byte[] seed, int i, byte[] digits, byte[] out, int outOff) {
        derive(id, q, i, seed, buf, VALUE);
        chain(i, 0, coef(digits, i, w));
        System.arraycopy(buf, VALUE, out, outOff, n);
    }

    /** The end of chain i reached from the signature value at {@code y[yOff..]} (Algorithm 4b, step 3). */
    void candidateChain(byte[] id, int q, int i, byte[] digits, byte[] y, int yOff, byte[] out, int outOff) {
        address(id, q);
        System.arraycopy(y, yOff, buf, VALUE, n);
        chain(i, coef(digits, i, w), chainLength);
        System.arraycopy(buf, VALUE, out, outOff, n);
    }

    /**
     * Writes the LM-OTS signature of leaf {@code q} on the message (RFC 8554 Algorithm 3):
     * {@code u32(type) || C || y_0 || … || y_(p-1)} at {@code out[off..]}, with randomizer {@code c}.
     */
    void sign(byte[] id, int q, byte[] seed, byte[] c, byte[] msg, int msgOff, int msgLen, byte[] out, int off) {
        messageDigits(id, q, c, 0, msg, msgOff, msgLen, digits);
        Bytes.putInt(out, off, type.typeCode());
        System.arraycopy(c, 0, out, off + 4, n);
        int y = off + 4 + n;
        for (int i = 0; i < p; i++) {
            signChain(id, q, seed, i, digits, out, y + i * n);
        }
        wipe();
    }

    /**
     * The public key candidate of RFC 8554 Algorithm 4b for the LM-OTS signature at
     * {@code sig[off..]} (type code already checked, length n(p+1)+4 available) on the message, into
     * {@code out[outOff..]}.
     */
    void candidate(byte[] id, int q, byte[] sig, int off, byte[] msg, int msgOff, int msgLen, byte[] out, int outOff) {
        messageDigits(id, q, sig, off + 4, msg, msgOff, msgLen, digits);
        int y = off + 4 + n;
        for (int i = 0; i < p; i++) {
            candidateChain(id, q, i, digits, sig, y + i * n, values, i * n);
        }
        compressPublicKey(id, q, values, out, outOff);
    }

    /** Clears the buffers that held secret chain values or keys. */
    void wipe() {
        java.util.Arrays.fill(buf, (byte) 0);
        java.util.Arrays.fill(values, (byte) 0);
    }
}
