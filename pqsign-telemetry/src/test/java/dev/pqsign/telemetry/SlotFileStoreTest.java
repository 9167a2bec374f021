package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.FileStateStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlotFileStoreTest {

    @TempDir
    Path dir;

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    @Test
    void createReadUpdate_roundTripAndSurviveReopen() throws IOException {
        Path f = dir.resolve("s.marks");
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertFalse(s.exists());
            assertThrows(NoSuchFileException.class, s::read);
            s.create(bytes(1, 2, 3));
            assertEquals(SlotFileStore.FILE_BYTES, Files.size(f));
            assertArrayEquals(bytes(1, 2, 3), s.read());
            for (int i = 4; i < 10; i++) {
                int v = i;
                assertArrayEquals(bytes(v), s.update(cur -> bytes(v)));
            }
            assertEquals(SlotFileStore.FILE_BYTES, Files.size(f), "the file never grows");
        }
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertArrayEquals(bytes(9), s.read());
            assertThrows(FileAlreadyExistsException.class, () -> s.create(bytes(0)));
            assertArrayEquals(bytes(9), s.read());
        }
    }

    @Test
    void tornNewestSlot_readsPreviousState() throws IOException {
        Path f = dir.resolve("s.marks");
        try (SlotFileStore s = SlotFileStore.open(f)) {
            s.create(bytes(1));
            s.update(cur -> bytes(2)); // slot 1, generation 2
            s.update(cur -> bytes(3)); // slot 0, generation 3
        }
        // A crash in the middle of writing generation 3 into slot 0: part of it holds other bytes.
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            byte[] junk = new byte[100];
            java.util.Arrays.fill(junk, (byte) 0x5a);
            raf.seek(300);
            raf.write(junk);
        }
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertArrayEquals(bytes(2), s.read());
            s.update(cur -> bytes(4)); // must overwrite the torn slot, not the intact one
            assertArrayEquals(bytes(4), s.read());
        }
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertArrayEquals(bytes(4), s.read());
        }
    }

    @Test
    void update_stateWithLargestGeneration_refusedAndStateKept() throws IOException {
        Path f = dir.resolve("s.marks");
        try (SlotFileStore s = SlotFileStore.open(f)) {
            s.create(bytes(1));
        }
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(SlotFileStore.SLOT_BYTES);
            raf.write(SlotFileStore.encodeSlot(Long.MAX_VALUE, bytes(7)));
        }
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertArrayEquals(bytes(7), s.read());
            // generation + 1 would wrap to a negative one, which the reader ignores: state 7 would come back
            assertThrows(IOException.class, () -> s.update(cur -> bytes(8)));
        }
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertArrayEquals(bytes(7), s.read());
        }
    }

    @Test
    void noValidSlotOrWrongSize_refused() throws IOException {
        Path f = dir.resolve("s.marks");
        Files.write(f, new byte[SlotFileStore.FILE_BYTES]);
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertTrue(assertThrows(IOException.class, s::read).getMessage().contains("no valid slot"));
        }
        Files.write(f, new byte[45]);
        try (SlotFileStore s = SlotFileStore.open(f)) {
            assertThrows(IOException.class, s::read);
            assertThrows(IOException.class, () -> s.update(cur -> cur));
        }
    }

    @Test
    void oversizedState_refusedAndNothingWritten() throws IOException {
        try (SlotFileStore s = SlotFileStore.open(dir.resolve("s.marks"))) {
            assertThrows(IllegalArgumentException.class, () -> s.create(new byte[SlotFileStore.MAX_STATE_BYTES + 1]));
            s.create(bytes(7));
            assertThrows(
                    IllegalArgumentException.class, () -> s.update(cur -> new byte[SlotFileStore.MAX_STATE_BYTES + 1]));
            assertArrayEquals(bytes(7), s.read());
        }
    }

    @Test
    void concurrentUpdatesThroughTwoStores_noneLost() throws Exception {
        Path f = dir.resolve("s.marks");
        try (SlotFileStore a = SlotFileStore.open(f);
                SlotFileStore b = SlotFileStore.open(f)) {
            a.create(new byte[8]);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    SlotFileStore s = t % 2 == 0 ? a : b;
                    futures.add(pool.submit(() -> {
                        for (int i = 0; i < 50; i++) {
                            s.update(cur -> {
                                long v = StateCodec.getLong(cur, 0) + 1;
                                StateCodec.putLong(cur, 0, v);
                                return cur;
                            });
                        }
                        return null;
                    }));
                }
                for (Future<?> fu : futures) {
                    fu.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(200, StateCodec.getLong(b.read(), 0));
        }
    }

    @Test
    void replayGuard_carriesOverPreviousFileStateStoreState() throws IOException {
        KeyId key = KeyId.ofPublicKey(bytes(1, 2, 3));
        Path replay = dir.resolve("replay");
        Files.createDirectories(replay);
        // What earlier versions wrote: <key id hex>.replay through FileStateStore, last accepted 41.
        FileStateStore.create(
                        replay.resolve(key.hex() + ".replay"),
                        ReplayGuard.encode(key, 42),
                        FileStateStore.DEFAULT_LOCK_TIMEOUT)
                .close();
        try (ReplayGuard g = ReplayGuard.inDirectory(replay)) {
            assertEquals(41, g.lastAccepted(key));
            assertFalse(g.tryAccept(key, 41));
            assertTrue(g.tryAccept(key, 43));
        }
        assertTrue(Files.exists(replay.resolve(ReplayGuard.MARK_FILE_NAME)));
        assertFalse(Files.exists(replay.resolve(key.hex() + ".marks")), "the old file is only read");
        try (ReplayGuard g = ReplayGuard.inDirectory(replay)) {
            assertEquals(43, g.lastAccepted(key), "the mark file, not the old file, is authoritative");
        }
    }
}
