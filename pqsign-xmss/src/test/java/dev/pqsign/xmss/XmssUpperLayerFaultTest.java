package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.SigningFaultException;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * An XMSS^MT layer-1 WOTS+ signature (it signs a bottom tree's root and is copied into the 32
 * signatures of that tree) is verified before its first use: a kept tree node changed by a
 * simulated fault makes the new segment fail the check at the bottom tree's roll-over, and nothing
 * is released. With verify-after-sign, a bottom signature that does not verify is not released.
 */
class XmssUpperLayerFaultTest {
    private static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;

    @Test
    void changedNodeOfTheLayer1Tree_newUpperSegmentFailsItsCheck_signerReleasesNothing() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 17);
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        MemoryStateStore store = MemoryStateStore.holding(
                XmssKeyState.fresh(key).withRange(31, SET.maxSignatures()).encode());
        byte[] m31 = "reading 31".getBytes(StandardCharsets.UTF_8);
        try (XmssStatefulSigner s =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            // Index 32 uses layer-1 leaf 1, whose authentication path starts with leaf 0's node.
            StoredTree layer1 = layer1Tree(s);
            byte[] node = new byte[SET.n()];
            layer1.read(0, 0, node, 0);
            node[0] ^= 1;
            layer1.store(0, 0, node, 0);
            assertTrue(verifier.verify(m31, s.sign(m31)), "index 31 uses the segment computed at open");
            SigningFaultException e = assertThrows(SigningFaultException.class, () -> s.sign(m31));
            assertTrue(e.getMessage().contains("layer-1 WOTS+ signature"), e.getMessage());
            assertFalse(s.isUsable());
            assertThrows(SigningFaultException.class, () -> s.sign(m31));
        }
        assertEquals(33, XmssKeyState.decode(store.read()).nextIndex(), "the faulty index stays burned");
    }

    @Test
    void changedNodeOfTheBottomTree_verifyAfterSignReleasesNothing_withoutItTheSignatureIsBad() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 18);
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        byte[] m = "reading".getBytes(StandardCharsets.UTF_8);
        for (boolean check : new boolean[] {true, false}) {
            MemoryStateStore store =
                    MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
            try (XmssStatefulSigner s = XmssStatefulSigner.open(
                    store, Options.defaults().withThreads(2).withVerifyAfterSign(check))) {
                assertTrue(verifier.verify(m, s.sign(m)));
                // Index 1's path starts with leaf 0's node of the bottom tree.
                StoredTree bottom = tree(s, 0);
                byte[] node = new byte[SET.n()];
                bottom.read(0, 0, node, 0);
                node[3] ^= 0x10;
                bottom.store(0, 0, node, 0);
                if (check) {
                    SigningFaultException e = assertThrows(SigningFaultException.class, () -> s.sign(m));
                    assertTrue(e.getMessage().contains("does not verify"), e.getMessage());
                    assertFalse(s.isUsable());
                } else {
                    assertFalse(verifier.verify(m, s.sign(m)));
                }
            }
        }
    }

    private static StoredTree layer1Tree(XmssStatefulSigner signer) throws Exception {
        return tree(signer, 1);
    }

    private static StoredTree tree(XmssStatefulSigner signer, int layer) throws Exception {
        Field cache = XmssStatefulSigner.class.getDeclaredField("cache");
        cache.setAccessible(true);
        Field trees = CachedAuthPaths.class.getDeclaredField("trees");
        trees.setAccessible(true);
        return ((StoredTree[]) trees.get(cache.get(signer)))[layer];
    }
}
