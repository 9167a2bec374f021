package dev.pqsign.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.time.Duration;

/**
 * The one way pqsign takes an exclusive file lock: at once when it is free, otherwise blocking in the
 * kernel until the holder releases it, but never longer than a timeout ({@code FileChannel.lock()}
 * alone can wait forever behind a hung process). {@link FileStateStore} and every other file that
 * several processes share (the operator's replay marks) lock through here.
 */
public final class FileLocks {
    /** What the operator's shared files wait for another process at most. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private FileLocks() {}

    /**
     * Locks {@code channel} exclusively.
     *
     * @param channel an open channel of the file to lock
     * @param timeout the longest time to wait for another process to release it
     * @return the held lock
     * @param what names the file in the timeout message
     * @throws StateLockTimeoutException if another process held it for all of {@code timeout}; the
     *     channel is then closed (the caller reopens it for the next attempt)
     */
    public static FileLock lock(FileChannel channel, Duration timeout, String what) throws IOException {
        FileLock lock = channel.tryLock();
        if (lock != null) {
            return lock;
        }
        lock = TimedFileLock.lock(channel, timeout.toNanos());
        if (lock == null) {
            throw new StateLockTimeoutException(
                    what + " is locked by another process (waited " + timeout.toSeconds() + " s)");
        }
        return lock;
    }
}
