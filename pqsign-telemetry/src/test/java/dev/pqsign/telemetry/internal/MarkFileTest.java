package dev.pqsign.telemetry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.KeyId;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkFileTest {

    @TempDir
    Path dir;

    private static KeyId key(int i) {
        return KeyId.ofPublicKey(new byte[] {(byte) i, (byte) (i >> 8), 7});
    }

    private Path file() {
        return dir.resolve("m.pqrm");
    }

    private MarkFile open() throws IOException {
        return MarkFile.open(file(), k -> 0);
    }

    /** Offset of record {@code r} (0 or 1) of the {@code pair}-th key. */
    private static long record(int pair, int r) {
        return MarkFile.HEADER_BYTES + (long) pair * MarkFile.PAIR_BYTES + (long) r * MarkFile.RECORD_BYTES;
    }

    private void overwrite(long offset, byte[] data) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file().toFile(), "rw")) {
            raf.seek(offset);
            raf.write(data);
        }
    }

    private static byte[] junk(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 0x5a);
        return b;
    }

    @Test
    void advance_strictlyNotBelowMark_survivesReopen_oneFixedPairPerKey() throws IOException {
        try (MarkFile m = open()) {
            assertEquals(MarkFile.HEADER_BYTES, Files.size(file()));
            assertEquals(0, m.read(key(1)));
            assertEquals(new MarkFile.Outcome(true, 6), m.advance(key(1), 5));
            assertEquals(new MarkFile.Outcome(false, 6), m.advance(key(1), 5), "same index again");
            assertEquals(new MarkFile.Outcome(false, 6), m.advance(key(1), 2), "older index");
            assertEquals(new MarkFile.Outcome(true, 1), m.advance(key(2), 0));
            assertEquals(new MarkFile.Outcome(true, 7), m.advance(key(1), 6));
            for (int i = 0; i < 20; i++) {
                assertTrue(m.advance(key(2), 10 + i).accepted());
            }
            assertEquals(MarkFile.HEADER_BYTES + 2 * MarkFile.PAIR_BYTES, Files.size(file()), "writes stay in place");
        }
        try (MarkFile m = open()) {
            assertEquals(7, m.read(key(1)));
            assertEquals(30, m.read(key(2)));
            assertFalse(m.advance(key(2), 29).accepted());
            assertEquals(0, m.read(key(3)));
        }
    }

    @Test
    void advance_badIndex_refused() throws IOException {
        try (MarkFile m = open()) {
            assertThrows(IllegalArgumentException.class, () -> m.advance(key(1), -1));
            assertThrows(IllegalArgumentException.class, () -> m.advance(key(1), Long.MAX_VALUE));
            assertTrue(m.advance(key(1), Long.MAX_VALUE - 1).accepted());
            assertEquals(Long.MAX_VALUE, m.read(key(1)));
        }
    }

    @Test
    void tornNewestRecord_readsPreviousMark_andNextWriteReplacesTheTornOne() throws IOException {
        try (MarkFile m = open()) {
            m.advance(key(1), 0); // pair 0: record 0 gen 1 (mark 0), record 1 gen 2 (mark 1)
            m.advance(key(1), 1); // record 0 gen 3 (mark 2)
        }
        overwrite(record(0, 0) + 40, junk(30)); // a crash while writing generation 3
        try (MarkFile m = open()) {
            assertEquals(1, m.read(key(1)), "generation 2 is intact");
            assertTrue(m.advance(key(1), 4).accepted()); // must go into the torn record 0
            assertEquals(5, m.read(key(1)));
        }
        overwrite(record(0, 1) + 10, junk(5)); // record 1 (generation 2) damaged later: record 0 carries the mark
        try (MarkFile m = open()) {
            assertEquals(5, m.read(key(1)));
        }
    }

    @Test
    void tornFirstWriteOfAKey_isAFreePair_reusedByTheNextKey() throws IOException {
        try (MarkFile m = open()) {
            m.advance(key(1), 3);
        }
        // A new key's first record torn by a crash (its second record never written: zero).
        overwrite(record(1, 0), junk(50));
        overwrite(record(1, 1), new byte[MarkFile.RECORD_BYTES]);
        try (MarkFile m = open()) {
            assertEquals(4, m.read(key(1)));
            assertTrue(m.advance(key(2), 9).accepted());
            assertEquals(MarkFile.HEADER_BYTES + 2 * MarkFile.PAIR_BYTES, Files.size(file()), "pair 1 was reused");
        }
        // An append cut short: only part of the pair reached the file.
        try (RandomAccessFile raf = new RandomAccessFile(file().toFile(), "rw")) {
            raf.seek(record(2, 0));
            raf.write(junk(70));
        }
        try (MarkFile m = open()) {
            assertEquals(10, m.read(key(2)));
            assertTrue(m.advance(key(3), 1).accepted());
            assertEquals(MarkFile.HEADER_BYTES + 3 * MarkFile.PAIR_BYTES, Files.size(file()));
        }
        try (MarkFile m = open()) {
            assertEquals(2, m.read(key(3)));
        }
    }

    @Test
    void pairWithDataButNoValidRecord_refusedForLookupsThatNeedIt() throws IOException {
        try (MarkFile m = open()) {
            m.advance(key(1), 3);
            m.advance(key(2), 5);
            m.advance(key(2), 6);
        }
        overwrite(record(1, 0), junk(MarkFile.RECORD_BYTES));
        overwrite(record(1, 1), junk(MarkFile.RECORD_BYTES));
        try (MarkFile m = open()) {
            assertEquals(4, m.read(key(1)), "key 1's pair comes first and is intact");
            IOException e = assertThrows(IOException.class, () -> m.advance(key(2), 7));
            assertTrue(e.getMessage().contains("corrupted"), e.getMessage());
            assertThrows(IOException.class, () -> m.read(key(3)), "key 3 might have been that pair: no guess");
            assertTrue(m.advance(key(1), 4).accepted(), "other keys keep working");
        }
    }

    @Test
    void advance_markWithLargestGeneration_refusedAndNotAcceptedAfterReopen() throws IOException {
        try (MarkFile m = open()) {
            assertEquals(0, m.read(key(1))); // claims pair 0
        }
        // found by ReplayMarkFuzzTest: generation + 1 wrapped to a negative generation, which no
        // reader counts, so after a reopen the old mark was back and index 0 was accepted again
        overwrite(record(0, 0), MarkFile.encodeRecord(MarkFile.KIND_MARK, Long.MAX_VALUE, key(1).bytes(), 0));
        try (MarkFile m = open()) {
            assertThrows(IOException.class, () -> m.advance(key(1), 0));
            assertEquals(0, m.read(key(1)), "reading the mark still works");
        }
        try (MarkFile m = open()) {
            assertThrows(IOException.class, () -> m.advance(key(1), 0));
        }
    }

    @Test
    void recordOfAnotherKeyInAKnownPair_refused() throws IOException {
        try (MarkFile m = open()) {
            m.advance(key(1), 3);
            m.advance(key(2), 5);
            // Someone puts key 2's record into key 1's pair while the file is open.
            overwrite(record(0, 1), MarkFile.encodeRecord(MarkFile.KIND_MARK, 9, key(2).bytes(), 100));
            assertThrows(IOException.class, () -> m.advance(key(1), 200));
        }
        overwrite(record(0, 0), MarkFile.encodeRecord(MarkFile.KIND_MARK, 1, key(1).bytes(), 0));
        try (MarkFile m = open()) {
            assertThrows(IOException.class, () -> m.read(key(1)), "two keys in one pair");
        }
    }

    @Test
    void notAMarkFile_refused() throws IOException {
        Files.write(file(), new byte[MarkFile.HEADER_BYTES]);
        assertTrue(assertThrows(IOException.class, this::open).getMessage().contains("not a replay mark file"));
        Files.write(file(), new byte[10]);
        assertThrows(IOException.class, this::open);
        byte[] header =
                Arrays.copyOf(MarkFile.encodeRecord(MarkFile.KIND_HEADER, 0, new byte[32], 0), MarkFile.HEADER_BYTES);
        header[4] = 2; // a future version (checksum now wrong as well)
        Files.write(file(), header);
        assertThrows(IOException.class, this::open);
        byte[] huge = Arrays.copyOf(
                MarkFile.encodeRecord(MarkFile.KIND_HEADER, 0, new byte[32], 0),
                MarkFile.HEADER_BYTES + (MarkFile.MAX_KEYS + 1) * MarkFile.PAIR_BYTES);
        Files.write(file(), huge);
        assertTrue(assertThrows(IOException.class, this::open).getMessage().contains("bytes"));
    }

    @Test
    void waitingRequests_shareOneFlush() throws Exception {
        CountDownLatch inFirstCommit = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        KeyId slow = key(100);
        try (MarkFile m = MarkFile.open(file(), k -> {
            if (k.equals(slow)) {
                inFirstCommit.countDown();
                try {
                    release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return 0;
        })) {
            for (int i = 0; i < 8; i++) {
                m.read(key(i));
            }
            long[] before = m.flushStatistics();
            ExecutorService pool = Executors.newFixedThreadPool(9);
            try {
                Future<MarkFile.Outcome> first = pool.submit(() -> m.advance(slow, 1));
                assertTrue(inFirstCommit.await(20, TimeUnit.SECONDS));
                List<Future<MarkFile.Outcome>> rest = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    int k = i;
                    rest.add(pool.submit(() -> m.advance(key(k), 10 + k)));
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (m.waitingCount() < 8 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertEquals(8, m.waitingCount(), "eight requests queued behind the first group");
                release.countDown();
                assertTrue(first.get().accepted());
                for (int i = 0; i < 8; i++) {
                    assertEquals(new MarkFile.Outcome(true, 11 + i), rest.get(i).get());
                }
            } finally {
                release.countDown();
                pool.shutdownNow();
            }
            long[] after = m.flushStatistics();
            assertEquals(2, after[0] - before[0], "the first request's flush, then one flush for the other eight");
            assertEquals(9, after[1] - before[1]);
        }
        try (MarkFile m = open()) {
            for (int i = 0; i < 8; i++) {
                assertEquals(11 + i, m.read(key(i)), "every grouped mark is durable");
            }
        }
    }

    @Test
    void advanceUnflushed_decidedAndSeenAtOnce_flushedOnlyBySync_onceForAllOfThem() throws IOException {
        try (MarkFile m = open();
                MarkFile other = open()) { // another process sharing the file
            m.advance(key(1), 0);
            long[] before = m.flushStatistics();
            for (int i = 1; i <= 10; i++) {
                assertEquals(new MarkFile.Outcome(true, i + 1), m.advanceUnflushed(key(1), i));
            }
            assertEquals(new MarkFile.Outcome(false, 11), m.advanceUnflushed(key(1), 7), "decided as by advance");
            assertEquals(
                    new MarkFile.Outcome(false, 11),
                    other.advance(key(1), 10),
                    "the unflushed mark is in the file: no one else accepts index 10 again");
            assertEquals(before[0], m.flushStatistics()[0], "written, not flushed");
            m.sync();
            long[] after = m.flushStatistics();
            assertEquals(1, after[0] - before[0], "one flush for the ten marks");
            assertEquals(10, after[1] - before[1], "carrying the ten advances");
            m.sync();
            assertEquals(after[0], m.flushStatistics()[0], "nothing written since: no flush");
        }
        try (MarkFile m = open()) {
            assertEquals(11, m.read(key(1)));
        }
    }

    @Test
    void sync_afterAFlushingAdvance_hasNothingLeftToFlush() throws IOException {
        try (MarkFile m = open()) {
            m.advanceUnflushed(key(1), 1);
            m.advance(key(2), 5); // its flush carries key 1's mark too
            long flushes = m.flushStatistics()[0];
            m.sync();
            assertEquals(flushes, m.flushStatistics()[0]);
        }
    }

    @Test
    void sync_closedFile_throws() throws IOException {
        MarkFile m = open();
        m.advanceUnflushed(key(1), 1);
        m.close();
        assertThrows(IllegalStateException.class, m::sync);
    }

    @Test
    void interruptedCaller_groupStillWrittenAndInterruptKept() throws IOException {
        try (MarkFile m = open()) {
            m.advance(key(1), 1);
            Thread.currentThread().interrupt();
            try {
                assertTrue(m.advance(key(1), 2).accepted(), "a pending interrupt does not fail the flush");
                assertTrue(Thread.currentThread().isInterrupted(), "and is kept for the caller");
            } finally {
                Thread.interrupted();
            }
            assertEquals(3, m.read(key(1)));
        }
    }

    @Test
    void concurrentAdvancesThroughTwoInstances_eachIndexAcceptedOnceAndMarksIncrease() throws Exception {
        int keys = 3;
        int indices = 150;
        AtomicIntegerArray acceptedCount = new AtomicIntegerArray(keys * indices);
        try (MarkFile a = open();
                MarkFile b = open()) {
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    MarkFile m = t % 2 == 0 ? a : b;
                    int k = t % keys;
                    futures.add(pool.submit(() -> {
                        long last = -1;
                        for (int i = 0; i < indices; i++) {
                            MarkFile.Outcome o = m.advance(key(k), i);
                            if (o.accepted()) {
                                acceptedCount.incrementAndGet(k * indices + i);
                            }
                            assertTrue(o.nextAcceptable() >= last, "a key's mark never goes back");
                            assertTrue(
                                    o.accepted() ? o.nextAcceptable() == i + 1 : o.nextAcceptable() > i,
                                    "accepted means the mark is now i + 1, refused means it was already above i");
                            last = o.nextAcceptable();
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
            for (int i = 0; i < acceptedCount.length(); i++) {
                assertTrue(acceptedCount.get(i) <= 1, "index accepted twice: " + i);
            }
            for (int k = 0; k < keys; k++) {
                assertEquals(indices, a.read(key(k)));
                assertEquals(1, acceptedCount.get(k * indices + indices - 1), "the last index is always accepted once");
            }
        }
    }
}
