package dev.pqsign.xmss;

import dev.pqsign.core.Secrets;
import dev.pqsign.core.Verifier;
import java.util.Objects;

/**
 * Verifies XMSS / XMSS^MT signatures under one public key (RFC 8391 algorithms 14 and 17).
 *
 * <p>Thread-safe: each thread verifies with its own hashing context. Never throws on malformed
 * signatures: wrong length, an index of 2^h or more, or any altered byte gives {@code false}. The
 * final root comparison is constant-time.
 *
 * <pre>{@code
 * XmssVerifier v = new XmssVerifier(XmssPublicKey.decode(XmssParameterSet.Family.XMSSMT, pubBytes));
 * boolean ok = v.verify(message, signature);
 * }</pre>
 */
public final class XmssVerifier implements Verifier {
    private final XmssPublicKey publicKey;
    private final ThreadLocal<Context> contexts;

    public XmssVerifier(XmssPublicKey publicKey) {
        this.publicKey = Objects.requireNonNull(publicKey, "publicKey");
        this.contexts = ThreadLocal.withInitial(() -> new Context(publicKey));
    }

    public XmssPublicKey publicKey() {
        return publicKey;
    }

    @Override
    public XmssParameterSet parameterSet() {
        return publicKey.parameterSet();
    }

    @Override
    public boolean verify(byte[] message, byte[] signature) {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(signature, "signature");
        XmssParameterSet p = publicKey.parameterSet();
        if (signature.length != p.signatureBytes()) {
            return false;
        }
        long idx = XmssSignatures.index(p, signature);
        if (idx < 0) {
            return false;
        }
        return contexts.get().verify(idx, message, signature);
    }

    /** Per-thread buffers and hashing state for one public key. */
    private static final class Context {
        private final XmssPublicKey pk;
        private final XmssParameterSet p;
        private final Hasher hasher;
        private final Wots wots;
        private final LTree ltree;
        private final byte[] node;
        private final byte[] wotsPk;
        private final byte[] pair;

        Context(XmssPublicKey pk) {
            this.pk = pk;
            this.p = pk.parameterSet();
            this.hasher = new Hasher(p, pk.pubSeedRef(), null, null);
            this.wots = new Wots(hasher, WotsDerivation.SP800_208);
            this.ltree = new LTree(hasher);
            this.node = new byte[p.n()];
            this.wotsPk = new byte[p.wotsSignatureBytes()];
            this.pair = new byte[2 * p.n()];
        }

        boolean verify(long idx, byte[] msg, byte[] sig) {
            int n = p.n();
            int ib = p.indexBytes();
            int treeHeight = p.treeHeight();
            hasher.hashMessage(sig, ib, pk.rootRef(), idx, msg, node, 0);
            int off = ib + n;
            long rest = idx;
            for (int layer = 0; layer < p.layers(); layer++) {
                int leaf = (int) (rest & ((1L << treeHeight) - 1));
                rest >>>= treeHeight;
                HashAddress subtree = new HashAddress().setLayer(layer).setTree(rest);
                HashAddress ots = HashAddress.of(subtree, HashAddress.TYPE_OTS).setOts(leaf);
                wots.publicKeyFromSignature(sig, off, node, 0, ots, wotsPk);
                off += p.wotsSignatureBytes();
                HashAddress lt = HashAddress.of(subtree, HashAddress.TYPE_LTREE).setLTree(leaf);
                ltree.compress(wotsPk, lt, node, 0);
                HashAddress hashTree = HashAddress.of(subtree, HashAddress.TYPE_HASH_TREE);
                for (int k = 0; k < treeHeight; k++) {
                    int index = leaf >>> k;
                    if ((index & 1) == 0) {
                        System.arraycopy(node, 0, pair, 0, n);
                        System.arraycopy(sig, off, pair, n, n);
                    } else {
                        System.arraycopy(sig, off, pair, 0, n);
                        System.arraycopy(node, 0, pair, n, n);
                    }
                    hashTree.setTreeHeight(k).setTreeIndex(index >>> 1);
                    hasher.randHash(pair, 0, node, 0, hashTree);
                    off += n;
                }
            }
            return Secrets.constantTimeEquals(node, pk.rootRef());
        }
    }
}
