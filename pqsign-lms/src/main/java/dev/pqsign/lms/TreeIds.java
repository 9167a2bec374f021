package dev.pqsign.lms;

import dev.pqsign.core.Secrets;
import dev.pqsign.core.SigningFaultException;
import java.util.Arrays;

/**
 * The SEED and I of every tree of a key, derived from the top tree's (docs/formats/hss-state.md):
 * the child of leaf q of a tree (I, SEED) has
 * {@code SEED' = H(I || u32(q) || u16(0xfffe) || 0xff || SEED)} and
 * {@code I' = first 16 bytes of H(I || u32(q) || u16(0xffff) || 0xff || SEED)}, the layout of
 * RFC 8554 Appendix A with indices no chain uses (the derivation RFC 8554's test case 2 was made
 * with). Each value is computed twice and compared, because a fault here would give a leaf two
 * different child trees to sign.
 */
final class TreeIds {
    private TreeIds() {}

    /** {id, seed} of tree number {@code tree} (0-based, left to right) of level {@code level}. */
    static byte[][] of(HssParameterSet params, byte[] topId, byte[] topSeed, int level, long tree, LmOts ots) {
        byte[] id = topId.clone();
        byte[] seed = topSeed.clone();
        for (int l = 1; l <= level; l++) {
            int shift = 0;
            for (int j = l; j < level; j++) {
                shift += params.level(j).h();
            }
            long parentLeaf = (tree >>> shift) & ((1L << params.level(l - 1).h()) - 1);
            byte[][] child = child(id, seed, (int) parentLeaf, ots);
            Secrets.wipe(seed);
            id = child[0];
            seed = child[1];
        }
        return new byte[][] {id, seed};
    }

    /** {id, seed} of the child of leaf {@code q} of the tree (id, seed). */
    static byte[][] child(byte[] id, byte[] seed, int q, LmOts ots) {
        int n = seed.length;
        byte[] s1 = new byte[n];
        byte[] s2 = new byte[n];
        byte[] i1 = new byte[n];
        byte[] i2 = new byte[n];
        ots.derive(id, q, LmOts.I_CHILD_SEED, seed, s1, 0);
        ots.derive(id, q, LmOts.I_CHILD_ID, seed, i1, 0);
        ots.derive(id, q, LmOts.I_CHILD_SEED, seed, s2, 0);
        ots.derive(id, q, LmOts.I_CHILD_ID, seed, i2, 0);
        boolean same = Secrets.constantTimeEquals(s1, s2) && Arrays.equals(i1, i2);
        Secrets.wipe(s2);
        if (!same) {
            Secrets.wipe(s1);
            throw new SigningFaultException(
                    "deriving the tree below leaf " + q + " gave two different results (computation fault)");
        }
        return new byte[][] {Arrays.copyOf(i1, LmsPublicKey.ID_BYTES), s1};
    }

    /** The randomizer C of the signature at leaf {@code q} of tree (id, seed), computed twice. */
    static byte[] randomizer(byte[] id, byte[] seed, int q, LmOts ots) {
        int n = seed.length;
        byte[] c1 = new byte[n];
        byte[] c2 = new byte[n];
        ots.derive(id, q, LmOts.I_RANDOMIZER, seed, c1, 0);
        ots.derive(id, q, LmOts.I_RANDOMIZER, seed, c2, 0);
        if (!Arrays.equals(c1, c2)) {
            throw new SigningFaultException(
                    "deriving the randomizer of leaf " + q + " gave two different results (computation fault)");
        }
        return c1;
    }
}
