package dev.pqsign.state;

import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link StateStore} that keeps the state in one small file and replaces it durably on every
 * write.
 *
 * <p><b>Locking.</b> Every operation first takes a lock shared by all {@code FileStateStore}
 * objects of this JVM for the same file (keyed by the file's canonical path, so two stores opened
 * through different spellings of the path still exclude each other), then an exclusive OS lock on
 * the sibling file {@code NAME.lock}. The state file itself cannot carry the lock because each write
 * replaces it by a rename. Both locks are held only for the duration of one operation, and the OS
 * lock is released by the kernel if the process dies. Waiters block in the kernel (not by
 * polling), so a process that updates in a tight loop cannot starve another one. Waiting is bounded
 * by the store's lock timeout, after which a {@link StateLockTimeoutException} names the file and
 * the time waited.
 *
 * <p><b>Reading.</b> Every operation re-reads the file under the lock; nothing is cached, because
 * another process may have advanced the state since. Files larger than {@link #MAX_STATE_BYTES} and
 * empty files are rejected (an empty file is never written by this store).
 *
 * <p><b>Writing.</b> {@link #update} and {@link #create} write through
 * {@link DurableFiles}: temporary file in the same directory, fsync, close, atomic rename (or
 * create-only hard link), fsync of the directory. They return only once the new state is durable.
 * Temporary files left by a crashed writer are deleted under the lock the first time a store object
 * takes it, and are never read as state.
 *
 * <p>Nested use from inside an update function on the same file is rejected with an
 * {@link IllegalStateException} rather than deadlocking. Interrupting a thread that is waiting for
 * the lock or writing makes its operation fail with an {@link java.io.InterruptedIOException} or a
 * {@link DurableWriteException} (NIO closes the channel), leaving the old state. Instances are
 * thread-safe.
 */
public final class FileStateStore implements StateStore {

    /** Upper bound on the size of a state file (1 MiB); checked before allocating a buffer. */
    public static final int MAX_STATE_BYTES = 1 << 20;

    /** Lock timeout used by {@link #open(Path)}. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);

    /** Suffix appended to the state file's name to form the name of its lock file. */
    public static final String LOCK_SUFFIX = ".lock";

    // Back-off for the rare case that other code in this JVM holds the lock file (see pollOverlapping).
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(25);

    /**
     * One lock per canonical state path for the whole JVM. The OS lock alone cannot separate threads
     * of one process (POSIX record locks belong to the process; the JDK throws
     * OverlappingFileLockException instead). Entries are never removed: one small object per
     * distinct state file ever used by this process.
     */
    private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    private final Path stateFile;
    private final Path lockFile;
    private final Duration lockTimeout;
    private final FileOps ops;
    private final ReentrantLock jvmLock;
    private volatile boolean leftoversCleaned;
    private volatile boolean closed;

    private FileStateStore(Path stateFile, Duration lockTimeout, FileOps ops) throws IOException {
        Objects.requireNonNull(stateFile, "stateFile");
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        if (lockTimeout.isNegative()) {
            throw new IllegalArgumentException("lock timeout must not be negative, got " + lockTimeout);
        }
        Path abs = stateFile.toAbsolutePath().normalize();
        Path name = abs.getFileName();
        if (name == null) {
            throw new IllegalArgumentException("state file path " + stateFile + " has no file name");
        }
        Path dir = abs.getParent();
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "directory of state file " + abs + " does not exist");
        }
        // Canonicalise the directory (not the file, which may not exist yet and is replaced by
        // rename): the JVM-wide lock is keyed by this path.
        this.stateFile = dir.toRealPath().resolve(name.toString());
        this.lockFile = this.stateFile.resolveSibling(name + LOCK_SUFFIX);
        if (Files.isSymbolicLink(this.stateFile)) {
            throw new IOException("state file " + this.stateFile + " is a symbolic link; a rename would "
                    + "replace the link, not its target, so point the store at the real file instead");
        }
        if (Files.isDirectory(this.stateFile, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("state file " + this.stateFile + " is a directory");
        }
        // A FIFO, socket or device in place of the state or its lock file would block the first
        // operation's open (a FIFO's, for ever): refuse them here, by type (and again at each open).
        if (Files.exists(this.stateFile, LinkOption.NOFOLLOW_LINKS)) {
            RegularFiles.requireRegular(this.stateFile);
        }
        if (Files.exists(this.lockFile, LinkOption.NOFOLLOW_LINKS)) {
            RegularFiles.requireRegular(this.lockFile);
        }
        this.lockTimeout = lockTimeout;
        this.ops = ops;
        // Fair, so a thread that updates in a loop cannot starve the others of this JVM.
        this.jvmLock = JVM_LOCKS.computeIfAbsent(this.stateFile, p -> new ReentrantLock(true));
    }

    /**
     * Returns a store for {@code stateFile} with the given lock timeout. The state need not exist
     * yet (use {@link #create(byte[])} for a new key); {@link #read} and {@link #update} on a missing
     * state fail with a {@link NoSuchFileException}. Nothing on disk is touched until the first
     * operation, which creates the lock file if needed.
     *
     * @param stateFile the key's state file
     * @param lockTimeout the longest time an operation waits for the locks
     * @return the store
     * @throws NoSuchFileException if the directory of {@code stateFile} does not exist
     * @throws NotRegularFileException if the state or its lock file exists and is a FIFO, socket or
     *     device
     * @throws IOException if {@code stateFile} is a symbolic link or a directory
     */
    public static FileStateStore open(Path stateFile, Duration lockTimeout) throws IOException {
        return new FileStateStore(stateFile, lockTimeout, FileOps.REAL);
    }

    /**
     * {@link #open(Path, Duration)} with {@link #DEFAULT_LOCK_TIMEOUT}.
     *
     * @param stateFile the key's state file
     * @return the store
     * @throws IOException as {@link #open(Path, Duration)}
     */
    public static FileStateStore open(Path stateFile) throws IOException {
        return open(stateFile, DEFAULT_LOCK_TIMEOUT);
    }

    /**
     * Durably creates the state of a new key and returns its store. Fails, leaving the existing file
     * untouched, if a state already exists at {@code stateFile}.
     *
     * @param stateFile the state file to create
     * @param initial the new key's encoded state
     * @param lockTimeout the longest time an operation waits for the locks
     * @return the store, holding {@code initial}
     * @throws FileAlreadyExistsException if the state file exists
     */
    public static FileStateStore create(Path stateFile, byte[] initial, Duration lockTimeout) throws IOException {
        FileStateStore store = open(stateFile, lockTimeout);
        store.create(initial);
        return store;
    }

    /** For tests: a store whose file-system steps go through {@code ops}. */
    static FileStateStore open(Path stateFile, Duration lockTimeout, FileOps ops) throws IOException {
        return new FileStateStore(stateFile, lockTimeout, ops);
    }

    /**
     * The canonical path of the state file.
     *
     * @return the state file
     */
    public Path stateFile() {
        return stateFile;
    }

    /**
     * The path of the sibling lock file ({@code NAME.lock}); it is never deleted by the store.
     *
     * @return the lock file
     */
    public Path lockFile() {
        return lockFile;
    }

    /**
     * The longest time an operation waits for the locks.
     *
     * @return the lock timeout
     */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /**
     * Reads the current state under the lock.
     *
     * @throws NoSuchFileException if no state has been created at this path
     * @throws StateLockTimeoutException if the lock was not obtained within the timeout
     * @throws IOException if the file is empty, too large, or cannot be read
     */
    @Override
    public byte[] read() throws IOException {
        requireExistingState();
        return locked("read", this::readLocked);
    }

    /**
     * Locks, reads the current state from disk, applies {@code fn} and durably writes its result
     * before unlocking. If {@code fn} throws, nothing is written and its exception propagates. The
     * array passed to {@code fn} is a fresh copy of the file; {@code fn} may modify and return it.
     *
     * @return the bytes that were written (the array {@code fn} returned)
     * @throws NoSuchFileException if no state has been created at this path
     * @throws StateLockTimeoutException if the lock was not obtained within the timeout
     * @throws DurableWriteException if the write failed; it names the failed step
     * @throws IllegalStateException if {@code fn} returns {@code null}, or if called from inside
     *     another operation on the same file in the same thread
     * @throws IllegalArgumentException if {@code fn} returns an empty or too large state
     */
    @Override
    public byte[] update(StateUpdate fn) throws IOException {
        Objects.requireNonNull(fn, "fn");
        requireExistingState();
        return locked("update", () -> {
            byte[] current = readLocked();
            byte[] next = fn.apply(current);
            if (next == null) {
                throw new IllegalStateException(
                        "update function returned null for state file " + stateFile + "; nothing was written");
            }
            checkWritable(next, "update function returned");
            DurableFiles.write(stateFile, next, ops, false);
            return next;
        });
    }

    /**
     * Durably writes the first state of a new key (create-only: the existence check and the creation
     * are one atomic link, so a racing creator in another process cannot be overwritten either).
     *
     * @throws FileAlreadyExistsException if a state already exists; it is left unchanged
     * @throws IllegalArgumentException if {@code initial} is empty or larger than
     *     {@link #MAX_STATE_BYTES}
     * @throws DurableWriteException if the write failed; it names the failed step
     */
    @Override
    public void create(byte[] initial) throws IOException {
        Objects.requireNonNull(initial, "initial");
        checkWritable(initial, "initial state is");
        locked("create", () -> {
            if (Files.exists(stateFile, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(
                        stateFile.toString(),
                        null,
                        "state file already exists; refusing to overwrite the state of an existing key");
            }
            DurableFiles.write(stateFile, initial, ops, true);
            return null;
        });
    }

    /** The state file's path. */
    @Override
    public String describe() {
        return stateFile.toString();
    }

    /**
     * Marks the store closed; later operations throw {@link IllegalStateException}. No locks or file
     * handles are held between operations, so there is nothing else to release; the state on disk
     * is untouched.
     */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "FileStateStore[" + stateFile + "]";
    }

    @FunctionalInterface
    private interface LockedAction<T> {
        T run() throws IOException;
    }

    private <T> T locked(String operation, LockedAction<T> action) throws IOException {
        if (closed) {
            throw new IllegalStateException("state store for " + stateFile + " is closed");
        }
        if (jvmLock.isHeldByCurrentThread()) {
            // Re-entering would either self-deadlock on the OS lock or silently nest two
            // read-modify-writes; both are bugs in the caller's update function.
            throw new IllegalStateException("nested " + operation + " of state file " + stateFile
                    + " from inside another operation on the same file in the same thread");
        }
        long timeoutNanos = saturatedNanos(lockTimeout);
        long start = System.nanoTime();
        boolean haveJvmLock;
        try {
            haveJvmLock = jvmLock.tryLock(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted();
        }
        if (!haveJvmLock) {
            throw lockTimeout("by another thread of this process");
        }
        try {
            // The lock file is opened and closed only while holding the JVM lock: closing any
            // descriptor of a file drops all of this process's POSIX locks on it, so no other
            // descriptor of it may be closed by us while someone here holds the lock.
            try (FileChannel channel = openLockFile()) {
                FileLock lock = acquire(channel, start, timeoutNanos);
                try {
                    deleteLeftoversOnce();
                    return action.run();
                } finally {
                    releaseQuietly(lock);
                }
            }
        } finally {
            jvmLock.unlock();
        }
    }

    /**
     * Removes temporary files of crashed writers; we hold the lock, so none of them is live. This is
     * hygiene (they may hold secret bytes), not correctness: they are never read as the state, so a
     * failure here must not fail the caller's operation; it is retried by the next operation.
     */
    private void deleteLeftoversOnce() {
        if (leftoversCleaned) {
            return;
        }
        try {
            DurableFiles.deleteLeftoverTemps(stateFile);
            leftoversCleaned = true;
        } catch (IOException | RuntimeException e) {
            // retried next time
        }
    }

    private static void releaseQuietly(FileLock lock) {
        if (!lock.isValid()) {
            return;
        }
        try {
            lock.release();
        } catch (IOException e) {
            // Closing the channel right after releases the lock as well; an exception here must not
            // replace the outcome of the operation itself.
        }
    }

    private FileChannel openLockFile() throws IOException {
        if (Files.exists(lockFile, LinkOption.NOFOLLOW_LINKS)) {
            // opening a FIFO for writing waits for a reader: refuse it (and devices, sockets) by type
            RegularFiles.requireRegular(lockFile);
        }
        try {
            return FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new IOException(
                    "cannot open lock file " + lockFile + " of state file " + stateFile + " for writing ("
                            + DurableWriteException.describe(e) + ")",
                    e);
        }
    }

    private FileLock acquire(FileChannel channel, long start, long timeoutNanos) throws IOException {
        try {
            FileLock lock = channel.tryLock(); // uncontended: no timer needed
            if (lock != null) {
                return lock;
            }
            long remaining = timeoutNanos - (System.nanoTime() - start);
            lock = remaining > 0 ? TimedFileLock.lock(channel, remaining) : null;
            if (lock == null) {
                throw lockTimeout("by another process (lock file " + lockFile + ")");
            }
            return lock;
        } catch (ClosedByInterruptException e) {
            // NIO closes a channel used by an interrupted thread; report it as the interrupt.
            InterruptedIOException ie = interrupted();
            ie.initCause(e);
            throw ie;
        } catch (InterruptedIOException e) {
            InterruptedIOException ie = interrupted();
            ie.initCause(e);
            throw ie;
        } catch (OverlappingFileLockException e) {
            return pollOverlapping(channel, start, timeoutNanos);
        }
    }

    /**
     * Another channel in this JVM holds a lock on the lock file without going through a
     * FileStateStore (ours are serialised by the JVM lock), so the JDK refuses to block. Rare enough
     * that polling is fine.
     */
    private FileLock pollOverlapping(FileChannel channel, long start, long timeoutNanos) throws IOException {
        long backoff = MIN_BACKOFF_NANOS;
        while (true) {
            long waited = System.nanoTime() - start;
            if (waited >= timeoutNanos) {
                throw lockTimeout("by other code in this process that locked " + lockFile + " directly");
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(backoff, timeoutNanos - waited));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw interrupted();
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            try {
                FileLock lock = channel.tryLock();
                if (lock != null) {
                    return lock;
                }
            } catch (OverlappingFileLockException e) {
                // still held in this JVM; keep waiting
            }
        }
    }

    private StateLockTimeoutException lockTimeout(String holder) {
        return new StateLockTimeoutException(
                "state file " + stateFile + " is locked " + holder + "; waited " + human(lockTimeout));
    }

    private byte[] readLocked() throws IOException {
        byte[] bytes;
        try {
            bytes = DurableFiles.readAll(stateFile, MAX_STATE_BYTES);
        } catch (NoSuchFileException e) {
            throw missing(e);
        }
        if (bytes.length == 0) {
            throw new IOException("state file " + stateFile + " is empty; this store never writes an "
                    + "empty state, so it was truncated or written by another tool");
        }
        return bytes;
    }

    private void requireExistingState() throws NoSuchFileException {
        // Checked before locking so that a mistyped path does not leave a stray lock file behind;
        // the authoritative check is the read under the lock.
        if (!Files.exists(stateFile, LinkOption.NOFOLLOW_LINKS)) {
            throw missing(null);
        }
    }

    private NoSuchFileException missing(Throwable cause) {
        NoSuchFileException e = new NoSuchFileException(
                stateFile.toString(), null, "state file does not exist (key not created yet, or wrong path)");
        if (cause != null) {
            e.initCause(cause);
        }
        return e;
    }

    private void checkWritable(byte[] state, String what) {
        if (state.length == 0) {
            throw new IllegalArgumentException(what + " an empty state for " + stateFile + "; refusing to write it");
        }
        if (state.length > MAX_STATE_BYTES) {
            throw new IllegalArgumentException(what + " a state of " + state.length + " bytes for " + stateFile
                    + ", more than the limit of " + MAX_STATE_BYTES + " bytes");
        }
    }

    private InterruptedIOException interrupted() {
        return new InterruptedIOException("interrupted while waiting for the lock of state file " + stateFile);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String human(Duration d) {
        if (d.compareTo(Duration.ofDays(1)) > 0) {
            return d.toString();
        }
        long ms = d.toMillis();
        if (ms % 1000 == 0) {
            return (ms / 1000) + " s";
        }
        return ms + " ms";
    }
}
