package dev.pqsign.keys;

import dev.pqsign.state.FileLocks;
import dev.pqsign.state.RegularFiles;
import dev.pqsign.state.StateLockTimeoutException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Objects;

/**
 * Ownership of a key directory by one process: an exclusive OS file lock on {@code DIR/owner.lock},
 * held for as long as the process uses the directory, with the process's pid written into the file
 * so that another process can say who owns it.
 *
 * <p>Why: the key state's own lock ({@code key.state.lock}) is held only for each reservation, so two
 * processes signing with one key directory took turns and both succeeded — a second sensor
 * publishing under the same identity, or a {@code key split} that silently exhausted the running
 * sensor's key. The owner lock is held for the whole run. The OS releases it when its process ends,
 * however it ends (SIGKILL included), so a crashed owner never leaves the directory locked; the pid
 * in the file may then be stale, and is only a name for messages: the lock is what counts. The file
 * is never deleted (another process could lock the deleted file's inode while a third creates a new
 * one).
 */
public final class KeyDirectoryOwner implements AutoCloseable {
    /** The lock file in the key directory. */
    public static final String FILE = "owner.lock";

    /** Longest pid line read back from the lock file. */
    private static final int MAX_PID_BYTES = 32;

    private final FileChannel channel;
    private final FileLock lock;

    private KeyDirectoryOwner(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes ownership of {@code dir}, waiting up to {@code timeout} for another process to give it
     * up (a short-lived {@code pqsign sign} of another process, say).
     *
     * @param dir the key directory
     * @param timeout the longest wait for the current owner
     * @return the ownership; {@link #close()} gives it up
     * @throws KeyDirectoryInUseException if another process (or this one, through another owner)
     *     still owns it after {@code timeout}; the message names its pid
     * @throws dev.pqsign.state.NotRegularFileException if {@code DIR/owner.lock} is a FIFO, device,
     *     socket or directory
     * @throws IOException if the lock file cannot be created or written
     */
    public static KeyDirectoryOwner acquire(Path dir, Duration timeout) throws IOException {
        Objects.requireNonNull(timeout, "timeout");
        Path file = dir.resolve(FILE);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            RegularFiles.requireRegular(file);
        }
        FileChannel ch =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = FileLocks.lock(ch, timeout, file.toString());
        } catch (StateLockTimeoutException | OverlappingFileLockException e) {
            ch.close();
            KeyDirectoryInUseException busy = new KeyDirectoryInUseException(dir, file, ownerPid(file));
            busy.initCause(e);
            throw busy;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        try {
            ch.truncate(0);
            ByteBuffer pid =
                    ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII));
            while (pid.hasRemaining()) {
                ch.write(pid, pid.position());
            }
        } catch (IOException | RuntimeException e) {
            ch.close(); // releases the lock too
            throw e;
        }
        return new KeyDirectoryOwner(ch, lock);
    }

    /** The pid the owner wrote into {@code file}, or -1 if it cannot be read (it may be writing it). */
    private static long ownerPid(Path file) {
        try (FileChannel ch = RegularFiles.openForReading(file)) {
            ByteBuffer b = ByteBuffer.allocate(MAX_PID_BYTES);
            ch.read(b, 0);
            String s = new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII).strip();
            return s.matches("[0-9]{1,18}") ? Long.parseLong(s) : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Gives the directory up: the lock is released (the file stays). */
    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException ignored) {
            // closing the channel releases the lock as well
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // the lock is released with the channel either way
        }
    }
}
