package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Reserving ahead: the next batch is made durable in the background, never used before it is, and
 * the signatures are exactly those of a signer that reserves synchronously.
 */
class ReserveAheadTest {
    private static final XmssParameterSet SET1 = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    private static final XmssPrivateKey KEY = XmssStatefulSignerTest.key(SET1, 41);

    private static byte[] msg(long i) {
        return ("reading " + i).getBytes(StandardCharsets.UTF_8);
    }

    private static long storedNext(MemoryStateStore store) {
        return XmssKeyState.decode(store.bytes()).nextIndex();
    }

    /** Waits (up to 30 s, not a timing assertion) for a background reservation to land. */
    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    @Test
    void signatures_equalSynchronousSigner_andEveryUsedIndexWasDurableFirst() throws Exception {
        MemoryStateStore syncStore =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        MemoryStateStore aheadStore =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        try (XmssStatefulSigner sync =
                        XmssStatefulSigner.open(syncStore, Options.defaults().withThreads(1));
                XmssStatefulSigner ahead = XmssStatefulSigner.open(
                        aheadStore, Options.defaults().withThreads(1).withReserveAhead(true))) {
            for (long i = 0; i < 100; i++) {
                long[] durableAtSign = new long[1];
                IndexedSignature a = ahead.signIndexed(idx -> {
                    // Called with the index about to be used: it must already be burned on "disk".
                    durableAtSign[0] = storedNext(aheadStore);
                    return msg(idx);
                });
                IndexedSignature s = sync.signIndexed(ReserveAheadTest::msg);
                assertEquals(i, a.index());
                assertTrue(durableAtSign[0] > a.index(), "index " + a.index() + " used before it was durable");
                assertArrayEquals(s.signature(), a.signature(), "index " + i);
                // The following index gets reserved without waiting for the next sign.
                long want = i + 2;
                await(() -> storedNext(aheadStore) == want, "reservation of index " + (i + 1));
                assertEquals(1, ahead.reservedUnused());
            }
        }
        // Closing gives the unused reservation back: nothing is lost by a clean shutdown.
        assertEquals(100, storedNext(aheadStore));
    }

    @Test
    void open_reserveAhead_firstIndexDurableBeforeTheFirstSign_givenBackOnClose() throws Exception {
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        try (XmssStatefulSigner ahead =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(1).withReserveAhead(true))) {
            await(() -> storedNext(store) == 1, "reservation of index 0 after open");
            assertEquals(1, ahead.reservedUnused());
        }
        assertEquals(0, storedNext(store), "a clean close without a signature loses no index");
    }

    @Test
    void backToBackSignatures_raceTheBackgroundUpkeep_equalSynchronousSigner() throws Exception {
        MemoryStateStore syncStore =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        MemoryStateStore aheadStore =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        try (XmssStatefulSigner sync =
                        XmssStatefulSigner.open(syncStore, Options.defaults().withThreads(1));
                XmssStatefulSigner ahead = XmssStatefulSigner.open(
                        aheadStore, Options.defaults().withThreads(1).withReserveAhead(true))) {
            // No waiting between signatures: some find the previous upkeep done in the background,
            // others do it themselves; either way the bytes must be the synchronous signer's.
            for (long i = 0; i < 200; i++) {
                IndexedSignature a = ahead.signIndexed(ReserveAheadTest::msg);
                IndexedSignature s = sync.signIndexed(ReserveAheadTest::msg);
                assertEquals(i, a.index());
                assertArrayEquals(s.signature(), a.signature(), "index " + i);
            }
        }
    }

    @Test
    void backgroundPersistenceFailure_makesKeyUnusable_nextSignReportsWhy() throws Exception {
        MemoryStateStore store =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        store.failNextWrites(Integer.MAX_VALUE); // the reservation made in the background at open fails
        try (XmssStatefulSigner signer =
                XmssStatefulSigner.open(store, Options.defaults().withThreads(1).withReserveAhead(true))) {
            StatePersistenceException e = assertThrows(StatePersistenceException.class, () -> signer.sign(msg(0)));
            assertTrue(e.getMessage().contains("injected write failure"), e.getMessage());
            assertFalse(signer.isUsable());
        }
        MemoryStateStore store2 =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        try (XmssStatefulSigner signer = XmssStatefulSigner.open(
                store2, Options.defaults().withThreads(1).withReserveAhead(true))) {
            signer.sign(msg(0)); // index 0 reserved at open; index 1 is reserved in the background
            await(() -> storedNext(store2) == 2, "first background reservation");
            store2.failNextWrites(Integer.MAX_VALUE);
            signer.sign(msg(1)); // uses the reserved index 1; the background reservation of 2 fails
            await(() -> !signer.isUsable(), "the failed background reservation");
            StatePersistenceException e = assertThrows(StatePersistenceException.class, () -> signer.sign(msg(2)));
            assertTrue(e.getMessage().contains("injected write failure"), e.getMessage());
            assertEquals(2, storedNext(store2), "nothing beyond the last durable reservation");
        }
    }

    @Test
    void lastIndex_signedThenExhausted_noReservationBeyondEnd() throws Exception {
        XmssKeyState last = XmssKeyState.fresh(KEY).withNextIndex(SET1.maxSignatures() - 3);
        MemoryStateStore store = MemoryStateStore.holding(last.encode());
        XmssVerifier verifier = new XmssVerifier(KEY.publicKey());
        try (XmssStatefulSigner signer = XmssStatefulSigner.open(
                store, Options.defaults().withBatch(2).withThreads(1).withReserveAhead(true))) {
            for (long i = SET1.maxSignatures() - 3; i < SET1.maxSignatures(); i++) {
                IndexedSignature s = signer.signIndexed(ReserveAheadTest::msg);
                assertEquals(i, s.index());
                assertTrue(verifier.verify(msg(i), s.signature()));
            }
            assertEquals(0, signer.remaining());
            assertThrows(KeyExhaustedException.class, () -> signer.sign(msg(0)));
        }
        assertEquals(SET1.maxSignatures(), storedNext(store));
    }
}
