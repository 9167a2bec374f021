package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.testing.MemoryStateStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class HssStatefulSignerTest {
    /** Two levels of 32 leaves: 1024 signatures, a new bottom tree every 32. */
    static final HssParameterSet TWO_BY_FIVE =
            HssTesting.set("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8");

    private static final HssSignerOptions TWO_THREADS =
            HssSignerOptions.defaults().withThreads(2);

    @Test
    void sign_everyIndexOfTwoLevelKey_verifies_andEqualsAFreshSignerAtThatIndex() {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 3);
        HssVerifier verifier = new HssVerifier(key.publicKey(), TWO_BY_FIVE);
        try (HssStatefulSigner signer = HssStatefulSigner.open(HssTesting.storeAt(key, 0, 1024), TWO_THREADS)) {
            for (long i = 0; i < 1024; i++) {
                IndexedSignature s = signer.signIndexed(HssTesting::msg);
                assertEquals(i, s.index());
                assertEquals(i, HssSignatures.index(TWO_BY_FIVE, s.signature()));
                assertTrue(verifier.verify(HssTesting.msg(i), s.signature()), "index " + i);
                if (i % 37 == 0 || i % 32 == 31 || i % 32 == 0) {
                    // Across tree switches too: the running signer's incremental trees give the bytes
                    // a signer opened right at that index computes from scratch.
                    assertArrayEquals(HssTesting.signAt(key, i, HssTesting.msg(i)), s.signature(), "index " + i);
                }
            }
            assertEquals(0, signer.remaining());
            assertThrows(KeyExhaustedException.class, () -> signer.sign(HssTesting.msg(0)));
        }
    }

    @Test
    void sign_threeLevels_acrossEveryKindOfTreeSwitch_equalsAFreshSigner() {
        HssParameterSet three = HssParameterSet.uniform(HssTesting.lms("LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W8"), 3);
        HssPrivateKey key = HssTesting.key(three, 9);
        HssVerifier verifier = new HssVerifier(key.publicKey(), three);
        // Just before a bottom tree switch, before a middle and bottom switch, and up to the last index.
        for (long start : new long[] {30, 1022, 32 * 1024 - 5}) {
            try (HssStatefulSigner signer =
                    HssStatefulSigner.open(HssTesting.storeAt(key, start, three.maxSignatures()), TWO_THREADS)) {
                for (long i = start; i < start + 5; i++) {
                    byte[] sig = signer.signIndexed(HssTesting::msg).signature();
                    assertTrue(verifier.verify(HssTesting.msg(i), sig), "index " + i);
                    assertArrayEquals(HssTesting.signAt(key, i, HssTesting.msg(i)), sig, "index " + i);
                }
            }
        }
    }

    @Test
    void sign_withSmallTreeCache_keepsBlocksOfLeaves_sameSignatures() {
        // 4 KiB for a height-10 tree with n = 32 keeps the nodes from height 4 up: blocks of 16 leaves.
        HssParameterSet set =
                HssTesting.set("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W2+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W2");
        assertEquals(4, TreeShape.of(set.top(), 4096).k);
        HssPrivateKey key = HssTesting.key(set, 21);
        HssSignerOptions small = TWO_THREADS.withTreeCacheBytes(4096);
        long start = 15 * 32 - 3;
        try (HssStatefulSigner whole = HssStatefulSigner.open(HssTesting.storeAt(key, start, 1 << 15), TWO_THREADS);
                HssStatefulSigner blocks = HssStatefulSigner.open(HssTesting.storeAt(key, start, 1 << 15), small)) {
            for (long i = start; i < start + 40; i++) {
                byte[] a = whole.sign(HssTesting.msg(i));
                byte[] b = blocks.sign(HssTesting.msg(i));
                assertArrayEquals(a, b, "index " + i);
            }
        }
        // A single level whose bottom tree is kept in blocks: the next block is rebuilt as it signs.
        HssParameterSet one = HssTesting.set("LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W1");
        HssPrivateKey k1 = HssTesting.key(one, 22);
        HssVerifier v1 = new HssVerifier(k1.publicKey());
        try (HssStatefulSigner s = HssStatefulSigner.open(HssTesting.storeAt(k1, 0, 1024), small)) {
            for (long i = 0; i < 1024; i++) {
                byte[] sig = s.sign(HssTesting.msg(i));
                assertTrue(v1.verify(HssTesting.msg(i), sig), "index " + i);
            }
        }
    }

    @Test
    void signers_withReserveAhead_verifyAfterSign_andBatches_makeTheSameSignatures() {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 5);
        List<HssSignerOptions> options = List.of(
                TWO_THREADS,
                TWO_THREADS.withReserveAhead(true),
                TWO_THREADS.withVerifyAfterSign(true),
                TWO_THREADS.withBatch(7).withReserveAhead(true));
        List<List<byte[]>> all = new ArrayList<>();
        for (HssSignerOptions o : options) {
            List<byte[]> sigs = new ArrayList<>();
            try (HssStatefulSigner s = HssStatefulSigner.open(HssTesting.storeAt(key, 60, 1024), o)) {
                for (int i = 0; i < 40; i++) {
                    sigs.add(s.sign(HssTesting.msg(i)));
                }
            }
            all.add(sigs);
        }
        for (int o = 1; o < options.size(); o++) {
            for (int i = 0; i < 40; i++) {
                assertArrayEquals(all.get(0).get(i), all.get(o).get(i), options.get(o) + ", signature " + i);
            }
        }
    }

    @Test
    void reserve_burnsIndexOnStoreBeforeSignatureIsReturned() throws Exception {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 6);
        MemoryStateStore store = HssTesting.storeAt(key, 0, 1024);
        try (HssStatefulSigner s = HssStatefulSigner.open(store, TWO_THREADS)) {
            for (int i = 0; i < 5; i++) {
                long index = s.signIndexed(idx -> {
                            try {
                                // The message is asked for only after the reservation is durable.
                                assertEquals(
                                        idx + 1,
                                        HssKeyState.decode(store.read()).nextIndex());
                            } catch (java.io.IOException e) {
                                throw new AssertionError(e);
                            }
                            return HssTesting.msg(idx);
                        })
                        .index();
                assertEquals(i, index);
            }
            assertEquals(5, s.nextIndex());
            assertEquals(1019, s.remaining());
        }
    }

    @Test
    void batch_reservesAhead_andCloseGivesUnusedIndicesBack() throws Exception {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 8);
        MemoryStateStore store = HssTesting.storeAt(key, 0, 1024);
        try (HssStatefulSigner s = HssStatefulSigner.open(store, TWO_THREADS.withBatch(10))) {
            s.sign(HssTesting.msg(0));
            s.sign(HssTesting.msg(1));
            assertEquals(10, HssKeyState.decode(store.read()).nextIndex());
            assertEquals(8, s.reservedUnused());
        }
        assertEquals(2, HssKeyState.decode(store.read()).nextIndex());
    }

    @Test
    void persistenceFailure_releasesNothing_andSignerStaysUnusable() {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 10);
        MemoryStateStore store = HssTesting.storeAt(key, 0, 1024);
        try (HssStatefulSigner s = HssStatefulSigner.open(store, TWO_THREADS)) {
            s.sign(HssTesting.msg(0));
            store.failNextWrites(1);
            assertThrows(StatePersistenceException.class, () -> s.sign(HssTesting.msg(1)));
            assertFalse(s.isUsable());
            StatePersistenceException again =
                    assertThrows(StatePersistenceException.class, () -> s.sign(HssTesting.msg(1)));
            assertTrue(again.getMessage().contains("unusable"), again.getMessage());
        }
    }

    @Test
    void rolledBackState_isRefused() throws Exception {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 11);
        MemoryStateStore store = HssTesting.storeAt(key, 0, 1024);
        byte[] backup = store.read();
        try (HssStatefulSigner s = HssStatefulSigner.open(store, TWO_THREADS)) {
            s.sign(HssTesting.msg(0));
            s.sign(HssTesting.msg(1));
            store.overwrite(backup);
            StatePersistenceException e =
                    assertThrows(StatePersistenceException.class, () -> s.sign(HssTesting.msg(2)));
            assertTrue(e.getMessage().contains("went back from index 2 to 0"), e.getMessage());
            assertFalse(s.isUsable());
        }
    }

    @Test
    void stateOfAnotherKey_isRefused() {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 12);
        HssPrivateKey other = HssTesting.key(TWO_BY_FIVE, 13);
        MemoryStateStore store = HssTesting.storeAt(key, 0, 1024);
        try (HssStatefulSigner s = HssStatefulSigner.open(store, TWO_THREADS)) {
            s.sign(HssTesting.msg(0));
            store.overwrite(HssKeyState.fresh(other).encode());
            StatePersistenceException e =
                    assertThrows(StatePersistenceException.class, () -> s.sign(HssTesting.msg(1)));
            assertTrue(e.getMessage().contains("different key"), e.getMessage());
        }
    }

    @Test
    void freshState_ofKeyReadFromState_isRefused() {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 14);
        HssKeyState read = HssKeyState.decode(HssKeyState.fresh(key).encode());
        assertThrows(IllegalArgumentException.class, () -> HssKeyState.fresh(read.key()));
    }

    @Test
    void lastIndex_signs_thenKeyIsExhausted() {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 15);
        HssVerifier verifier = new HssVerifier(key.publicKey(), TWO_BY_FIVE);
        try (HssStatefulSigner s = HssStatefulSigner.open(HssTesting.storeAt(key, 1022, 1024), TWO_THREADS)) {
            assertEquals(2, s.remaining());
            assertTrue(verifier.verify(HssTesting.msg(0), s.sign(HssTesting.msg(0))));
            IndexedSignature last = s.signIndexed(HssTesting::msg);
            assertEquals(1023, last.index());
            assertTrue(verifier.verify(HssTesting.msg(1023), last.signature()));
            assertEquals(0, s.remaining());
            KeyExhaustedException e = assertThrows(KeyExhaustedException.class, () -> s.sign(HssTesting.msg(0)));
            assertTrue(e.getMessage().contains("exhausted"), e.getMessage());
        }
    }

    @Test
    void threadsSharingOneSigner_andTwoSignersOfOneStore_getUniqueIndices() throws Exception {
        HssPrivateKey key = HssTesting.key(TWO_BY_FIVE, 16);
        MemoryStateStore store = HssTesting.storeAt(key, 0, 1024);
        HssVerifier verifier = new HssVerifier(key.publicKey(), TWO_BY_FIVE);
        Set<Long> seen = Collections.synchronizedSet(new HashSet<>());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (HssStatefulSigner a = HssStatefulSigner.open(store, TWO_THREADS);
                HssStatefulSigner b = HssStatefulSigner.open(store, TWO_THREADS.withBatch(3))) {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                HssStatefulSigner s = t % 2 == 0 ? a : b;
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 30; i++) {
                        IndexedSignature sig = s.signIndexed(HssTesting::msg);
                        assertTrue(seen.add(sig.index()), "index " + sig.index() + " twice");
                        assertTrue(verifier.verify(HssTesting.msg(sig.index()), sig.signature()));
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(120, seen.size());
    }

    @Test
    void unsignableHierarchies_areRefusedAtKeyGeneration() {
        HssParameterSet mixed = HssParameterSet.of(
                HssTesting.lms("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8"),
                HssTesting.lms("LMS_SHAKE_M32_H5/LMOTS_SHAKE_N32_W8"));
        assertFalse(mixed.isSignable());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HssTesting.key(mixed, 1));
        assertTrue(e.getMessage().contains("mixes hash functions"), e.getMessage());
        HssParameterSet tall = HssParameterSet.uniform(HssTesting.lms("LMS_SHA256_M32_H25/LMOTS_SHA256_N32_W8"), 3);
        assertFalse(tall.isSignable());
        assertThrows(IllegalStateException.class, tall::maxSignatures);
    }
}
