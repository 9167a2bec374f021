package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.SigningFaultException;
import dev.pqsign.testing.MemoryStateStore;
import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;

/**
 * The signer's own checks catch what a computation fault would do to its in-memory trees: a
 * bottom signature that does not verify is not released (verify-after-sign), an upper-level
 * signature that does not verify is never used, a block rebuilt from the seed must equal the nodes
 * kept above it. The faults are simulated by changing one kept tree node through reflection.
 */
class FaultCheckTest {
    private static final HssSignerOptions TWO_THREADS =
            HssSignerOptions.defaults().withThreads(2);

    @Test
    void corruptedNodeOnTheAuthPath_verifyAfterSignReleasesNothing_andTheIndexStaysBurned() throws Exception {
        HssParameterSet set = HssTesting.set("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4");
        HssPrivateKey key = HssTesting.key(set, 60);
        HssVerifier verifier = new HssVerifier(key.publicKey());
        MemoryStateStore store = HssTesting.storeAt(key, 0, 32);
        try (HssStatefulSigner s = HssStatefulSigner.open(store, TWO_THREADS.withVerifyAfterSign(true))) {
            assertTrue(verifier.verify(HssTesting.msg(0), s.sign(HssTesting.msg(0))));
            // The sibling of leaf 1 is leaf 0's node: T[32].
            tree(s, 0).top[32 * 32] ^= 1;
            SigningFaultException e = assertThrows(SigningFaultException.class, () -> s.sign(HssTesting.msg(1)));
            assertTrue(e.getMessage().contains("does not verify"), e.getMessage());
            assertFalse(s.isUsable());
            assertThrows(SigningFaultException.class, () -> s.sign(HssTesting.msg(1)));
            assertEquals(2, HssKeyState.decode(store.read()).nextIndex());
        }
        // Without the check the same fault gives away a signature that does not verify.
        try (HssStatefulSigner s = HssStatefulSigner.open(HssTesting.storeAt(key, 1, 32), TWO_THREADS)) {
            tree(s, 0).top[32 * 32] ^= 1;
            assertFalse(verifier.verify(HssTesting.msg(1), s.sign(HssTesting.msg(1))));
        }
    }

    @Test
    void corruptedParentNode_theNewTreesUpperSignatureFailsItsCheck_andIsNeverUsed() throws Exception {
        HssParameterSet set = HssStatefulSignerTest.TWO_BY_FIVE;
        HssPrivateKey key = HssTesting.key(set, 61);
        HssVerifier verifier = new HssVerifier(key.publicKey(), set);
        try (HssStatefulSigner s = HssStatefulSigner.open(HssTesting.storeAt(key, 31, 1024), TWO_THREADS)) {
            // The top tree's leaf 1 signs the next bottom tree; its path starts with T[32].
            tree(s, 0).top[32 * 32] ^= 1;
            byte[] last = s.sign(HssTesting.msg(31));
            assertTrue(verifier.verify(HssTesting.msg(31), last), "index 31 uses the top tree's leaf 0");
            assertFalse(s.isUsable(), "the upkeep for index 32 found the fault");
            SigningFaultException e = assertThrows(SigningFaultException.class, () -> s.sign(HssTesting.msg(32)));
            assertTrue(e.getMessage().contains("signature of a lower tree"), e.getMessage());
        }
    }

    @Test
    void rebuiltBlockDisagreeingWithTheNodesAboveIt_isAFault() throws Exception {
        HssParameterSet set = HssTesting.set("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W1");
        HssPrivateKey key = HssTesting.key(set, 62);
        // 4 KiB: nodes from height 4 up are kept; block 1 (leaves 16..31) has root T[64 + 1].
        try (HssStatefulSigner s =
                HssStatefulSigner.open(HssTesting.storeAt(key, 0, 1024), TWO_THREADS.withTreeCacheBytes(4096))) {
            tree(s, 0).top[65 * 32] ^= 1;
            for (int i = 0; i < 15; i++) {
                s.sign(HssTesting.msg(i));
            }
            // Index 15's upkeep completes block 1 and compares it.
            s.sign(HssTesting.msg(15));
            SigningFaultException e = assertThrows(SigningFaultException.class, () -> s.sign(HssTesting.msg(16)));
            assertTrue(e.getMessage().contains("rebuilt from its seed does not match"), e.getMessage());
        }
    }

    /** The signer's kept tree of level {@code l}. */
    static StoredTree tree(HssStatefulSigner signer, int l) throws Exception {
        Field f = HssStatefulSigner.class.getDeclaredField("signing");
        f.setAccessible(true);
        HssSigning signing = (HssSigning) f.get(signer);
        Field st = HssSigning.class.getDeclaredField("state");
        st.setAccessible(true);
        Object level = ((Object[]) st.get(signing))[l];
        Field t = level.getClass().getDeclaredField("tree");
        t.setAccessible(true);
        return (StoredTree) t.get(level);
    }
}
