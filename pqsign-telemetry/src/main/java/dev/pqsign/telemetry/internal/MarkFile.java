package dev.pqsign.telemetry.internal;

import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileLocks;
import dev.pqsign.telemetry.KeyId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * The replay marks (lowest index still acceptable) of any number of keys in one file, written with
 * <b>group commit</b>: every mark waiting when a flush starts is written and made durable by that
 * one {@code fdatasync}, so ten operator connections accepting readings at the same time share a
 * flush instead of queueing ten of them at the device.
 *
 * <p>Guarantee: {@link #advance} returns
 * "accepted" only after the new mark is durable, and it decides under an exclusive lock of the file
 * after re-reading the key's record, so two processes (or two instances in one JVM) sharing the
 * file can never both accept the same index.
 *
 * <p>Layout ({@code docs/formats/signed-reading.md}): a 256-byte header (a 128-byte header record
 * and 128 zero bytes), then one 256-byte <em>pair</em> per key, in the order the keys were first
 * seen: two 128-byte records, written alternately in place (a write goes to the record that does
 * not hold the current mark, with the generation one higher), each with magic {@code "PQRM"}, version 1, kind (1 header,
 * 2 mark), u64 generation, the 32-byte key id, u64 next acceptable index and a CRC-32C. A key's
 * state is its valid record with the highest generation; a write torn by a crash damages only the
 * record being written, so the previous mark stays readable. A pair whose second record is all
 * zero and whose first is not valid is free (a new key's first write was torn: nothing was ever
 * accepted under it). A pair with data but no valid record, or with two keys, makes lookups that
 * would need it fail: the file is refused rather than a mark lost.
 *
 * <p>Thread-safe. While one thread writes and flushes a group, new requests queue up; when it is
 * done, every waiter wakes, and one of those still pending writes the next group with everything
 * queued by then (no extra thread, no hand-off of the work).
 *
 * <p>A caller that decides many marks in a row (an operator catching up on a sensor's history)
 * can {@link #advanceUnflushed advance without waiting for the flush} and make all of those marks
 * durable at once with one {@link #sync}: each is decided and written under the lock as always,
 * so every process sharing the file sees it at once and none can accept the same index, but none
 * of those indices may be reported accepted before {@code sync} returned.
 */
public final class MarkFile implements AutoCloseable {

    static final byte[] MAGIC = {'P', 'Q', 'R', 'M'};
    static final int VERSION = 1;
    static final int KIND_HEADER = 1;
    static final int KIND_MARK = 2;

    /** Bytes of one record. */
    public static final int RECORD_BYTES = 128;
    /** Bytes of one key's two records. */
    public static final int PAIR_BYTES = 2 * RECORD_BYTES;
    /** Bytes before the first pair. */
    public static final int HEADER_BYTES = 256;
    /** Most keys one file holds (the file stays under 1.1 MB). */
    public static final int MAX_KEYS = 4096;

    private static final int OFF_VERSION = 4;
    private static final int OFF_KIND = 5;
    private static final int OFF_GENERATION = 8;
    private static final int OFF_KEY = 16;
    private static final int OFF_NEXT = OFF_KEY + KeyId.BYTES;
    private static final int OFF_CRC = RECORD_BYTES - 4;

    /** One lock per real path for this JVM: POSIX file locks do not separate threads of one process. */
    private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    /**
     * Supplies the mark a key starts with when it is first written to the file (0, or a mark
     * carried over from an older store). Called under the file's lock.
     */
    @FunctionalInterface
    public interface InitialMark {
        /**
         * The mark {@code key} starts with.
         *
         * @param key the key being added
         * @return its starting mark: the lowest index it may accept
         * @throws IOException if a carried-over state cannot be read; the key is not added then
         */
        long of(KeyId key) throws IOException;
    }

    /**
     * What {@link #advance} decided.
     *
     * @param accepted whether the index was fresh and is now durably recorded
     * @param nextAcceptable the key's durable mark afterwards (lowest index still acceptable)
     */
    public record Outcome(boolean accepted, long nextAcceptable) {}

    private final Path file;
    private final InitialMark initial;
    private final ReentrantLock jvmLock;
    /** Guards {@link #waiting} and {@link #committing}; waiters are woken all at once after a flush. */
    private final Object queue = new Object();

    private final List<Request> waiting = new ArrayList<>();
    private boolean committing;
    /** Pair offset of every key seen; a claimed pair never moves (guarded by jvmLock). */
    private final Map<KeyId, Long> positions = new ConcurrentHashMap<>();

    private FileChannel channel; // guarded by jvmLock
    private volatile boolean closed;
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();
    /** Requests written but not flushed yet (counted into {@link #requests} by the flush that covers them). */
    private final AtomicLong unflushedRequests = new AtomicLong();
    /** Writes of marks and claims so far (guarded by jvmLock). */
    private long writes;
    /** Of {@link #writes}, how many a completed flush covers. */
    private final AtomicLong durableThrough = new AtomicLong();
    /** Serializes {@link #sync}s, so that one waiting behind another's flush finds its writes covered. */
    private final Object syncs = new Object();

    private static final class Request {
        final KeyId key;
        final long index; // -1: only read (and claim) the key's mark
        final boolean flush; // false: written, made durable by a later flush
        boolean done; // guarded by queue
        Outcome outcome;
        IOException failure;
        RuntimeException bug;

        Request(KeyId key, long index, boolean flush) {
            this.key = key;
            this.index = index;
            this.flush = flush;
        }
    }

    private MarkFile(Path file, InitialMark initial) throws IOException {
        Path abs = file.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(
                    String.valueOf(dir), null, "directory of mark file " + abs + " does not exist");
        }
        this.file = dir.toRealPath().resolve(abs.getFileName().toString());
        this.initial = initial;
        this.jvmLock = JVM_LOCKS.computeIfAbsent(this.file, p -> new ReentrantLock());
    }

    /**
     * Opens {@code file}, creating it (durably, header only) if it does not exist.
     *
     * @param file the mark file; its directory must exist
     * @param initial the mark of a key not yet in the file
     * @return the open file
     * @throws IOException if the file exists but is not a mark file
     */
    public static MarkFile open(Path file, InitialMark initial) throws IOException {
        MarkFile m = new MarkFile(Objects.requireNonNull(file, "file"), Objects.requireNonNull(initial, "initial"));
        if (!Files.exists(m.file)) {
            byte[] image = new byte[HEADER_BYTES];
            System.arraycopy(encodeRecord(KIND_HEADER, 0, new byte[KeyId.BYTES], 0), 0, image, 0, RECORD_BYTES);
            try {
                DurableFiles.createAtomically(m.file, image);
            } catch (FileAlreadyExistsException raced) {
                // another process or instance created it first
            }
        }
        m.locked(() -> null); // checks the header
        return m;
    }

    /**
     * The file.
     *
     * @return the file's real path
     */
    public Path path() {
        return file;
    }

    /**
     * The durable mark of {@code key}, adding the key to the file (with its {@link InitialMark})
     * if it is not there yet.
     *
     * @param key the key
     * @return the key's mark: the lowest index still acceptable
     * @throws IOException if the file cannot be read or written, or holds {@link #MAX_KEYS} keys already
     */
    public long read(KeyId key) throws IOException {
        return submit(new Request(Objects.requireNonNull(key, "key"), -1, true)).nextAcceptable();
    }

    /**
     * Accepts {@code index} for {@code key} if it is at least the key's durable mark, and then
     * durably raises the mark to {@code index + 1} before returning. Waits for the flush that
     * carries it (shared with every request waiting at the same time).
     *
     * @param key the reading's key
     * @param index 0 … {@code Long.MAX_VALUE - 1}
     * @return whether it was accepted, and the mark afterwards
     * @throws IOException if the file cannot be read or written; nothing was accepted then
     * @throws IllegalArgumentException if {@code index} is negative or {@code Long.MAX_VALUE}
     */
    public Outcome advance(KeyId key, long index) throws IOException {
        return submit(request(key, index, true));
    }

    /**
     * As {@link #advance}, but returns once the new mark is written, without waiting for a flush:
     * every process sharing the file sees it (and cannot accept {@code index} any more), but it is
     * durable only once a later {@link #sync} (or a flushing {@link #advance}) has returned. An
     * index accepted here must not be reported accepted before then.
     *
     * @param key the reading's key
     * @param index 0 … {@code Long.MAX_VALUE - 1}
     * @return whether it was accepted, and the mark afterwards
     * @throws IOException if the file cannot be read or written; nothing was accepted then
     * @throws IllegalArgumentException if {@code index} is negative or {@code Long.MAX_VALUE}
     */
    public Outcome advanceUnflushed(KeyId key, long index) throws IOException {
        return submit(request(key, index, false));
    }

    private static Request request(KeyId key, long index, boolean flush) {
        Objects.requireNonNull(key, "key");
        if (index < 0 || index == Long.MAX_VALUE) {
            throw new IllegalArgumentException("index must be in 0 .. 2^63 - 2, got " + index);
        }
        return new Request(key, index, flush);
    }

    /**
     * Makes every mark this instance wrote so far durable ({@code fdatasync}), unless a flush that
     * started after those writes has already done so; concurrent calls share a flush where they can.
     *
     * @throws IOException if the flush fails: the marks written since the last flush may be lost
     */
    public void sync() throws IOException {
        long target = writtenSoFar();
        if (target <= durableThrough.get()) {
            return;
        }
        synchronized (syncs) {
            if (target <= durableThrough.get()) {
                return; // the flush this call waited behind started after its writes
            }
            FileChannel ch;
            long covered;
            jvmLock.lock();
            try {
                ch = channel;
                covered = writes;
            } finally {
                jvmLock.unlock();
            }
            if (ch == null) {
                throw new IOException("mark file " + file + " is not open");
            }
            // As in a group commit: an interrupt would close the channel under the flush.
            boolean interrupted = Thread.interrupted();
            try {
                long carried = unflushedRequests.getAndSet(0);
                ch.force(false);
                durableThrough.accumulateAndGet(covered, Math::max);
                flushes.incrementAndGet();
                requests.addAndGet(carried);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private long writtenSoFar() {
        if (closed) {
            throw new IllegalStateException("mark file " + file + " is closed");
        }
        jvmLock.lock();
        try {
            return writes;
        } finally {
            jvmLock.unlock();
        }
    }

    /** Requests waiting for the next flush (for tests). */
    int waitingCount() {
        synchronized (queue) {
            return waiting.size();
        }
    }

    /**
     * Number of {@code fdatasync}s so far, and of requests they carried: {flushes, requests}.
     *
     * @return a new two-element array
     */
    public long[] flushStatistics() {
        return new long[] {flushes.get(), requests.get()};
    }

    private Outcome submit(Request r) throws IOException {
        if (closed) {
            throw new IllegalStateException("mark file " + file + " is closed");
        }
        List<Request> group = null;
        boolean interrupted = false;
        synchronized (queue) {
            waiting.add(r);
            while (!r.done && committing) {
                try {
                    queue.wait(); // not abandoned on interrupt: the group being written may include r
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (!r.done) {
                committing = true; // r's thread writes everything waiting now, r included
                group = new ArrayList<>(waiting);
                waiting.clear();
            }
        }
        if (group != null) {
            // A pending interrupt would make the channel close itself at the first I/O call and fail
            // the whole group (other keys' readings included): postpone it until the group is done.
            if (Thread.interrupted()) {
                interrupted = true;
            }
            try {
                commit(group);
            } finally {
                synchronized (queue) {
                    committing = false;
                    for (Request q : group) {
                        q.done = true;
                    }
                    queue.notifyAll();
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (r.bug != null) {
            throw r.bug;
        }
        if (r.failure != null) {
            throw new IOException(r.failure.getMessage(), r.failure);
        }
        return r.outcome;
    }

    /**
     * Decides and writes a whole group under the locks, with one flush if any of its requests waits
     * for one; completes every request.
     */
    private void commit(List<Request> group) {
        try {
            locked(() -> {
                Map<KeyId, long[]> state = new LinkedHashMap<>(); // key -> {generation, next, dirty, record}
                Map<KeyId, IOException> unreadable = new HashMap<>();
                for (Request r : group) {
                    long[] s = state.get(r.key);
                    if (s == null) {
                        IOException failed = unreadable.get(r.key);
                        if (failed == null) {
                            try {
                                s = load(r.key);
                                state.put(r.key, s);
                            } catch (IOException e) {
                                failed = e;
                                unreadable.put(r.key, e);
                            } catch (RuntimeException e) { // e.g. a carried-over state of another key
                                failed = new IOException("mark of key " + r.key.hex() + ": " + e.getMessage(), e);
                                unreadable.put(r.key, failed);
                            }
                        }
                        if (failed != null) {
                            r.failure = failed; // only this key's requests fail
                            continue;
                        }
                    }
                    if (r.index < 0) {
                        r.outcome = new Outcome(false, s[1]);
                    } else if (r.index >= s[1] && s[0] == Long.MAX_VALUE) {
                        // generation + 1 would wrap to a negative one, which no reader counts as valid:
                        // after a reopen the old mark would be back and this index accepted again.
                        // No writer of this format gets here (2^63 writes): the record is corrupted.
                        r.failure = new IOException("mark file " + file + ": the mark of key " + r.key.hex()
                                + " has the largest generation (corrupted); refusing to advance it");
                    } else if (r.index >= s[1]) {
                        s[1] = r.index + 1;
                        s[2] = 1;
                        r.outcome = new Outcome(true, s[1]);
                    } else {
                        r.outcome = new Outcome(false, s[1]);
                    }
                }
                boolean write = false;
                boolean flush = false;
                for (Request r : group) {
                    flush |= r.flush;
                }
                for (Map.Entry<KeyId, long[]> e : state.entrySet()) {
                    long[] s = e.getValue();
                    if (s[2] != 0) {
                        long generation = s[0] + 1;
                        // always into the record that does not hold the current mark
                        long offset = positions.get(e.getKey()) + (1 - s[3]) * RECORD_BYTES;
                        writeFully(
                                encodeRecord(KIND_MARK, generation, e.getKey().bytes(), s[1]), offset);
                        writes++;
                        write = true;
                    }
                }
                if (flush && (write || claimedUnflushed)) {
                    long carried = unflushedRequests.getAndSet(0);
                    channel.force(false);
                    durableThrough.accumulateAndGet(writes, Math::max);
                    claimedUnflushed = false;
                    flushes.incrementAndGet();
                    requests.addAndGet(group.size() + carried);
                } else if (write) {
                    unflushedRequests.addAndGet(group.size());
                }
                return null;
            });
        } catch (IOException e) {
            positions.clear(); // a failed write may have left a claim half done: look again next time
            for (Request r : group) {
                r.outcome = null;
                if (r.failure == null) {
                    r.failure = e;
                }
            }
        } catch (RuntimeException e) {
            for (Request r : group) {
                r.outcome = null;
                r.bug = e;
            }
        }
    }

    private boolean claimedUnflushed; // guarded by jvmLock

    /** {generation, next acceptable, 0, record index} of {@code key}, claiming a pair for it if it has none. */
    private long[] load(KeyId key) throws IOException {
        Long pos = positions.get(key);
        if (pos == null) {
            pos = find(key);
        }
        byte[] pair = readPair(pos);
        long[] s = decodePair(pair, pos, key);
        if (s == null) {
            throw new IOException("mark file " + file + ": the record of key " + key.hex() + " at offset " + pos
                    + " holds no valid mark (corrupted)");
        }
        return new long[] {s[0], s[1], 0, s[2]};
    }

    /** Scans the file for {@code key}'s pair; claims the first free pair (or a new one at the end) if absent. */
    private long find(KeyId key) throws IOException {
        long size = channel.size();
        long free = -1;
        int pairs = 0;
        for (long pos = HEADER_BYTES; pos < size; pos += PAIR_BYTES, pairs++) {
            byte[] pair = readPair(pos);
            byte[] a = Arrays.copyOfRange(pair, 0, RECORD_BYTES);
            byte[] b = Arrays.copyOfRange(pair, RECORD_BYTES, PAIR_BYTES);
            boolean validA = validMark(a);
            boolean validB = validMark(b);
            if (!validA && !validB) {
                if (isZero(b)) {
                    if (free < 0) {
                        free = pos; // a first write that never completed
                    }
                    continue;
                }
                throw new IOException("mark file " + file + ": pair at offset " + pos
                        + " holds data but no valid mark (corrupted); refusing to guess which key it belonged to");
            }
            byte[] owner = validA ? keyOf(a) : keyOf(b);
            if (validA && validB && !Arrays.equals(keyOf(a), keyOf(b))) {
                throw new IOException(
                        "mark file " + file + ": pair at offset " + pos + " holds two different keys (corrupted)");
            }
            KeyId id = KeyId.of(owner);
            positions.putIfAbsent(id, pos);
            if (id.equals(key)) {
                return pos;
            }
        }
        if (free < 0) {
            if (pairs >= MAX_KEYS) {
                throw new IOException("mark file " + file + " is full (" + MAX_KEYS + " keys)");
            }
            free = HEADER_BYTES + (long) pairs * PAIR_BYTES;
        }
        long start = initial.of(key);
        if (start < 0) {
            throw new IOException("initial mark of key " + key.hex() + " is negative");
        }
        byte[] pair = new byte[PAIR_BYTES];
        System.arraycopy(encodeRecord(KIND_MARK, 1, key.bytes(), start), 0, pair, 0, RECORD_BYTES);
        writeFully(pair, free);
        writes++;
        claimedUnflushed = true;
        positions.put(key, free);
        return free;
    }

    private byte[] readPair(long pos) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(PAIR_BYTES);
        while (buf.hasRemaining()) {
            if (channel.read(buf, pos + buf.position()) < 0) {
                break; // a short tail: an append torn by a crash; missing bytes read as zero
            }
        }
        return buf.array();
    }

    private void writeFully(byte[] data, long offset) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(data);
        while (buf.hasRemaining()) {
            channel.write(buf, offset + buf.position());
        }
    }

    /** {generation, next, record index} of the newest valid record of the pair if it belongs to {@code key}, else null. */
    private long[] decodePair(byte[] pair, long pos, KeyId key) throws IOException {
        long[] best = null;
        for (int i = 0; i < 2; i++) {
            byte[] rec = Arrays.copyOfRange(pair, i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
            if (!validMark(rec)) {
                continue;
            }
            if (!Arrays.equals(keyOf(rec), key.bytes())) {
                throw new IOException("mark file " + file + ": pair at offset " + pos + " belongs to key "
                        + KeyId.of(keyOf(rec)).hex() + ", expected " + key.hex() + " (file replaced or corrupted?)");
            }
            long generation = getLong(rec, OFF_GENERATION);
            if (best == null || generation > best[0]) {
                best = new long[] {generation, getLong(rec, OFF_NEXT), i};
            }
        }
        return best;
    }

    static byte[] encodeRecord(int kind, long generation, byte[] keyId, long next) {
        byte[] r = new byte[RECORD_BYTES];
        System.arraycopy(MAGIC, 0, r, 0, 4);
        r[OFF_VERSION] = VERSION;
        r[OFF_KIND] = (byte) kind;
        StateCodec.putLong(r, OFF_GENERATION, generation);
        System.arraycopy(keyId, 0, r, OFF_KEY, KeyId.BYTES);
        StateCodec.putLong(r, OFF_NEXT, next);
        CRC32C crc = new CRC32C();
        crc.update(r, 0, OFF_CRC);
        putInt(r, OFF_CRC, (int) crc.getValue());
        return r;
    }

    private static boolean validRecord(byte[] r, int kind) {
        if (!Arrays.equals(r, 0, 4, MAGIC, 0, 4) || r[OFF_VERSION] != VERSION || r[OFF_KIND] != kind) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(r, 0, OFF_CRC);
        if (getInt(r, OFF_CRC) != (int) crc.getValue()) {
            return false;
        }
        return kind == KIND_HEADER || (getLong(r, OFF_GENERATION) > 0 && getLong(r, OFF_NEXT) >= 0);
    }

    private static boolean validMark(byte[] r) {
        return validRecord(r, KIND_MARK);
    }

    private static byte[] keyOf(byte[] rec) {
        return Arrays.copyOfRange(rec, OFF_KEY, OFF_KEY + KeyId.BYTES);
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static long getLong(byte[] b, int off) {
        return StateCodec.getLong(b, off);
    }

    private static int getInt(byte[] b, int off) {
        return ((b[off] & 0xff) << 24) | ((b[off + 1] & 0xff) << 16) | ((b[off + 2] & 0xff) << 8) | (b[off + 3] & 0xff);
    }

    private static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 24);
        b[off + 1] = (byte) (v >>> 16);
        b[off + 2] = (byte) (v >>> 8);
        b[off + 3] = (byte) v;
    }

    @FunctionalInterface
    private interface Action<T> {
        T run() throws IOException;
    }

    /** Runs {@code action} holding this JVM's lock of the file and an exclusive OS lock on it; checks the header. */
    @SuppressWarnings("try") // the lock is held for the whole block; the block never needs to name it
    private <T> T locked(Action<T> action) throws IOException {
        jvmLock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("mark file " + file + " is closed");
            }
            if (channel == null || !channel.isOpen()) {
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                positions.clear();
            }
            try (FileLock held = FileLocks.lock(channel, FileLocks.DEFAULT_TIMEOUT, "mark file " + file)) {
                long size = channel.size();
                if (size < HEADER_BYTES || size > HEADER_BYTES + (long) MAX_KEYS * PAIR_BYTES) {
                    throw new IOException("mark file " + file + " has " + size + " bytes; a mark file has "
                            + HEADER_BYTES + " to " + (HEADER_BYTES + (long) MAX_KEYS * PAIR_BYTES));
                }
                ByteBuffer header = ByteBuffer.allocate(RECORD_BYTES);
                while (header.hasRemaining()) {
                    if (channel.read(header, header.position()) < 0) {
                        throw new IOException("mark file " + file + " shrank while being read");
                    }
                }
                if (!validRecord(header.array(), KIND_HEADER)) {
                    throw new IOException(
                            "file " + file + " is not a replay mark file (bad header: magic, version or checksum)");
                }
                return action.run();
            }
        } finally {
            jvmLock.unlock();
        }
    }

    /** Closes the file; later calls throw {@link IllegalStateException}. */
    @Override
    public void close() throws IOException {
        closed = true;
        jvmLock.lock();
        try {
            if (channel != null) {
                channel.close();
                channel = null;
            }
        } finally {
            jvmLock.unlock();
        }
    }

    @Override
    public String toString() {
        return "MarkFile[" + file + "]";
    }
}
