package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.testing.MemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class SequencedSignerTest {

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();

    @Test
    void signIndexed_consecutiveCalls_indicesIncreaseFromZero() throws Exception {
        SequencedSigner s = SequencedSigner.open(key.signer(), MemoryStateStore.empty("c"), 1);
        for (long i = 0; i < 5; i++) {
            long expected = i;
            assertEquals(
                    expected,
                    s.signIndexed(idx -> {
                                assertEquals(expected, idx);
                                return new byte[] {1};
                            })
                            .index());
        }
    }

    @Test
    void open_afterRestart_continuesAfterReservedBlockWithoutReuse() throws Exception {
        MemoryStateStore store = MemoryStateStore.empty("c");
        SequencedSigner first = SequencedSigner.open(key.signer(), store, 10);
        long last = -1;
        for (int i = 0; i < 3; i++) {
            last = first.signIndexed(idx -> new byte[0]).index();
        }
        assertEquals(2, last);
        assertEquals(1, store.writes() - 1, "one block reserved (plus creation)");
        SequencedSigner second = SequencedSigner.open(key.signer(), store, 10);
        long next = second.signIndexed(idx -> new byte[0]).index();
        assertEquals(10, next, "indices 3..9 were reserved by the first instance and are skipped");
    }

    @Test
    void signIndexed_blockOfOne_writesBeforeEachSignature() throws Exception {
        MemoryStateStore store = MemoryStateStore.empty("c");
        SequencedSigner s = SequencedSigner.open(key.signer(), store, 1);
        int before = store.writes();
        s.signIndexed(idx -> {
            assertEquals(before + 1, store.writes(), "index must be durable before the message is signed");
            return new byte[0];
        });
    }

    @Test
    void signIndexed_persistFails_throwsAndStaysUnusable() throws Exception {
        MemoryStateStore store = MemoryStateStore.empty("c");
        SequencedSigner s = SequencedSigner.open(key.signer(), store, 1);
        store.failNextWrites(1);
        assertThrows(StatePersistenceException.class, () -> s.signIndexed(idx -> new byte[0]));
        assertThrows(StatePersistenceException.class, () -> s.signIndexed(idx -> new byte[0]));
    }

    @Test
    void open_corruptState_throwsKeyFormat() {
        MemoryStateStore store = MemoryStateStore.empty("c");
        store.overwrite(new byte[] {'P', 'Q', 'S', 'Q', 9, 0, 0, 0, 0, 0, 0, 0, 0});
        assertThrows(KeyFormatException.class, () -> SequencedSigner.open(key.signer(), store, 1));
        store.overwrite(new byte[5]);
        assertThrows(KeyFormatException.class, () -> SequencedSigner.open(key.signer(), store, 1));
    }

    @Test
    void signIndexed_concurrentCallers_distinctIndices() throws Exception {
        SequencedSigner s = SequencedSigner.open(key.signer(), MemoryStateStore.empty("c"), 3);
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        assertTrue(seen.add(s.signIndexed(idx -> new byte[0]).index()));
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(200, seen.size());
    }
}
