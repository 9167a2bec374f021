package dev.pqsign.telemetry;

import dev.pqsign.core.StateStore;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileLocks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

/**
 * A {@link StateStore} for a small record that is rewritten on every event (the operator's replay
 * mark): one file of two checksummed 512-byte slots, overwritten <em>in place</em> alternately and
 * made durable with a single {@code fdatasync}.
 *
 * <p>Why not {@code FileStateStore}: its temporary file + rename + directory fsync costs two
 * journal commits per write, against none for an in-place overwrite of an allocated block followed
 * by {@link FileChannel#force(boolean) force(false)} (no metadata changes), which is an order of
 * magnitude faster on a journaling file system (measured in docs/telemetry.md, "Replay policy"). The replay guard pays one write per
 * accepted reading, so this is most of its cost.
 *
 * <p><b>Atomicity.</b> A write goes to the slot that does <em>not</em> hold the current state,
 * with a generation one higher and a CRC-32C over the slot. A reader takes the valid slot with the
 * highest generation. A write torn by a crash leaves an invalid (or older) slot next to the intact
 * previous state, so the store reads as either the old or the new state, never a mixture. A write
 * that completed on disk but whose {@code force} had not returned may survive a crash: the state
 * is then the new one although the caller never saw success, which errs on the safe side for a
 * high-water mark. The file is created whole (both slots, via
 * {@link DurableFiles#createAtomically}) and never changes size, so later writes only overwrite
 * allocated blocks and {@code force(false)} makes them durable.
 *
 * <p><b>Locking.</b> Every operation holds a lock shared by all stores of this JVM for the same
 * file, then an exclusive OS lock on the file itself (it is never replaced, so it can carry the
 * lock), and re-reads the slots under it, so a read-modify-write is atomic across processes. The
 * OS lock is held for one write only; waiting for it is not bounded by a timeout.
 *
 * <p>File layout ({@code docs/formats/signed-reading.md}): slot 0 at offset 0, slot 1 at offset
 * 512; a slot is ASCII {@code "PQSL"}, u64 generation, u32 payload length, the payload, zero
 * padding, and the CRC-32C of the slot's first 508 bytes in its last 4 bytes (all big-endian).
 * Generation 0 marks an unused slot. Thread-safe.
 */
public final class SlotFileStore implements StateStore {

    /** Bytes per slot; two slots make the file. */
    public static final int SLOT_BYTES = 512;

    /** Size of the whole file. */
    public static final int FILE_BYTES = 2 * SLOT_BYTES;

    private static final int HEADER_BYTES = 4 + 8 + 4;
    private static final int CRC_OFFSET = SLOT_BYTES - 4;

    /** Largest state this store holds. */
    public static final int MAX_STATE_BYTES = CRC_OFFSET - HEADER_BYTES;

    static final byte[] MAGIC = {'P', 'Q', 'S', 'L'};

    /** One lock per real path for this JVM: POSIX file locks cannot separate threads of one process. */
    private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    private final Path file;
    private final ReentrantLock jvmLock;
    private FileChannel channel; // guarded by jvmLock; reopened if an interrupt closed it
    private volatile boolean closed;

