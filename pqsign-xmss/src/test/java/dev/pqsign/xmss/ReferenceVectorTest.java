package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.Hex;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector of the XMSS reference implementation, both WOTS+ derivations. */
class ReferenceVectorTest {
    private static final java.util.Map<String, java.util.Map<Long, StoredTree>> TREES =
            new java.util.concurrent.ConcurrentHashMap<>();

    static Stream<Vectors.Vector> vectors() {
        List<Vectors.Vector> all = Vectors.all();
        assertEquals(48, all.size(), "vector files should hold 24 vectors each");
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void keygenSignVerify_matchReference(Vectors.Vector v) {
        XmssParameterSet p = v.params();
        assertEquals(v.sig().length, p.signatureBytes(), "signature size of " + p);
        XmssPrivateKey key = XmssKeyGenerator.fromSeed(p, v.derivation(), v.seed(), 2, null);
        assertEquals(Hex.encode(v.pk()), Hex.encode(key.publicKey().encodedRaw()), "public key");
        if (v.pkWithOid() != null) {
            assertArrayEquals(v.pkWithOid(), key.publicKey().encoded(), "public key with type code");
        }

        XmssSigning signing = new XmssSigning(key);
        // Vectors at index 0 and 5 of one key share their trees: build each tree once per key.
        java.util.Map<Long, StoredTree> trees =
                TREES.computeIfAbsent(p + "/" + v.derivation(), k -> new java.util.concurrent.ConcurrentHashMap<>());
        AuthPathSource memo = (layer, tree, leaf, out, off, root) -> {
            StoredTree t = trees.computeIfAbsent(
                    ((long) layer << 40) | tree,
                    k -> TreeBuilder.build(
                            signing.treeHash,
                            key::newTreeHash,
                            new HashAddress().setLayer(layer).setTree(tree),
                            p.treeHeight(),
                            0,
                            2,
                            null));
            XmssSigning.readAuthPath(t, leaf, out, off);
            t.read(t.height(), 0, root, 0);
        };
        byte[] sig = signing.sign(v.index(), v.msg(), memo);
        assertEquals(Hex.encode(v.sig()), Hex.encode(sig), "signature");

        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        assertTrue(verifier.verify(v.msg(), v.sig()), "reference signature must verify");
        assertFalse(
                verifier.verify("abd".getBytes(StandardCharsets.US_ASCII), v.sig()), "other message must not verify");

        Random rnd = new Random(v.index() * 31 + p.ordinal());
        for (int t = 0; t < 8; t++) {
            byte[] bad = v.sig().clone();
            int bit = rnd.nextInt(bad.length * 8);
            bad[bit >>> 3] ^= (byte) (1 << (bit & 7));
            assertFalse(verifier.verify(v.msg(), bad), "flipped bit " + bit + " must not verify");
        }
    }
}
