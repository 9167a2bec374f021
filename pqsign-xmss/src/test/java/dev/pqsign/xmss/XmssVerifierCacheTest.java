package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The XMSS^MT upper-layer cache of {@link XmssVerifier}: hits for signatures under an already
 * verified bottom tree, and never a different answer than full verification.
 */
class XmssVerifierCacheTest {
    private static final XmssParameterSet SET1 = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    private static final XmssPrivateKey KEY = XmssStatefulSignerTest.key(SET1, 21);
    private static final XmssPrivateKey OTHER_KEY = XmssStatefulSignerTest.key(SET1, 22);
    /** Signatures of indices 0 … 95 (bottom trees 0, 1, 2) of KEY over msg(i). */
    private static final List<byte[]> SIGS = sign(KEY, 0, 96);

    private static final XmssVerifier FULL = new XmssVerifier(KEY.publicKey());

    private static byte[] msg(long i) {
        return ("1500.00,reading " + i).getBytes(StandardCharsets.UTF_8);
    }

    private static List<byte[]> sign(XmssPrivateKey key, long start, int count) {
        XmssParameterSet p = key.parameterSet();
        List<byte[]> out = new ArrayList<>();
        MemoryStateStore store = MemoryStateStore.holding(
                XmssKeyState.fresh(key).withRange(start, p.maxSignatures()).encode());
        try (XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            for (int i = 0; i < count; i++) {
                out.add(signer.sign(msg(start + i)));
            }
        }
        return out;
    }

    /** Offset of the layer-1 part (first upper-layer byte) of a signature. */
    private static int upperStart(XmssParameterSet p) {
        return p.indexBytes() + p.n() + p.wotsSignatureBytes() + p.treeHeight() * p.n();
    }

    @Test
    void streamOfOneSigner_fullVerificationOncePerBottomTree() {
        XmssVerifier cached = XmssVerifier.withUpperLayerCache(KEY.publicKey());
        assertTrue(cached.cachesUpperLayers());
        for (int i = 0; i < SIGS.size(); i++) {
            assertTrue(cached.verify(msg(i), SIGS.get(i)), "index " + i);
        }
        assertEquals(3, cached.cacheMisses(), "one full verification per bottom tree (32 signatures each)");
        assertEquals(93, cached.cacheHits());
        assertFalse(new XmssVerifier(KEY.publicKey()).cachesUpperLayers(), "the plain constructor has no cache");
    }