    private SlotFileStore(Path file) throws IOException {
        Path abs = file.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(
                    String.valueOf(dir), null, "directory of state file " + abs + " does not exist");
        }
        this.file = dir.toRealPath().resolve(abs.getFileName().toString());
        this.jvmLock = JVM_LOCKS.computeIfAbsent(this.file, p -> new ReentrantLock(true));
    }

    /**
     * A store for {@code file}; the file need not exist yet ({@link #create} makes it). Nothing on
     * disk is touched until the first operation.
     *
     * @param file the store's file
     * @return the store
     * @throws NoSuchFileException if the directory does not exist
     */
    public static SlotFileStore open(Path file) throws IOException {
        return new SlotFileStore(Objects.requireNonNull(file, "file"));
    }

    /**
     * Whether the file exists (a state has been created).
     *
     * @return whether the file exists
     */
    public boolean exists() {
        return Files.exists(file);
    }

    /**
     * Reads the current state.
     *
     * @throws NoSuchFileException if no state has been created
     * @throws IOException if neither slot holds a valid state, or the file has the wrong size
     */
    @Override
    public byte[] read() throws IOException {
        return locked(() -> current().payload());
    }

    /**
     * Applies {@code fn} to the current state and durably writes its result into the other slot,
     * all under the locks. If {@code fn} throws, nothing is written.
     *
     * @return the bytes written
     * @throws IllegalArgumentException if {@code fn} returns null or more than {@link #MAX_STATE_BYTES}
     */
    @Override
    public byte[] update(StateUpdate fn) throws IOException {
        Objects.requireNonNull(fn, "fn");
        return locked(() -> {
            Slot cur = current();
            if (cur.generation() == Long.MAX_VALUE) {
                // generation + 1 would wrap to a negative one, which the reader ignores: after a reopen
                // the old state would be back. No writer gets here (2^63 writes): the file is corrupted.
                throw new IOException(
                        "state file " + file + " has the largest generation (corrupted); refusing to update it");
            }
            byte[] next = fn.apply(cur.payload().clone());
            checkSize(next);
            ByteBuffer slot = ByteBuffer.wrap(encodeSlot(cur.generation() + 1, next));
            long offset = (long) (1 - cur.index()) * SLOT_BYTES;
            while (slot.hasRemaining()) {
                channel.write(slot, offset + slot.position());
            }
            channel.force(false);
            return next;
        });
    }

    /**
     * Durably creates the file with {@code initial} in slot 0 and an unused slot 1.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the file exists; it is left unchanged
     */
    @Override
    public void create(byte[] initial) throws IOException {
        checkSize(initial);
        byte[] image = new byte[FILE_BYTES];
        System.arraycopy(encodeSlot(1, initial), 0, image, 0, SLOT_BYTES);
        locked(() -> {
            DurableFiles.createAtomically(file, image);
            return null;
        });
    }

    @Override
    public String describe() {
        return file.toString();
    }

    /** Closes the file; later operations throw {@link IllegalStateException}. */
    @Override
    public void close() throws IOException {
        jvmLock.lock();
        try {
            closed = true;
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
        return "SlotFileStore[" + file + "]";
    }

    private record Slot(int index, long generation, byte[] payload) {}

    @FunctionalInterface
    private interface Action<T> {
        T run() throws IOException;
    }

    @SuppressWarnings("try") // the lock is held for the whole block; the block never needs to name it
    private <T> T locked(Action<T> action) throws IOException {
        jvmLock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("state store for " + file + " is closed");
            }
            if (!Files.exists(file)) {
                return action.run(); // only create() gets here without throwing (current() needs the file)
            }
            if (channel == null || !channel.isOpen()) {
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            try (FileLock held = FileLocks.lock(channel, FileLocks.DEFAULT_TIMEOUT, "slot file " + file)) {
                return action.run();
            }
        } finally {
            jvmLock.unlock();
        }
    }

    /** The valid slot with the highest generation, read under the locks. */
    private Slot current() throws IOException {
        if (channel == null || !channel.isOpen()) {
            throw new NoSuchFileException(file.toString(), null, "no state has been created");
        }
        if (channel.size() != FILE_BYTES) {
            throw new IOException(
                    "state file " + file + " has " + channel.size() + " bytes, a slot file has " + FILE_BYTES);
        }
        ByteBuffer all = ByteBuffer.allocate(FILE_BYTES);
        while (all.hasRemaining()) {
            if (channel.read(all, all.position()) < 0) {
                throw new IOException("state file " + file + " shrank while being read");
            }
        }
        Slot best = null;
        for (int i = 0; i < 2; i++) {
            Slot s = decodeSlot(i, Arrays.copyOfRange(all.array(), i * SLOT_BYTES, (i + 1) * SLOT_BYTES));
            if (s != null && (best == null || s.generation() > best.generation())) {
                best = s;
            }
        }
        if (best == null) {
            throw new IOException("state file " + file + " holds no valid slot (corrupted?)");
        }
        return best;
    }

    static byte[] encodeSlot(long generation, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(SLOT_BYTES);
        b.put(MAGIC).putLong(generation).putInt(payload.length).put(payload);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, CRC_OFFSET);
        b.putInt(CRC_OFFSET, (int) crc.getValue());
        return b.array();
    }

    /** The slot's state, or {@code null} if it is unused, torn or not a slot. */
    private static Slot decodeSlot(int index, byte[] s) {
        ByteBuffer b = ByteBuffer.wrap(s);
        CRC32C crc = new CRC32C();
        crc.update(s, 0, CRC_OFFSET);
        if (b.getInt(CRC_OFFSET) != (int) crc.getValue() || !Arrays.equals(s, 0, 4, MAGIC, 0, 4)) {
            return null;
        }
        long generation = b.getLong(4);
        int length = b.getInt(12);
        if (generation <= 0 || length < 0 || length > MAX_STATE_BYTES) {
            return null;
        }
        return new Slot(index, generation, Arrays.copyOfRange(s, HEADER_BYTES, HEADER_BYTES + length));
    }

    private static void checkSize(byte[] state) {
        if (state == null || state.length > MAX_STATE_BYTES) {
            throw new IllegalArgumentException(
                    "a slot holds 0.." + MAX_STATE_BYTES + " bytes, got " + (state == null ? "null" : state.length));
        }
    }
}
