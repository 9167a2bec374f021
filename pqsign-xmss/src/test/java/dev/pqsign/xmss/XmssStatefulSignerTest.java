package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class XmssStatefulSignerTest {
    private static final XmssParameterSet SET1 = XmssParameterSet.XMSSMT_SHA2_10_2_256;

    @TempDir
    Path dir;

    static XmssPrivateKey key(XmssParameterSet p, int seedByte) {
        byte[] seed = new byte[3 * p.n()];
        java.util.Arrays.fill(seed, (byte) seedByte);
        return XmssKeyGenerator.fromSeed(p, WotsDerivation.SP800_208, seed, 2, null);
    }

    private static byte[] msg(long i) {
        return ("reading " + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sign_everyIndexOfSmallestStudySet_equalsStatelessCore() throws Exception {
        XmssPrivateKey key = key(SET1, 7);
        XmssSigning reference = new XmssSigning(key);
        // The stateless core, with each tree built once by the plain TreeBuilder (no incremental
        // trees, no segment cache) and reused for the 32 indices that share it.
        java.util.Map<Long, StoredTree> trees = new java.util.HashMap<>();
        AuthPathSource recompute = (layer, tree, leaf, out, off, root) -> {
            StoredTree t = trees.computeIfAbsent(
                    ((long) layer << 40) | tree,
                    k -> TreeBuilder.build(
                            reference.treeHash,
                            key::newTreeHash,
                            new HashAddress().setLayer(layer).setTree(tree),
                            SET1.treeHeight(),
                            0,
                            1,
                            null));
            XmssSigning.readAuthPath(t, leaf, out, off);
            t.read(t.height(), 0, root, 0);
        };
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        try (XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            for (long i = 0; i < SET1.maxSignatures(); i++) {
                IndexedSignature s = signer.signIndexed(XmssStatefulSignerTest::msg);
                assertEquals(i, s.index());
                assertArrayEquals(reference.sign(i, msg(i), recompute), s.signature(), "signature at index " + i);
            }
            assertEquals(0, signer.remaining());
            assertThrows(KeyExhaustedException.class, () -> signer.sign(msg(0)));
        }
        assertEquals(SET1.maxSignatures(), XmssKeyState.decode(store.bytes()).nextIndex());
    }

    @Test
    void sign_randomIndicesOfLargerSets_equalStatelessCoreAndVerify() {
        Random rnd = new Random(42);
        for (XmssParameterSet p : List.of(
                XmssParameterSet.XMSSMT_SHA2_20_4_256,
                XmssParameterSet.XMSS_SHA2_10_256,
                XmssParameterSet.XMSSMT_SHA2_30_6_256)) {
            XmssPrivateKey key = key(p, 3);
            XmssSigning reference = new XmssSigning(key);
            XmssVerifier verifier = new XmssVerifier(key.publicKey());
            for (int t = 0; t < 2; t++) {
                long start = (rnd.nextLong() >>> 1) % (p.maxSignatures() - 40);
                MemoryStateStore store = MemoryStateStore.holding(XmssKeyState.fresh(key)
                        .withRange(start, p.maxSignatures())
                        .encode());
                try (XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
                    // Sign across a bottom-tree boundary to exercise cache rollover.
                    for (int j = 0; j < 40; j += 13) {
                        IndexedSignature s = signer.signIndexed(XmssStatefulSignerTest::msg);
                        assertArrayEquals(
                                reference.sign(s.index(), msg(s.index()), reference.recomputing(2)),
                                s.signature(),
                                p + " index " + s.index());
                        assertTrue(verifier.verify(msg(s.index()), s.signature()));
                        for (int k = 0; k < 12; k++) {
                            signer.sign(msg(0));
                        }
                    }
                }
            }
        }
    }

    @Test
    void sign_lastIndex_verifiesThenExhausted() throws Exception {
        XmssPrivateKey key = key(SET1, 9);
        long max = SET1.maxSignatures();
        Path file = dir.resolve("key.state");
        byte[] lastTwo = XmssKeyState.fresh(key).withRange(max - 2, max).encode();
        try (FileStateStore store = FileStateStore.create(file, lastTwo, FileStateStore.DEFAULT_LOCK_TIMEOUT);
                XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
            XmssVerifier v = new XmssVerifier(key.publicKey());
            assertEquals(2, signer.remaining());
            IndexedSignature a = signer.signIndexed(XmssStatefulSignerTest::msg);
            IndexedSignature b = signer.signIndexed(XmssStatefulSignerTest::msg);
            assertEquals(max - 1, b.index());
            assertTrue(v.verify(msg(a.index()), a.signature()));
            assertTrue(v.verify(msg(b.index()), b.signature()));
            assertEquals(max - 1, XmssSignatures.index(SET1, b.signature()));
            KeyExhaustedException e = assertThrows(KeyExhaustedException.class, () -> signer.sign(msg(1)));
            assertTrue(e.getMessage().contains("exhausted"), e.getMessage());
            assertEquals(0, signer.remaining());
        }
    }

    @Test
    void sign_persistenceFailure_releasesNothingAndKeyBecomesUnusable() {
        XmssPrivateKey key = key(SET1, 1);
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(1));
        signer.sign(msg(0));
        store.failNextWrites(Integer.MAX_VALUE);
        StatePersistenceException e = assertThrows(StatePersistenceException.class, () -> signer.sign(msg(1)));
        assertTrue(e.getMessage().contains("disk full"), e.getMessage());
        assertFalse(signer.isUsable());
        store.failNextWrites(0);
        assertThrows(StatePersistenceException.class, () -> signer.sign(msg(2)), "stays unusable");
        assertEquals(1, XmssKeyState.decode(store.bytes()).nextIndex());
    }

    @Test
    void sign_stateReplacedByOtherKey_refused() {
        XmssPrivateKey key = key(SET1, 1);
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(1));
        signer.sign(msg(0));
        store.overwrite(XmssKeyState.fresh(key(SET1, 2)).withNextIndex(5).encode());
        StatePersistenceException e = assertThrows(StatePersistenceException.class, () -> signer.sign(msg(1)));
        assertTrue(e.getMessage().contains("different key"), e.getMessage());
        assertFalse(signer.isUsable());
    }

    @Test
    void sign_stateRolledBack_refused() {
        XmssPrivateKey key = key(SET1, 1);
        byte[] old = XmssKeyState.fresh(key).encode();
        MemoryStateStore store = MemoryStateStore.holding(old);
        XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(1));
        signer.sign(msg(0));
        signer.sign(msg(1));
        store.overwrite(old);
        StatePersistenceException e = assertThrows(StatePersistenceException.class, () -> signer.sign(msg(2)));
        assertTrue(e.getMessage().contains("went back"), e.getMessage());
    }

    @Test
    void batchReservation_burnsAheadAndGivesBackOnClose() {
        XmssPrivateKey key = key(SET1, 1);
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
        XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withBatch(10).withThreads(1));
        for (int i = 0; i < 3; i++) {
            signer.sign(msg(i));
        }
        assertEquals(10, XmssKeyState.decode(store.bytes()).nextIndex(), "batch burned before use");
        assertEquals(7, signer.reservedUnused());
        assertEquals(1, store.writes());
        signer.close();
        assertEquals(3, XmssKeyState.decode(store.bytes()).nextIndex(), "unused rest given back");
    }

    @Test
    void sign_manyThreads_allIndicesUniqueAndValid() throws Exception {
        XmssPrivateKey key = key(SET1, 5);
        Path file = dir.resolve("mt.state");
        XmssVerifier v = new XmssVerifier(key.publicKey());
        List<IndexedSignature> all = Collections.synchronizedList(new ArrayList<>());
        try (FileStateStore store = FileStateStore.create(
                        file, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT);
                XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
            ExecutorService pool = Executors.newFixedThreadPool(6);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 15; i++) {
                        all.add(signer.signIndexed(XmssStatefulSignerTest::msg));
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            pool.shutdown();
        }
        Set<Long> seen = new HashSet<>();
        for (IndexedSignature s : all) {
            assertTrue(seen.add(s.index()), "index used twice: " + s.index());
            assertTrue(v.verify(msg(s.index()), s.signature()));
        }
        assertEquals(90, seen.size());
        assertEquals(90, XmssKeyState.decode(Files.readAllBytes(file)).nextIndex());
    }
}
