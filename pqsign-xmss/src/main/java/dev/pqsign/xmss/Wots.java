package dev.pqsign.xmss;

/**
 * WOTS+ (RFC 8391 section 3) with w = 16: key generation, signing and public-key recovery for one
 * key pair identified by an OTS hash address. Works in caller-provided buffers.
 */
final class Wots {
    private static final int W = XmssParameterSet.W;

    private final Hasher hasher;
    private final WotsDerivation derivation;
    private final int n;
    private final int len;
    private final int len1;
    private final int len2;
    private final int[] lengths;
    private final byte[] seedS;

    Wots(Hasher hasher, WotsDerivation derivation) {
        this.hasher = hasher;
        this.derivation = derivation;
        XmssParameterSet p = hasher.params;
        this.n = p.n();
        this.len = p.wotsLen();
        this.len1 = p.len1();
        this.len2 = p.len2();
        this.lengths = new int[len];
        this.seedS = new byte[n];
    }

    /**
     * Writes the len secret chain starts of the key pair at {@code ots} (an OTS address with layer,
     * tree and OTS index set) to {@code sk[0..len*n)}.
     */
    void secretKey(HashAddress ots, byte[] sk) {
        beginSecrets(ots);
        for (int i = 0; i < len; i++) {
            secretElement(ots, i, sk, i * n);
        }
        java.util.Arrays.fill(seedS, (byte) 0);
    }

    /** Prepares {@link #secretElement} for the key pair at {@code ots} (RFC 8391: derives its S). */
    private void beginSecrets(HashAddress ots) {
        ots.setHash(0).setKeyAndMask(0);
        if (derivation == WotsDerivation.RFC8391) {
            ots.setChain(0);
            hasher.prfSkSeed(ots, seedS, 0);
        }
    }

    /** Secret start of chain {@code i} into {@code out[off..off+n)}, after {@link #beginSecrets}. */
    private void secretElement(HashAddress ots, int i, byte[] out, int off) {
        if (derivation == WotsDerivation.SP800_208) {
            ots.setChain(i);
            hasher.prfKeygen(ots, out, off);
        } else {
            hasher.prfCounter(seedS, 0, i, out, off);
        }
    }

    /**
     * Public-key element {@code chain} alone: that chain's secret start advanced to its end, into
     * {@code pk[chain*n..)}. Lets a leaf be computed a few chains at a time; the values equal those
     * of {@link #publicKey(HashAddress, byte[])}.
     */
    void publicKeyChain(HashAddress ots, int chain, byte[] pk) {
        beginSecrets(ots);
        secretElement(ots, chain, pk, chain * n);
        java.util.Arrays.fill(seedS, (byte) 0);
        ots.setChain(chain);
        chain(pk, chain * n, 0, W - 1, ots);
    }

    /** Advances the n-byte value at {@code x[off..)} from chain position {@code start} by {@code steps}. */
    void chain(byte[] x, int off, int start, int steps, HashAddress ots) {
        for (int i = start; i < start + steps && i < W; i++) {
            ots.setHash(i);
            hasher.chainStep(x, off, ots);
        }
    }

    /** WOTS+ public key (len*n bytes) of the key pair at {@code ots}, into {@code pk}. */
    void publicKey(HashAddress ots, byte[] pk) {
        publicKey(ots, pk, null, 0);
    }

    /**
     * As {@link #publicKey(HashAddress, byte[])}, also recording every chain value it passes (the
     * secret start, each intermediate value and the public end) as key pair {@code leaf} of
     * {@code keep}, when not {@code null}. Same hash calls either way.
     */
    void publicKey(HashAddress ots, byte[] pk, WotsChains keep, int leaf) {
        secretKey(ots, pk);
        for (int i = 0; i < len; i++) {
            ots.setChain(i);
            if (keep == null) {
                chain(pk, i * n, 0, W - 1, ots);
                continue;
            }
            keep.put(leaf, i, 0, pk, i * n);
            for (int j = 0; j < W - 1; j++) {
                ots.setHash(j);
                hasher.chainStep(pk, i * n, ots);
                keep.put(leaf, i, j + 1, pk, i * n);
            }
        }
        if (keep != null) {
            keep.completed(leaf);
        }
    }

    /** Signs the n-byte {@code msg[msgOff..)} with the key pair at {@code ots}, into {@code sig[sigOff..)}. */
    void sign(byte[] msg, int msgOff, HashAddress ots, byte[] sig, int sigOff, byte[] skScratch) {
        chainLengths(msg, msgOff);
        secretKey(ots, skScratch);
        for (int i = 0; i < len; i++) {
            System.arraycopy(skScratch, i * n, sig, sigOff + i * n, n);
            ots.setChain(i);
            chain(sig, sigOff + i * n, 0, lengths[i], ots);
        }
        java.util.Arrays.fill(skScratch, (byte) 0);
    }

    /**
     * Signs like {@link #sign} without hashing: the chain values of key pair {@code leaf} were kept
     * when its leaf was computed (see {@link WotsChains}); they are wiped afterwards.
     */
    void signFromChains(byte[] msg, int msgOff, WotsChains chains, int leaf, byte[] sig, int sigOff) {
        chainLengths(msg, msgOff);
        chains.sign(leaf, lengths, sig, sigOff);
    }

    /** Recovers the public key from a signature on {@code msg}, into {@code pk[0..len*n)}. */
    void publicKeyFromSignature(byte[] sig, int sigOff, byte[] msg, int msgOff, HashAddress ots, byte[] pk) {
        chainLengths(msg, msgOff);
        for (int i = 0; i < len; i++) {
            System.arraycopy(sig, sigOff + i * n, pk, i * n, n);
            ots.setChain(i);
            chain(pk, i * n, lengths[i], W - 1 - lengths[i], ots);
        }
    }

    /** base_w digits of the message followed by the base_w digits of its checksum. */
    private void chainLengths(byte[] msg, int msgOff) {
        int csum = 0;
        for (int i = 0; i < len1; i++) {
            int b = msg[msgOff + (i >>> 1)] & 0xff;
            int digit = (i & 1) == 0 ? b >>> 4 : b & 0xf;
            lengths[i] = digit;
            csum += W - 1 - digit;
        }
        // The checksum occupies len2 base-w digits, left-aligned in whole bytes (RFC 8391 3.1.5).
        int csumBits = len2 * 4;
        csum <<= (8 - (csumBits % 8)) % 8;
        int csumBytes = (csumBits + 7) / 8;
        int shift = 8 * csumBytes;
        for (int i = 0; i < len2; i++) {
            shift -= 4;
            lengths[len1 + i] = (csum >>> shift) & 0xf;
        }
    }
}
