package dev.pqsign.state;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A blocking exclusive {@link FileChannel#lock()} with a timeout.
 *
 * <p>Why not poll {@code tryLock()}: a process that updates in a loop releases the lock for only a
 * few microseconds between updates, so a poller almost never catches it free and waits for seconds
 * (docs/state-durability.md has the measurements). A blocked {@code fcntl(F_SETLKW)} waiter is woken
 * by the kernel at the release instead. The JDK offers no timed variant, so a timer interrupts the
 * waiting thread at the deadline;
 * the interrupt closes the channel, which the caller opened for this one acquisition anyway.
 */
final class TimedFileLock {

    private static final int WAITING = 0;
    private static final int FINISHED = 1;
    private static final int TIMED_OUT = 2;

    private static final ScheduledThreadPoolExecutor TIMER = newTimer();

    private TimedFileLock() {}

    private static ScheduledThreadPoolExecutor newTimer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "pqsign-state-lock-timeout");
            thread.setDaemon(true);
            return thread;
        });
        // Almost every timer is cancelled long before it fires; do not keep them queued.
        t.setRemoveOnCancelPolicy(true);
        return t;
    }

    /**
     * Blocks until the exclusive lock on {@code channel} is acquired or {@code timeoutNanos} have
     * passed.
     *
     * @return the lock, or {@code null} on timeout (the channel is then closed)
     * @throws InterruptedIOException if the thread was interrupted by someone else while waiting (its
     *     interrupt status stays set)
     */
    static FileLock lock(FileChannel channel, long timeoutNanos) throws IOException {
        Thread waiter = Thread.currentThread();
        AtomicInteger phase = new AtomicInteger(WAITING);
        ScheduledFuture<?> timer = TIMER.schedule(
                () -> {
                    if (phase.compareAndSet(WAITING, TIMED_OUT)) {
                        waiter.interrupt();
                    }
                },
                timeoutNanos,
                TimeUnit.NANOSECONDS);
        FileLock lock;
        try {
            lock = channel.lock();
        } catch (FileLockInterruptionException | ClosedByInterruptException e) {
            if (phase.compareAndSet(WAITING, FINISHED)) {
                timer.cancel(false);
                InterruptedIOException ie = new InterruptedIOException("interrupted while waiting for a file lock");
                ie.initCause(e);
                throw ie;
            }
            // Our timer interrupted us. (Should another thread have interrupted us at the very same
            // moment, that interrupt is absorbed too; the caller sees a timeout.)
            absorbTimerInterrupt(timer);
            return null;
        } catch (IOException | RuntimeException | Error e) {
            if (phase.compareAndSet(WAITING, FINISHED)) {
                timer.cancel(false);
            } else {
                absorbTimerInterrupt(timer);
            }
            throw e;
        }
        if (phase.compareAndSet(WAITING, FINISHED)) {
            timer.cancel(false);
        } else {
            // The timer fired just as the lock was granted. We hold the lock, so use it; the
            // interrupt arrived outside any channel operation and only needs to be cleared before
            // the caller's first I/O, which would otherwise close the channel.
            absorbTimerInterrupt(timer);
        }
        return lock;
    }

    /** Waits (without being interruptible) until the timer's interrupt was sent, then clears it. */
    private static void absorbTimerInterrupt(ScheduledFuture<?> timer) {
        while (!timer.isDone()) {
            Thread.onSpinWait();
        }
        Thread.interrupted();
    }
}
