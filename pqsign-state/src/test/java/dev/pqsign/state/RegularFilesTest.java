package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real special files (a FIFO made with mkfifo, a Unix socket, a device, a directory, symbolic links)
 * are refused by type before they are opened, with one line naming the file and what it is; a FIFO
 * without a writer would block the open forever, so each test has a timeout on its own thread.
 */
class RegularFilesTest {

    @TempDir
    Path dir;

    private Path fifo(String name) throws IOException, InterruptedException {
        assumeTrue(FileOps.POSIX, "POSIX only");
        Path p = dir.resolve(name);
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertTrue(mk.waitFor(30, TimeUnit.SECONDS), "mkfifo did not end");
        assertEquals(0, mk.exitValue(), "mkfifo failed");
        return p;
    }

    private static String refusal(Path file) {
        return assertThrows(NotRegularFileException.class, () -> RegularFiles.openForReading(file))
                .getMessage();
    }

    @Test
    void openForReading_regularFile_readsIt() throws IOException {
        Path f = dir.resolve("f");
        Files.write(f, new byte[] {1, 2, 3});
        try (FileChannel ch = RegularFiles.openForReading(f)) {
            ByteBuffer b = ByteBuffer.allocate(3);
            ch.read(b);
            assertArrayEquals(new byte[] {1, 2, 3}, b.array());
        }
    }

    @Test
    void openForReading_symbolicLinkToRegularFile_readsIt() throws IOException {
        Path f = dir.resolve("f");
        Files.write(f, new byte[] {7});
        Path link = Files.createSymbolicLink(dir.resolve("link"), f);
        try (FileChannel ch = RegularFiles.openForReading(link)) {
            assertEquals(1, ch.size());
        }
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void openForReading_fifoWithoutWriter_refusedAtOnce() throws Exception {
        Path p = fifo("handovers.pqhc");
        String message = refusal(p);
        assertEquals(p + ": is a named pipe (FIFO), not a regular file; refusing to open it", message);
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void openForReading_symbolicLinkToFifo_refusedNamingBoth() throws Exception {
        Path p = fifo("pipe");
        Path link = Files.createSymbolicLink(dir.resolve("key.pub"), p);
        assertEquals(
                link + ": is a symbolic link to a named pipe (FIFO), not a regular file; refusing to open it",
                refusal(link));
    }

    @Test
    void openForReading_directory_refused() {
        assertEquals(dir + ": is a directory, not a regular file; refusing to open it", refusal(dir));
    }

    @Test
    void openForReading_characterDevice_refused() {
        Path dev = Path.of("/dev/null");
        assumeTrue(Files.exists(dev));
        assertEquals(dev + ": is a character device, not a regular file; refusing to open it", refusal(dev));
    }

    @Test
    void openForReading_unixSocket_refused() throws IOException {
        assumeTrue(FileOps.POSIX, "POSIX only");
        Path sock = dir.resolve("s");
        try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            s.bind(UnixDomainSocketAddress.of(sock));
            assertEquals(sock + ": is a socket, not a regular file; refusing to open it", refusal(sock));
        }
    }

    @Test
    void openForReading_missingFileOrDanglingLink_noSuchFile() throws IOException {
        Path missing = dir.resolve("missing");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RegularFiles.openForReading(missing));
        assertEquals(missing + ": file does not exist", e.getMessage());
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), missing);
        assertThrows(NoSuchFileException.class, () -> RegularFiles.openForReading(dangling));
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void requireRegular_fifo_refusedWithoutOpening() throws Exception {
        Path p = fifo("history.pqhl");
        NotRegularFileException e = assertThrows(NotRegularFileException.class, () -> RegularFiles.requireRegular(p));
        assertEquals("a named pipe (FIFO)", e.kind());
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void readAll_fifo_refusedAtOnce() throws Exception {
        Path p = fifo("key.state");
        assertThrows(NotRegularFileException.class, () -> DurableFiles.readAll(p, 1024));
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void fileStateStore_fifoAsStateOrLockFile_refusedWhenOpened() throws Exception {
        Path lock = fifo("key.state" + FileStateStore.LOCK_SUFFIX);
        assertThrows(NotRegularFileException.class, () -> FileStateStore.open(dir.resolve("key.state")));
        Files.delete(lock);
        Path state = fifo("key.state");
        assertThrows(NotRegularFileException.class, () -> FileStateStore.open(state));
    }
}
