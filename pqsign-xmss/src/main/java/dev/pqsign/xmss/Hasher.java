package dev.pqsign.xmss;

import dev.pqsign.core.Secrets;

/**
 * The keyed hash functions of RFC 8391 section 5.1 / SP 800-208 section 5 for one key
 * (PUB_SEED, and for signing SK_SEED and SK_PRF): F, H, H_msg, PRF and PRF_keygen, built on one
 * {@link HashCore}.
 *
 * <p>All inputs are assembled in one scratch buffer. When {@code paddingLen + n} fills a hash block
 * (every n = 32 and n = 64 SHA-2 set) and mid-states are enabled, the constant first block of
 * PRF(PUB_SEED, .), PRF_keygen(SK_SEED, .) and PRF(SK_PRF, .) is absorbed once per key and resumed
 * from its mid-state: one compression less per PRF call, but each resumption clones a
 * {@code MessageDigest} (about 200 bytes of garbage), because the JDK has no allocation-free way to
 * restore a SHA-2 chaining value. Without mid-states nothing is allocated at all.
 *
 * <p>Not thread-safe: one instance per thread. Holds secret seeds; {@link #wipe()} clears them.
 */
final class Hasher {
    private static final int PAD_F = 0;
    private static final int PAD_H = 1;
    private static final int PAD_HASH = 2;
    private static final int PAD_PRF = 3;
    private static final int PAD_PRF_KEYGEN = 4;

    final XmssParameterSet params;
    final int n;
    private final int pad;
    private final HashCore core;
    private final byte[] pubSeed;
    private final byte[] skSeed;
    private final byte[] skPrf;
    private final Object prfPubSeedMid;
    private final Object prfKeygenMid;
    private final Object prfSkPrfMid;

    private final byte[] buf;
    private final byte[] key;
    private final byte[] mask;

    /** A hasher that resumes PRF mid-states where it can (fewest compressions). */
    Hasher(XmssParameterSet params, byte[] pubSeed, byte[] skSeed, byte[] skPrf) {
        this(params, pubSeed, skSeed, skPrf, true);
    }

    /**
     * @param skSeed SK_SEED or {@code null} for verification-only use
     * @param skPrf SK_PRF or {@code null} for verification-only use
     * @param resumeMidstates {@code true} to hash the constant first PRF block once per key and clone
     *     its mid-state per call (throughput: key generation, tree builds, verification);
     *     {@code false} to hash every PRF input in full and allocate nothing (a real-time signer's
     *     steady state, where the clones' garbage would bring GC pauses into the signing loop; with
     *     SHA instructions a clone costs a large part of the compression it saves, so this is not
     *     slower: docs/stateful-signing.md)
     */
    Hasher(XmssParameterSet params, byte[] pubSeed, byte[] skSeed, byte[] skPrf, boolean resumeMidstates) {
        this.params = params;
        this.n = params.n();
        this.pad = params.hash().paddingLen();
        this.core = params.hash().newCore();
        this.pubSeed = pubSeed.clone();
        this.skSeed = skSeed == null ? null : skSeed.clone();
        this.skPrf = skPrf == null ? null : skPrf.clone();
        this.buf = new byte[pad + 4 * n + 32];
        this.key = new byte[n];
        this.mask = new byte[2 * n];
        this.prfPubSeedMid = resumeMidstates ? prefix(PAD_PRF, this.pubSeed) : null;
        this.prfKeygenMid = resumeMidstates && this.skSeed != null ? prefix(PAD_PRF_KEYGEN, this.skSeed) : null;
        this.prfSkPrfMid = resumeMidstates && this.skPrf != null ? prefix(PAD_PRF, this.skPrf) : null;
    }

    private Object prefix(int domain, byte[] k) {
        writePadding(domain);
        System.arraycopy(k, 0, buf, pad, n);
        Object mid = core.absorbPrefix(buf, pad + n);
        return mid;
    }

    private void writePadding(int domain) {
        for (int i = 0; i < pad - 1; i++) {
            buf[i] = 0;
        }
        buf[pad - 1] = (byte) domain;
    }

    byte[] pubSeed() {
        return pubSeed;
    }

    /** PRF(PUB_SEED, ADRS) into out[off..off+n). */
    void prfAddress(HashAddress adrs, byte[] out, int off) {
        if (prfPubSeedMid != null) {
            adrs.toBytes(buf, 0);
            core.hashAfterPrefix(prfPubSeedMid, buf, 32, out, off);
        } else {
            writePadding(PAD_PRF);
            System.arraycopy(pubSeed, 0, buf, pad, n);
            adrs.toBytes(buf, pad + n);
            core.hash(buf, pad + n + 32, out, off);
        }
    }

