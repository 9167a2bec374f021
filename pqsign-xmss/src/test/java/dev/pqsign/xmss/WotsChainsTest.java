package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keeping the bottom layer's WOTS+ chain values ({@link WotsChains}) changes how a signature is made,
 * never what it is: signatures equal those of a signer that hashes, across tree roll-overs and after
 * reopening mid-tree; the values are wiped once used; the hash calls saved are counted, not timed.
 */
class WotsChainsTest {

    /** A signing context with its auth-path cache, signing in index order as the stateful signer does. */
    private record Signer(XmssSigning signing, CachedAuthPaths cache, long end) {
        static Signer of(XmssPrivateKey key, boolean midstates, int threads, boolean keepChains, long start) {
            XmssSigning signing = new XmssSigning(key, midstates).cachingUpperLayers();
            Signer s = new Signer(
                    signing,
                    new CachedAuthPaths(key, signing.treeHash, threads, keepChains),
                    key.parameterSet().maxSignatures());
            s.cache.prepare(start, s.end);
            return s;
        }

        byte[] sign(long idx, byte[] msg) {
            byte[] sig = signing.sign(idx, msg, cache);
            cache.afterSign(idx, end);
            return sig;
        }
    }

    @Test
    void keptChains_signByteIdentically_andReplaceTheBottomWotsSignatureAfterTheFirstTree() {
        for (XmssParameterSet p : List.of(
                XmssParameterSet.XMSSMT_SHA2_10_2_256,
                XmssParameterSet.XMSSMT_SHA2_20_4_256,
                XmssParameterSet.XMSSMT_SHA2_30_6_256)) {
            XmssPrivateKey key = XmssStatefulSignerTest.key(p, 77);
            long start = 5;
            Signer plain = Signer.of(key, false, 1, false, start);
            Signer kept = Signer.of(key, false, 1, true, start);
            XmssVerifier verifier = new XmssVerifier(key.publicKey());
            int count = 100;
            for (long i = start; i < start + count; i++) {
                byte[] m = (p + " reading " + i).getBytes(StandardCharsets.UTF_8);
                byte[] a = plain.sign(i, m);
                byte[] b = kept.sign(i, m);
                assertArrayEquals(a, b, p + " signature " + i);
                assertTrue(verifier.verify(m, b), p + " signature " + i);
            }
            assertEquals(0, plain.cache().keptSignatures(), p + ": nothing kept unless asked");
            // The tree in use at load time was built whole, without keeping; every later one was
            // built leaf by leaf with its chain values kept: indices 32..104 (73 signatures).
            assertEquals(start + count - 32, kept.cache().keptSignatures(), p.toString());
        }
    }

    @Test
    void keptChains_afterReopeningMidTree_coverOnlyTreesBuiltLeafByLeaf() {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 78);
        long start = 50; // leaf 18 of tree 1: leaves 0..17 of tree 2 are computed (and kept) when the key is loaded
        Signer kept = Signer.of(key, true, 2, true, start);
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        for (long i = start; i < 140; i++) {
            byte[] m = ("m" + i).getBytes(StandardCharsets.UTF_8);
            assertTrue(verifier.verify(m, kept.sign(i, m)), "signature " + i);
        }
        assertEquals(140 - 64, kept.cache().keptSignatures());
    }

    @Test
    void usedKeyPairs_areWiped_andAWipedCacheFallsBackToHashing() {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 79);
        Signer s = Signer.of(key, false, 1, true, 0);
        for (long i = 0; i < 32; i++) {
            s.sign(i, new byte[] {1});
        }
        CachedAuthPaths kept = s.cache();
        XmssSigning signing = s.signing();
        WotsChains table = kept.chains(0, 1, 0);
        assertNotNull(table, "tree 1 was built leaf by leaf while tree 0 signed");
        assertTrue(table.has(0) && table.has(31));
        signing.sign(32, new byte[] {2}, kept);
        assertFalse(table.has(0), "a key pair's chain values are gone once it has signed");
        assertThrows(
                IllegalStateException.class,
                () -> table.sign(0, new int[p.wotsLen()], new byte[p.wotsSignatureBytes()], 0));
        assertTrue(table.holdsAny());
        kept.wipe();
        assertFalse(table.holdsAny(), "wiped: no key pair holds values");
        assertNull(kept.chains(0, 1, 1), "wiped: nothing kept");
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        byte[] sig = signing.sign(33, new byte[] {3}, kept);
        assertTrue(verifier.verify(new byte[] {3}, sig), "after a wipe the signer hashes again");
    }

    @Test
    void wipe_zeroesEveryValueHeld() throws Exception {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        WotsChains t = WotsChains.forParameters(p);
        t.reset(7);
        byte[] v = new byte[p.n()];
        java.util.Arrays.fill(v, (byte) 0x33);
        for (int chain = 0; chain < p.wotsLen(); chain++) {
            for (int pos = 0; pos < 16; pos++) {
                t.put(3, chain, pos, v, 0);
            }
        }
        t.put(9, 0, 0, v, 0); // a key pair whose recording was interrupted: never completed
        t.completed(3);
        t.wipe();
        java.lang.reflect.Field f = WotsChains.class.getDeclaredField("values");
        f.setAccessible(true);
        for (byte b : (byte[]) f.get(t)) {
            assertEquals(0, b, "a chain value survived the wipe");
        }
        assertFalse(t.has(3));
        assertEquals(-1, t.tree());
    }

    @Test
    void tablesAreOnlyKeptForSmallTrees() {
        assertNotNull(WotsChains.forParameters(XmssParameterSet.XMSSMT_SHA2_10_2_256));
        assertNull(WotsChains.forParameters(XmssParameterSet.XMSSMT_SHA2_20_2_256), "2^10 leaves: 35 MB, not kept");
    }

    @Test
    void statefulSigner_withAndWithoutKeptChains_signTheSame() {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 80);
        MemoryStateStore a = MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        MemoryStateStore b = MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        Options o = Options.defaults().withThreads(1);
        assertTrue(o.keepChains(), "kept by default");
        try (XmssStatefulSigner hashing = XmssStatefulSigner.open(a, o.withKeepChains(false));
                XmssStatefulSigner keeping = XmssStatefulSigner.open(b, o)) {
            for (int i = 0; i < 80; i++) {
                byte[] m = ("reading " + i).getBytes(StandardCharsets.UTF_8);
                assertArrayEquals(hashing.sign(m), keeping.sign(m), "signature " + i);
            }
        }
    }
}
