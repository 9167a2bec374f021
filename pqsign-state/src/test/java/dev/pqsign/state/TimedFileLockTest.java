package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The timed blocking lock against a lock really held by another process. */
class TimedFileLockTest {

    @TempDir
    Path dir;

    private Path lockFile;
    private ChildJvm holder;

    @BeforeEach
    void startHolder() throws Exception {
        Path file = dir.resolve("key.state");
        FileStateStore.create(file, Counter.encode(0), Duration.ofSeconds(5)).close();
        lockFile = dir.resolve("key.state.lock");
        holder = StoreChild.start(dir, "hold", file.toString(), "1500");
        assertEquals("HOLDING", holder.awaitLine(1, 60_000), holder.stderr());
    }

    @AfterEach
    void stopHolder() throws Exception {
        holder.kill();
        Thread.interrupted();
    }

    private FileChannel open() throws Exception {
        return FileChannel.open(lockFile, StandardOpenOption.WRITE);
    }

    @Test
    void lock_heldElsewhereBeyondTimeout_returnsNullAfterTimeoutWithInterruptCleared() throws Exception {
        try (FileChannel ch = open()) {
            long t0 = System.nanoTime();
            assertNull(TimedFileLock.lock(ch, TimeUnit.MILLISECONDS.toNanos(200)));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms >= 195 && ms < 1400, "returned after " + ms + " ms");
            assertFalse(Thread.currentThread().isInterrupted(), "the timer's interrupt must not leak");
        }
    }

    @Test
    void lock_releasedBeforeTimeout_isAcquiredWhenHolderFinishes() throws Exception {
        try (FileChannel ch = open()) {
            FileLock lock = TimedFileLock.lock(ch, TimeUnit.SECONDS.toNanos(30));
            assertNotNull(lock);
            assertTrue(lock.isValid());
            assertEquals("DONE", holder.awaitLine(2, 30_000), holder.stderr());
            assertFalse(Thread.currentThread().isInterrupted());
            lock.release();
        }
    }

    @Test
    void lock_interruptedByAnotherThread_throwsAndKeepsInterruptStatus() throws Exception {
        Thread me = Thread.currentThread();
        Thread interrupter = new Thread(() -> {
            try {
                Thread.sleep(150);
            } catch (InterruptedException e) {
                return;
            }
            me.interrupt();
        });
        try (FileChannel ch = open()) {
            interrupter.start();
            assertThrows(InterruptedIOException.class, () -> TimedFileLock.lock(ch, TimeUnit.SECONDS.toNanos(30)));
            assertTrue(Thread.interrupted(), "interrupt status must be kept for the caller");
        } finally {
            interrupter.join();
        }
    }
}
