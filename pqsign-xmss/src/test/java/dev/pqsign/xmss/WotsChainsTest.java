package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.ChildJvm;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeping the bottom layer's WOTS+ chain values ({@link WotsChains}) changes how a signature is made,
 * never what it is: signatures equal those of a signer that hashes, across tree roll-overs and after
 * reopening mid-tree; the values are wiped once used; the hash calls saved are counted, not timed.
 */
class WotsChainsTest {

    /**
     * A signing context with its auth-path cache, opened at {@code start} and signing in index order
     * as the stateful signer does (also used by {@link HashCountChild}).
     */
    record Signer(XmssSigning signing, CachedAuthPaths cache, long end) {
        static Signer of(XmssPrivateKey key, boolean midstates, int threads, boolean keepChains, long start) {
            XmssSigning signing = new XmssSigning(key, midstates).cachingUpperLayers();
            Signer s = new Signer(
                    signing,
                    new CachedAuthPaths(key, signing.treeHash, threads, keepChains),
                    key.parameterSet().maxSignatures());
            s.cache.prepare(start, s.end);
            s.signing.prepareUpperLayers(start, s.cache);
            return s;
        }

        byte[] sign(long idx, byte[] msg) {
            byte[] sig = signing.sign(idx, msg, cache);
            cache.afterSign(idx, end);
            return sig;
        }
    }

    @Test
    void keptChains_signByteIdentically_andReplaceEveryBottomWotsSignature() {
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
            // The tree in use at load time kept the values of its key pairs from `start` on, every
            // later one was built leaf by leaf with its chain values kept: every signature copied.
            assertEquals(count, kept.cache().keptSignatures(), p.toString());
        }
    }

    @Test
    void keptChains_afterReopeningMidTree_coverEveryUnusedKeyPair() {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 78);
        // Leaf 18 of tree 1: its leaves 18..31 keep their values as tree 1 is built when the key is
        // loaded, and leaves 0..18 of tree 2 are computed (and kept) by then as well.
        long start = 50;
        Signer kept = Signer.of(key, true, 2, true, start);
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        for (long i = start; i < 140; i++) {
            byte[] m = ("m" + i).getBytes(StandardCharsets.UTF_8);
            assertTrue(verifier.verify(m, kept.sign(i, m)), "signature " + i);
        }
        assertEquals(140 - start, kept.cache().keptSignatures());
    }

    @Test
    void openedMidTree_keepsTheValuesOfTheUnusedKeyPairsOnly_andWipesThemOnClose() throws Exception {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 82);
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        // threads 1: the bottom tree is built by the cache on demand; 2: beside the upper layers' trees.
        for (int threads : new int[] {1, 2}) {
            for (long start : new long[] {0, 5, 31}) {
                String label = "threads " + threads + ", opened at " + start;
                Signer plain = Signer.of(key, false, threads, false, start);
                Signer kept = Signer.of(key, false, threads, true, start);
                byte[] m = ("first after opening at " + start).getBytes(StandardCharsets.UTF_8);
                byte[] sig = kept.sign(start, m);
                assertArrayEquals(plain.sign(start, m), sig, label);
                assertTrue(verifier.verify(m, sig), label);
                assertEquals(1, kept.cache().keptSignatures(), label + ": the first signature copied kept values");
                for (int leaf = 0; leaf <= start; leaf++) {
                    assertNull(kept.cache().chains(0, 0, leaf), label + ": used key pair " + leaf + " holds values");
                }
                WotsChains table = null;
                for (int leaf = (int) start + 1; leaf < 32; leaf++) {
                    table = kept.cache().chains(0, 0, leaf);
                    assertNotNull(table, label + ": unused key pair " + leaf + " holds no values");
                }
                if (table != null) {
                    byte[] values = heldValues(table);
                    int leafBytes = values.length / 32;
                    for (int i = 0; i <= start * leafBytes + leafBytes - 1; i++) {
                        assertEquals(0, values[i], label + ": a value of a used key pair is held");
                    }
                }
                kept.cache().wipe();
                if (table != null) {
                    assertFalse(table.holdsAny(), label + ": wiped on close");
                }
            }
        }
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

    /** The table's value array itself (not a copy), to check which bytes are zero. */
    private static byte[] heldValues(WotsChains table) throws ReflectiveOperationException {
        java.lang.reflect.Field f = WotsChains.class.getDeclaredField("values");
        f.setAccessible(true);
        return (byte[]) f.get(table);
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
        for (byte b : heldValues(t)) {
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

    @Test
    void statefulSigner_reopenedMidTree_signsTheSameWithAndWithoutKeptChains() {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 83);
        byte[] state = XmssKeyState.fresh(key).withNextIndex(5).encode();
        Options o = Options.defaults().withThreads(2).withReserveAhead(true);
        try (XmssStatefulSigner hashing =
                        XmssStatefulSigner.open(MemoryStateStore.holding(state), o.withKeepChains(false));
                XmssStatefulSigner keeping = XmssStatefulSigner.open(MemoryStateStore.holding(state), o)) {
            for (int i = 5; i < 70; i++) {
                byte[] m = ("reading " + i).getBytes(StandardCharsets.UTF_8);
                assertArrayEquals(hashing.sign(m), keeping.sign(m), "signature " + i);
            }
        }
    }

    @Test
    void firstSignatureAfterOpening_makesAsManyHashCallsAsOneFromATableKeptLeafByLeaf(@TempDir Path dir)
            throws Exception {
        // Hash calls are only counted in a JVM that starts counting before it hashes anything.
        ChildJvm child = ChildJvm.start(dir, 96, HashCountChild.class);
        assertEquals(0, child.await(300), child.stderr());
        Map<String, Long> calls = new HashMap<>();
        for (String line : child.lines()) {
            String[] f = line.split(" ");
            calls.put(f[0], Long.parseLong(f[1]));
        }
        for (String opened : HashCountChild.OPENINGS) {
            long first = calls.get("opened-" + opened);
            long fromTable = calls.get("leafByLeaf-" + opened);
            long hashing = calls.get("hashing-" + opened);
            assertEquals(fromTable, first, opened + ": hash calls of the first signature after opening");
            assertEquals(
                    calls.get("openHashing-" + opened),
                    calls.get("openKeeping-" + opened),
                    opened + ": keeping the values while opening hashes no more");
            assertTrue(
                    hashing >= first + XmssParameterSet.XMSSMT_SHA2_10_2_256.wotsLen(),
                    opened + ": a signer that hashes its chains calls the hash " + hashing + " times, " + first
                            + " with kept values");
        }
    }
}
