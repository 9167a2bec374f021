package dev.pqsign.xmss;

/** Supplies authentication paths and subtree roots while a hypertree signature is assembled. */
interface AuthPathSource {

    /**
     * Writes the authentication path of {@code leaf} in tree ({@code layer}, {@code tree}) to
     * {@code out[off..off + (h/d)*n)} and that tree's root to {@code root[0..n)}.
     */
    void authPath(int layer, long tree, int leaf, byte[] out, int off, byte[] root);

    /**
     * The kept WOTS+ chain values of key pair ({@code layer}, {@code tree}, {@code leaf}), if this
     * source holds them (see {@link WotsChains}), else {@code null}: the signer then hashes.
     */
    default WotsChains chains(int layer, long tree, int leaf) {
        return null;
    }
}
