package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults from a real kernel rather than injected ones: a full tmpfs and a read-only bind mount.
 * Needs root and a kernel that lets this process mount; skipped (not failed) elsewhere.
 */
@EnabledOnOs(OS.LINUX)
class RealFaultTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    @RegisterExtension
    final Mounts mounts = new Mounts();

    private static byte[] pattern(int size, int seed) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    @Test
    void update_onFullTmpfs_failsAtWriteStepAndKeepsOldState() throws Exception {
        Path mp = Files.createDirectory(dir.resolve("tmpfs"));
        // 16 KiB = 4 pages: a 10 KiB state (3 pages) fits, a second 10 KiB copy beside it does not.
        mounts.mount(mp, "-t", "tmpfs", "-o", "size=16k,mode=0700", "tmpfs");
        Path file = mp.resolve("key.state");
        byte[] old = pattern(10 * 1024, 1);
        try (FileStateStore store = FileStateStore.create(file, old, TIMEOUT)) {
            DurableWriteException e =
                    assertThrows(DurableWriteException.class, () -> store.update(cur -> pattern(10 * 1024, 2)));
            assertEquals(WriteStep.WRITE_TEMP, e.step());
            assertTrue(
                    e.getMessage().contains("No space left on device")
                            && e.getMessage().contains(file.toString()),
                    e.getMessage());
            assertArrayEquals(old, store.read());
            assertEquals(List.of(), TempFiles.of(file));
            // A state that fits still goes through, and frees the old pages.
            byte[] small = pattern(2 * 1024, 3);
            store.update(cur -> small);
            assertArrayEquals(small, store.read());
        }
    }

    @Test
    void update_onReadOnlyBindMount_failsClearlyAndKeepsState() throws Exception {
        Path rw = Files.createDirectory(dir.resolve("rw"));
        Path file = rw.resolve("key.state");
        FileStateStore.create(file, Counter.encode(9), TIMEOUT).close();
        Path ro = Files.createDirectory(dir.resolve("ro"));
        mounts.mount(ro, "--bind", rw.toString());
        mounts.mount(ro, "-o", "remount,bind,ro");
        Path roFile = ro.resolve("key.state");
        try (FileStateStore store = FileStateStore.open(roFile, TIMEOUT)) {
            IOException e = assertThrows(IOException.class, () -> store.update(Counter::increment));
            // Exclusive locks need a writable descriptor, so the lock file is where it fails.
            assertTrue(
                    e.getMessage().contains(store.lockFile().toString())
                            && e.getMessage().contains("Read-only file system"),
                    e.getMessage());
            // Reads take the same exclusive lock, so they fail the same way; readAll still works.
            assertThrows(IOException.class, store::read);
        }
        assertEquals(9, Counter.decode(DurableFiles.readAll(roFile, 100)));
        DurableWriteException w = assertThrows(
                DurableWriteException.class, () -> DurableFiles.writeAtomically(roFile, Counter.encode(10)));
        assertEquals(WriteStep.OPEN_TEMP, w.step());
        assertTrue(w.getMessage().contains("Read-only file system"), w.getMessage());
        assertEquals(9, Counter.decode(Files.readAllBytes(file)));
        assertEquals(List.of(), TempFiles.of(file));
    }

    @Test
    void probeWritable_readOnlyMount_failsAndLeavesNothing_writableDirectory_leavesNothing() throws Exception {
        Path ro = Files.createDirectory(dir.resolve("ro-probe"));
        mounts.mount(ro, "-t", "tmpfs", "-o", "ro,size=16k", "tmpfs");
        IOException e = assertThrows(IOException.class, () -> DurableFiles.probeWritable(ro.resolve("m.sig")));
        assertTrue(e.getMessage().contains("Read-only file system"), e.getMessage());

        Path target = dir.resolve("m.sig");
        DurableFiles.probeWritable(target);
        assertEquals(List.of(), TempFiles.of(target));
        assertTrue(Files.notExists(target));
        assertThrows(
                NoSuchFileException.class,
                () -> DurableFiles.probeWritable(dir.resolve("missing").resolve("m.sig")));
    }
}