    @Test
    void fourLayers_hitsToo() {
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_20_4_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 5);
        List<byte[]> sigs = sign(key, 1000, 40); // 1000 .. 1039: bottom trees 31 and 32
        XmssVerifier cached = XmssVerifier.withUpperLayerCache(key.publicKey());
        for (int i = 0; i < sigs.size(); i++) {
            assertTrue(cached.verify(msg(1000 + i), sigs.get(i)));
        }
        assertEquals(2, cached.cacheMisses());
        assertEquals(38, cached.cacheHits());
        // Tree 32's upper bytes differ from tree 31's in layer 1 and up: nothing mixes.
        byte[] spliced = sigs.get(0).clone();
        System.arraycopy(sigs.get(39), upperStart(p), spliced, upperStart(p), spliced.length - upperStart(p));
        assertFalse(cached.verify(msg(1000), spliced));
        assertFalse(new XmssVerifier(key.publicKey()).verify(msg(1000), spliced));
    }

    @Test
    void singleLayerXmss_hasNoCache() {
        XmssParameterSet p = XmssParameterSet.XMSS_SHA2_10_256;
        XmssPrivateKey key = XmssStatefulSignerTest.key(p, 9);
        List<byte[]> sigs = sign(key, 0, 3);
        XmssVerifier v = XmssVerifier.withUpperLayerCache(key.publicKey());
        assertFalse(v.cachesUpperLayers());
        for (int i = 0; i < 3; i++) {
            assertTrue(v.verify(msg(i), sigs.get(i)));
        }
        assertEquals(0, v.cacheHits() + v.cacheMisses());
        assertThrows(IllegalArgumentException.class, () -> XmssVerifier.withUpperLayerCache(key.publicKey(), 0));
        assertThrows(IllegalArgumentException.class, () -> XmssVerifier.withUpperLayerCache(key.publicKey(), 1025));
    }

    /** Any flipped bit of a signature whose bottom tree is cached: the same answer as without cache (false). */
    @Property(tries = 400)
    void flippedBitAnywhere_afterCacheWarm_sameAsFullVerification(
            @ForAll @IntRange(min = 0, max = 4642 * 8 - 1) int bit, @ForAll @IntRange(min = 1, max = 31) int index) {
        XmssVerifier cached = XmssVerifier.withUpperLayerCache(KEY.publicKey(), 1);
        assertTrue(cached.verify(msg(0), SIGS.get(0))); // caches bottom tree 0
        byte[] bad = SIGS.get(index).clone();
        bad[bit >>> 3] ^= (byte) (1 << (bit & 7));
        assertFalse(FULL.verify(msg(index), bad));
        assertFalse(cached.verify(msg(index), bad), "bit " + bit + " of index " + index);
        assertTrue(cached.verify(msg(index), SIGS.get(index)), "the genuine one still verifies");
        assertTrue(cached.cacheHits() >= 1, "the genuine signature came from the cache");
    }

    @Test
    void sameUpperBytesButAnotherLayer0Root_verifiedInFullAndRejected() {
        XmssVerifier cached = XmssVerifier.withUpperLayerCache(KEY.publicKey());
        assertTrue(cached.verify(msg(3), SIGS.get(3)));
        long missesBefore = cached.cacheMisses();
        // Another message: layer 0 yields another root, upper bytes are the genuine cached ones.
        assertFalse(cached.verify(msg(4), SIGS.get(3)));
        // Layer 0 of one index with the (cached) upper bytes of the same tree, under another index.
        byte[] moved = SIGS.get(3).clone();
        moved[SET1.indexBytes() - 1] = 9; // index 3 -> 9, same bottom tree, same upper bytes
        assertFalse(FULL.verify(msg(9), moved));
        assertFalse(cached.verify(msg(9), moved));
        assertEquals(missesBefore + 2, cached.cacheMisses(), "both went through all layers");
        assertEquals(0, cached.cacheHits());
    }

    @Test
    void anotherBottomTreeWithCachedUpperBytes_rejected() {
        XmssVerifier cached = XmssVerifier.withUpperLayerCache(KEY.publicKey(), 1); // every tree maps to the one entry
        assertTrue(cached.verify(msg(5), SIGS.get(5))); // tree 0 cached
        // Index 37 (tree 1) with its genuine layer 0 but tree 0's upper bytes.
        byte[] spliced = SIGS.get(37).clone();
        int u = upperStart(SET1);
        System.arraycopy(SIGS.get(5), u, spliced, u, spliced.length - u);
        assertFalse(FULL.verify(msg(37), spliced));
        assertFalse(cached.verify(msg(37), spliced));
        // And tree 0's signature relabelled as index 37 (same leaf 5 of tree 1).
        byte[] relabelled = SIGS.get(5).clone();
        relabelled[SET1.indexBytes() - 1] = 37;
        assertFalse(cached.verify(msg(37), relabelled));
        assertEquals(0, cached.cacheHits());
        assertTrue(cached.verify(msg(37), SIGS.get(37)));
        assertTrue(cached.verify(msg(5), SIGS.get(5)), "tree 0 was evicted by tree 1: verified in full again");
        assertEquals(0, cached.cacheHits());
    }

    /**
     * A layer-0 root equal to a cached one under another bottom tree cannot be produced with real
     * hashes, so the tree check is tested on the predicate itself: equal root and bytes, another
     * tree (other hash addresses in every upper layer) is no match.
     */
    @Test
    void coversUpperLayers_needsSameTreeRootAndEveryUpperByte() {
        byte[] sig = SIGS.get(7);
        int u = upperStart(SET1);
        byte[] root = new byte[SET1.n()];
        root[0] = 1;
        XmssVerifier.Upper entry =
                new XmssVerifier.Upper(0, root.clone(), java.util.Arrays.copyOfRange(sig, u, sig.length));
        assertTrue(XmssVerifier.coversUpperLayers(entry, 0, root, sig, u));
        assertFalse(XmssVerifier.coversUpperLayers(entry, 4, root, sig, u), "another bottom tree");
        assertFalse(XmssVerifier.coversUpperLayers(entry, 1L << 40, root, sig, u), "another bottom tree");
        byte[] otherRoot = root.clone();
        otherRoot[31] ^= 0x40;
        assertFalse(XmssVerifier.coversUpperLayers(entry, 0, otherRoot, sig, u), "another layer-0 root");
        byte[] last = sig.clone();
        last[last.length - 1] ^= 1;
        assertFalse(XmssVerifier.coversUpperLayers(entry, 0, root, last, u), "last upper byte");
        byte[] first = sig.clone();
        first[u] ^= (byte) 0x80;
        assertFalse(XmssVerifier.coversUpperLayers(entry, 0, root, first, u), "first upper byte");
        byte[] layer0 = sig.clone();
        layer0[u - 1] ^= 1;
        assertTrue(
                XmssVerifier.coversUpperLayers(entry, 0, root, layer0, u),
                "layer-0 bytes are not part of the entry: they are checked by computing the root");
        assertFalse(XmssVerifier.coversUpperLayers(null, 0, root, sig, u));
    }

    @Test
    void anotherKey_neverAcceptsAndCachesNothing() {
        XmssVerifier other = XmssVerifier.withUpperLayerCache(OTHER_KEY.publicKey());
        for (int i = 0; i < 40; i++) {
            assertFalse(other.verify(msg(i), SIGS.get(i)));
        }
        assertEquals(0, other.cacheHits());
        assertEquals(40, other.cacheMisses());
    }

    @Test
    void concurrentMixedValidAndTampered_alwaysTheFullAnswer() throws Exception {
        XmssVerifier cached = XmssVerifier.withUpperLayerCache(KEY.publicKey(), 2);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                futures.add(pool.submit(() -> {
                    Random rnd = new Random(seed);
                    for (int k = 0; k < 150; k++) {
                        int i = rnd.nextInt(SIGS.size());
                        byte[] s = SIGS.get(i).clone();
                        boolean tamper = rnd.nextInt(3) == 0;
                        if (tamper) {
                            int bit = rnd.nextInt(s.length * 8);
                            s[bit >>> 3] ^= (byte) (1 << (bit & 7));
                        }
                        assertEquals(!tamper, cached.verify(msg(i), s), "index " + i + (tamper ? " tampered" : ""));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(cached.cacheHits() > 0);
    }
}
