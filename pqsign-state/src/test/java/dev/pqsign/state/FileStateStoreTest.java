package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FileStateStoreTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private Path stateFile() {
        return dir.resolve("key.state");
    }

    @Test
    void create_thenRead_returnsInitialState() throws IOException {
        try (FileStateStore store = FileStateStore.create(stateFile(), Counter.encode(7), TIMEOUT)) {
            assertEquals(7, Counter.decode(store.read()));
            assertEquals(stateFile().toRealPath().toString(), store.describe());
            assertEquals(stateFile().resolveSibling("key.state.lock").toRealPath(), store.lockFile());
        }
    }

    @Test
    void update_appliesFunctionToCurrentDiskStateAndReturnsWrittenBytes() throws IOException {
        try (FileStateStore store = FileStateStore.create(stateFile(), Counter.encode(0), TIMEOUT)) {
            byte[] written = store.update(Counter::increment);
            assertEquals(1, Counter.decode(written));
            assertArrayEquals(written, Files.readAllBytes(stateFile()));
            // Another writer (here: a second store object) advances the file; the first store must
            // see that, not a cached copy.
            try (FileStateStore other = FileStateStore.open(stateFile(), TIMEOUT)) {
                other.update(cur -> Counter.encode(100));
            }
            assertEquals(101, Counter.decode(store.update(Counter::increment)));
            assertEquals(List.of(), TempFiles.of(stateFile()));
        }
    }

    @Test
    void create_whenStateExists_throwsAndKeepsExistingState() throws IOException {
        FileStateStore.create(stateFile(), Counter.encode(42), TIMEOUT).close();
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT)) {
            FileAlreadyExistsException e =
                    assertThrows(FileAlreadyExistsException.class, () -> store.create(Counter.encode(0)));
            assertTrue(e.getMessage().contains(store.describe()), e.getMessage());
            assertEquals(42, Counter.decode(store.read()));
        }
    }

    @Test
    void readAndUpdate_missingState_throwClearErrorAndCreateNoLockFile() throws IOException {
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT)) {
            NoSuchFileException r = assertThrows(NoSuchFileException.class, store::read);
            assertTrue(
                    r.getMessage().contains(stateFile().toString())
                            && r.getMessage().contains("does not exist"),
                    r.getMessage());
            assertThrows(NoSuchFileException.class, () -> store.update(Counter::increment));
            assertFalse(Files.exists(store.lockFile()));
        }
    }

    @Test
    void open_missingDirectory_throwsNamingIt() {
        Path f = dir.resolve("no-such-dir").resolve("key.state");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> FileStateStore.open(f, TIMEOUT));
        assertTrue(e.getMessage().contains("no-such-dir"), e.getMessage());
    }

    @Test
    void open_symlinkedStateFile_isRejected() throws IOException {
        Path real = dir.resolve("real.state");
        Files.write(real, Counter.encode(1));
        Path link = Files.createSymbolicLink(dir.resolve("link.state"), real);
        IOException e = assertThrows(IOException.class, () -> FileStateStore.open(link, TIMEOUT));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void update_functionThrows_writesNothingAndPropagates() throws IOException {
        try (FileStateStore store = FileStateStore.create(stateFile(), Counter.encode(5), TIMEOUT)) {
            byte[] before = Files.readAllBytes(stateFile());
            Object inodeBefore = Files.getAttribute(stateFile(), "unix:ino");
            IOException thrown = new IOException("key exhausted");
            assertSame(
                    thrown,
                    assertThrows(
                            IOException.class,
                            () -> store.update(cur -> {
                                throw thrown;
                            })));
            assertThrows(
                    IllegalStateException.class,
                    () -> store.update(cur -> {
                        throw new IllegalStateException("wrong key");
                    }));
            assertArrayEquals(before, Files.readAllBytes(stateFile()));
            // Not even rewritten with equal bytes: the file is the same inode.
            assertEquals(inodeBefore, Files.getAttribute(stateFile(), "unix:ino"));
        }
    }

    @Test
    void update_functionReturnsNullEmptyOrOversized_writesNothing() throws IOException {
        try (FileStateStore store = FileStateStore.create(stateFile(), Counter.encode(5), TIMEOUT)) {
            IllegalStateException n = assertThrows(IllegalStateException.class, () -> store.update(cur -> null));
            assertTrue(n.getMessage().contains("null"), n.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.update(cur -> new byte[0]));
            IllegalArgumentException big = assertThrows(
                    IllegalArgumentException.class,
                    () -> store.update(cur -> new byte[FileStateStore.MAX_STATE_BYTES + 1]));
            assertTrue(big.getMessage().contains(String.valueOf(FileStateStore.MAX_STATE_BYTES + 1)), big.getMessage());
            assertEquals(5, Counter.decode(store.read()));
        }
    }

    @Test
    void update_stateAtSizeLimit_roundTrips() throws IOException {
        byte[] max = new byte[FileStateStore.MAX_STATE_BYTES];
        max[max.length - 1] = 9;
        try (FileStateStore store = FileStateStore.create(stateFile(), new byte[] {1}, TIMEOUT)) {
            store.update(cur -> max);
            assertArrayEquals(max, store.read());
        }
    }

    @Test
    void read_oversizedFile_isRejectedWithSizeAndPath() throws IOException {
        Files.write(stateFile(), new byte[FileStateStore.MAX_STATE_BYTES + 1]);
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT)) {
            IOException e = assertThrows(IOException.class, store::read);
            assertTrue(
                    e.getMessage().contains(stateFile().toString())
                            && e.getMessage().contains((FileStateStore.MAX_STATE_BYTES + 1) + " bytes"),
                    e.getMessage());
            assertThrows(IOException.class, () -> store.update(cur -> Counter.encode(0)));
            assertEquals(FileStateStore.MAX_STATE_BYTES + 1, Files.size(stateFile()));
        }
    }

    @Test
    void read_emptyFile_isRejectedAsTruncated() throws IOException {
        Files.write(stateFile(), new byte[0]);
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT)) {
            IOException e = assertThrows(IOException.class, store::read);
            assertTrue(
                    e.getMessage().contains("empty")
                            && e.getMessage().contains(stateFile().toString()),
                    e.getMessage());
        }
    }

    @Test
    void create_emptyInitialState_isRejected() throws IOException {
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT)) {
            assertThrows(IllegalArgumentException.class, () -> store.create(new byte[0]));
            assertFalse(Files.exists(stateFile()));
        }
    }

    @Test
    void leftoverTempFromCrash_isNeverReadAndIsDeletedOnFirstLock() throws IOException {
        FileStateStore.create(stateFile(), Counter.encode(3), TIMEOUT).close();
        // What a writer killed between write and rename leaves behind: a newer-looking temp.
        Path leftover = dir.resolve(".key.state" + DurableFiles.TEMP_MARKER + "00000000deadbeef");
        Files.write(leftover, Counter.encode(999));
        Path unrelated = dir.resolve(".other.state" + DurableFiles.TEMP_MARKER + "00000000deadbeef");
        Files.write(unrelated, Counter.encode(1));
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT)) {
            assertEquals(3, Counter.decode(store.read()));
            assertFalse(Files.exists(leftover), "leftover temp should be deleted");
            assertTrue(Files.exists(unrelated), "temp of another file must not be touched");
            assertEquals(4, Counter.decode(store.update(Counter::increment)));
        }
    }

    @Test
    void update_nestedOnSameFile_isRejectedInsteadOfDeadlocking() throws IOException {
        try (FileStateStore store = FileStateStore.create(stateFile(), Counter.encode(0), TIMEOUT);
                FileStateStore second = FileStateStore.open(dir.resolve(".").resolve("key.state"), TIMEOUT)) {
            IllegalStateException e = assertThrows(
                    IllegalStateException.class, () -> store.update(cur -> second.update(Counter::increment)));
            assertTrue(e.getMessage().contains("nested"), e.getMessage());
            assertEquals(0, Counter.decode(store.read()));
        }
    }

    @Test
    void closedStore_rejectsOperations() throws IOException {
        FileStateStore store = FileStateStore.create(stateFile(), Counter.encode(0), TIMEOUT);
        store.close();
        store.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, store::read);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertEquals(0, Counter.decode(Files.readAllBytes(stateFile())));
    }

    @Test
    void twoStoresViaDifferentPathSpellings_excludeEachOtherInOneJvm() throws Exception {
        FileStateStore.create(stateFile(), Counter.encode(0), TIMEOUT).close();
        Path viaSymlinkedDir =
                Files.createSymbolicLink(dir.resolve("alias"), dir).resolve("key.state");
        StateStore holder = FileStateStore.open(stateFile(), TIMEOUT);
        FileStateStore waiter = FileStateStore.open(viaSymlinkedDir, Duration.ofMillis(200));
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<byte[]> holding = pool.submit(() -> holder.update(cur -> {
                inside.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Counter.increment(cur);
            }));
            assertTrue(inside.await(10, TimeUnit.SECONDS));
            long t0 = System.nanoTime();
            StateLockTimeoutException e =
                    assertThrows(StateLockTimeoutException.class, () -> waiter.update(Counter::increment));
            long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(waitedMs >= 190, "gave up after " + waitedMs + " ms");
            assertTrue(
                    e.getMessage().contains("another thread of this process")
                            && e.getMessage().contains("200 ms")
                            && e.getMessage().contains("key.state"),
                    e.getMessage());
            release.countDown();
            assertEquals(1, Counter.decode(holding.get(10, TimeUnit.SECONDS)));
            assertEquals(2, Counter.decode(waiter.update(Counter::increment)));
        } finally {
            release.countDown();
            pool.shutdownNow();
            holder.close();
            waiter.close();
        }
    }

    @Test
    void update_interruptedThread_failsWithoutWritingAndStoreStaysUsable() throws IOException {
        try (FileStateStore store = FileStateStore.create(stateFile(), Counter.encode(1), TIMEOUT)) {
            Thread.currentThread().interrupt();
            try {
                assertThrows(java.io.InterruptedIOException.class, () -> store.update(Counter::increment));
            } finally {
                Thread.interrupted();
            }
            assertEquals(1, Counter.decode(Files.readAllBytes(stateFile())));
            assertEquals(List.of(), TempFiles.of(stateFile()));
            assertEquals(2, Counter.decode(store.update(Counter::increment)));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WriteStep.class,
            names = {"OPEN_TEMP", "WRITE_TEMP", "FORCE_TEMP", "CLOSE_TEMP", "RENAME"})
    void update_injectedFaultBeforeRename_keepsOldStateNoTempAndNamesStep(WriteStep step) throws IOException {
        FileStateStore.create(stateFile(), Counter.encode(10), TIMEOUT).close();
        FaultyFileOps ops = new FaultyFileOps(step);
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT, ops)) {
            DurableWriteException e = assertThrows(DurableWriteException.class, () -> store.update(Counter::increment));
            assertTrue(ops.fired());
            assertEquals(step, e.step());
            assertTrue(
                    e.getMessage().contains(step.description())
                            && e.getMessage().contains(store.describe()),
                    e.getMessage());
            assertEquals(10, Counter.decode(Files.readAllBytes(stateFile())));
            assertEquals(List.of(), TempFiles.of(stateFile()));
            // The failure is not sticky in the store: the next update starts from the disk again.
            assertEquals(11, Counter.decode(store.update(Counter::increment)));
        }
    }

    @Test
    void update_injectedDirectorySyncFault_reportsItAndLeavesWholeNewState() throws IOException {
        FileStateStore.create(stateFile(), Counter.encode(10), TIMEOUT).close();
        try (FileStateStore store =
                FileStateStore.open(stateFile(), TIMEOUT, new FaultyFileOps(WriteStep.FORCE_DIRECTORY))) {
            DurableWriteException e = assertThrows(DurableWriteException.class, () -> store.update(Counter::increment));
            assertEquals(WriteStep.FORCE_DIRECTORY, e.step());
            assertTrue(e.getMessage().contains("may not survive"), e.getMessage());
            // Either value would be safe for a signer that releases nothing after the exception;
            // the rename did happen, so the file is the whole new state.
            assertEquals(11, Counter.decode(store.read()));
            assertEquals(List.of(), TempFiles.of(stateFile()));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WriteStep.class,
            names = {"OPEN_TEMP", "WRITE_TEMP", "FORCE_TEMP", "CLOSE_TEMP", "LINK"})
    void create_injectedFault_leavesNoStateAndNoTemp(WriteStep step) throws IOException {
        try (FileStateStore store = FileStateStore.open(stateFile(), TIMEOUT, new FaultyFileOps(step))) {
            DurableWriteException e = assertThrows(DurableWriteException.class, () -> store.create(Counter.encode(0)));
            assertEquals(step, e.step());
            assertFalse(Files.exists(stateFile()));
            assertEquals(List.of(), TempFiles.of(stateFile()));
            store.create(Counter.encode(0));
            assertEquals(0, Counter.decode(store.read()));
        }
    }
}