    /**
     * One chain step F in place on {@code x[off..off+n)}:
     * KEY = PRF(SEED, ADRS[kam=0]), BM = PRF(SEED, ADRS[kam=1]), x = F(KEY, x XOR BM).
     */
    void chainStep(byte[] x, int off, HashAddress adrs) {
        adrs.setKeyAndMask(0);
        prfAddress(adrs, key, 0);
        adrs.setKeyAndMask(1);
        prfAddress(adrs, mask, 0);
        writePadding(PAD_F);
        System.arraycopy(key, 0, buf, pad, n);
        for (int i = 0; i < n; i++) {
            buf[pad + n + i] = (byte) (x[off + i] ^ mask[i]);
        }
        core.hash(buf, pad + 2 * n, x, off);
    }

    /**
     * RAND_HASH (H with bitmasks) of {@code in[inOff..inOff+2n)} (left || right) into
     * {@code out[outOff..outOff+n)}; {@code out} may overlap the input.
     */
    void randHash(byte[] in, int inOff, byte[] out, int outOff, HashAddress adrs) {
        adrs.setKeyAndMask(0);
        prfAddress(adrs, key, 0);
        adrs.setKeyAndMask(1);
        prfAddress(adrs, mask, 0);
        adrs.setKeyAndMask(2);
        prfAddress(adrs, mask, n);
        writePadding(PAD_H);
        System.arraycopy(key, 0, buf, pad, n);
        for (int i = 0; i < 2 * n; i++) {
            buf[pad + n + i] = (byte) (in[inOff + i] ^ mask[i]);
        }
        core.hash(buf, pad + 3 * n, out, outOff);
    }

    /** SP 800-208 WOTS+ secret: PRF_keygen(SK_SEED, PUB_SEED || ADRS). */
    void prfKeygen(HashAddress adrs, byte[] out, int off) {
        if (prfKeygenMid != null) {
            System.arraycopy(pubSeed, 0, buf, 0, n);
            adrs.toBytes(buf, n);
            core.hashAfterPrefix(prfKeygenMid, buf, n + 32, out, off);
        } else {
            writePadding(PAD_PRF_KEYGEN);
            System.arraycopy(skSeed, 0, buf, pad, n);
            System.arraycopy(pubSeed, 0, buf, pad + n, n);
            adrs.toBytes(buf, pad + 2 * n);
            core.hash(buf, pad + 2 * n + 32, out, off);
        }
    }

    /** RFC 8391 WOTS+ seed of one key pair: S = PRF(SK_SEED, ADRS). */
    void prfSkSeed(HashAddress adrs, byte[] out, int off) {
        writePadding(PAD_PRF);
        System.arraycopy(skSeed, 0, buf, pad, n);
        adrs.toBytes(buf, pad + n);
        core.hash(buf, pad + n + 32, out, off);
    }

    /** PRF(k, toByte(i, 32)) with an arbitrary n-byte key (RFC 8391 WOTS+ secret expansion). */
    void prfCounter(byte[] k, int kOff, long i, byte[] out, int off) {
        writePadding(PAD_PRF);
        System.arraycopy(k, kOff, buf, pad, n);
        writeCounter32(buf, pad + n, i);
        core.hash(buf, pad + n + 32, out, off);
    }

    /** The signature randomness r = PRF(SK_PRF, toByte(idx, 32)). */
    void prfMessageRandomness(long idx, byte[] out, int off) {
        if (prfSkPrfMid != null) {
            writeCounter32(buf, 0, idx);
            core.hashAfterPrefix(prfSkPrfMid, buf, 32, out, off);
        } else {
            prfCounter(skPrf, 0, idx, out, off);
        }
    }

    private static void writeCounter32(byte[] b, int off, long v) {
        for (int i = 0; i < 24; i++) {
            b[off + i] = 0;
        }
        for (int i = 0; i < 8; i++) {
            b[off + 31 - i] = (byte) (v >>> (8 * i));
        }
    }

    /** H_msg(r || root || toByte(idx, n), M) into out[off..off+n); streams M. */
    void hashMessage(byte[] r, int rOff, byte[] root, long idx, byte[] msg, byte[] out, int off) {
        writePadding(PAD_HASH);
        System.arraycopy(r, rOff, buf, pad, n);
        System.arraycopy(root, 0, buf, pad + n, n);
        for (int i = 0; i < n; i++) {
            buf[pad + 2 * n + i] = 0;
        }
        for (int i = 0; i < 8 && i < n; i++) {
            buf[pad + 3 * n - 1 - i] = (byte) (idx >>> (8 * i));
        }
        core.start();
        core.update(buf, 0, pad + 3 * n);
        core.update(msg, 0, msg.length);
        core.finish(out, off);
    }

    /** Clears the secret seeds held by this hasher and the mid-states derived from them. */
    void wipe() {
        Secrets.wipe(skSeed, skPrf, key, mask, buf);
        core.discard(prfKeygenMid);
        core.discard(prfSkPrfMid);
    }
}
