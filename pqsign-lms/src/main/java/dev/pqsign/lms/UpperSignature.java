package dev.pqsign.lms;

import dev.pqsign.core.Secrets;
import dev.pqsign.core.SigningFaultException;

/**
 * The LMS signature of a lower tree's public key by leaf q of the tree above it, computed one hash
 * chain at a time (so that its cost is spread over the signatures before the lower tree is needed)
 * and checked before it is used: each unit computes one chain of the LM-OTS signature and then,
 * from the value just stored, the rest of that chain as a verifier would (RFC 8554 Algorithm 4b,
 * with the message digest computed a second time from the signature's own C). {@link #finish}
 * appends the parent's authentication path and accepts the signature only if the candidate leads to
 * the parent's root.
 *
 * <p>Holds the parent tree's SEED; {@link #wipe()} clears it. Not thread-safe.
 */
final class UpperSignature {
    private final LmsParameterSet parent;
    private final byte[] parentId;
    private final byte[] parentSeed;
    private final int q;
    private final byte[] message;
    private final byte[] ots;
    private final byte[] digits;
    private final byte[] check;
    private final byte[] ends;
    private final int p;
    private final int n;
    private int chain = -1;

    /**
     * @param parent the parameter set of the signing tree
     * @param parentId its I
     * @param parentSeed its SEED (copied)
     * @param q the signing leaf
     * @param message the lower tree's LMS public key encoding
     */
    UpperSignature(LmsParameterSet parent, byte[] parentId, byte[] parentSeed, int q, byte[] message) {
        this.parent = parent;
        this.parentId = parentId.clone();
        this.parentSeed = parentSeed.clone();
        this.q = q;
        this.message = message.clone();
        this.p = parent.otsType().p();
        this.n = parent.n();
        this.ots = new byte[parent.otsType().signatureBytes()];
        this.digits = new byte[n + 2];
        this.check = new byte[n + 2];
        this.ends = new byte[p * n];
    }

    /** Work units: the message digests, then one per chain. */
    int units() {
        return p + 1;
    }

    /** Hash calls per unit, for pacing: a derivation and 2^w - 1 chain steps. */
    int unitCost() {
        return 1 << parent.otsType().w();
    }

    int unitsDone() {
        return chain + 1;
    }

    boolean isDone() {
        return chain == p;
    }

    void step(LmOts h) {
        if (isDone()) {
            return;
        }
        if (chain < 0) {
            byte[] c = TreeIds.randomizer(parentId, parentSeed, q, h);
            Bytes.putInt(ots, 0, parent.otsType().typeCode());
            System.arraycopy(c, 0, ots, 4, n);
            h.messageDigits(parentId, q, c, 0, message, 0, message.length, digits);
            h.messageDigits(parentId, q, ots, 4, message, 0, message.length, check);
            if (!java.util.Arrays.equals(digits, check)) {
                throw fault();
            }
        } else {
            int y = 4 + n + chain * n;
            h.signChain(parentId, q, parentSeed, chain, digits, ots, y);
            h.candidateChain(parentId, q, chain, check, ots, y, ends, chain * n);
        }
        chain++;
    }

    /**
     * The verified LMS signature followed by the lower tree's public key: completes the remaining
     * units, takes the authentication path of leaf q from {@code tree} (the signing tree, in use)
     * and checks that the signature leads to its root.
     *
     * @throws SigningFaultException if it does not
     */
    byte[] finish(TreeHash th, StoredTree tree) {
        while (!isDone()) {
            step(th.ots);
        }
        if (!java.util.Arrays.equals(tree.id, parentId)) {
            throw new IllegalStateException("upper signature prepared for another tree");
        }
        int sigLen = parent.signatureBytes();
        byte[] out = new byte[sigLen + message.length];
        Bytes.putInt(out, 0, q);
        System.arraycopy(ots, 0, out, 4, ots.length);
        Bytes.putInt(out, 4 + ots.length, parent.lmsType().typeCode());
        tree.authPath(q, out, 8 + ots.length);
        byte[] key = new byte[n];
        th.ots.compressPublicKey(parentId, q, ends, key, 0);
        byte[] node = new byte[n];
        th.leafFromKey(parentId, q, key, 0, node, 0);
        long r = (1L << parent.h()) + q;
        int path = 8 + ots.length;
        for (int j = 0; j < parent.h(); j++, r >>>= 1) {
            if ((r & 1) == 1) {
                th.interior(parentId, (int) (r >>> 1), out, path + j * n, node, 0, node, 0);
            } else {
                th.interior(parentId, (int) (r >>> 1), node, 0, out, path + j * n, node, 0);
            }
        }
        if (!Secrets.constantTimeEquals(node, tree.root())) {
            throw fault();
        }
        System.arraycopy(message, 0, out, sigLen, message.length);
        wipe();
        return out;
    }

    private SigningFaultException fault() {
        return new SigningFaultException("the signature of a lower tree by leaf " + q + " of " + parent.setName()
                + " does not verify (computation fault); it was not used");
    }

    void wipe() {
        Secrets.wipe(parentSeed);
    }
}
