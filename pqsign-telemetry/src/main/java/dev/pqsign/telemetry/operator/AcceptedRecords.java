package dev.pqsign.telemetry.operator;

import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.internal.StateCodec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The operator's memory of the readings it accepted recently, one ring file per key
 * ({@code <key id hex>.pqar}, format in {@code docs/formats/signed-record.md}): the record accepted
 * under index {@code i} sits in slot {@code i mod capacity}. It lets the verifier tell a reading
 * delivered again ({@link Verdict.Reason#DUPLICATE}) from a different reading under an index
 * already used ({@link Verdict.Reason#INDEX_REUSE}, with both records as evidence) for the last
 * {@code capacity} indices of each key; an older index is {@link Verdict.Reason#REPLAYED}.
 *
 * <p>A slot is written in place before the replay mark advances and is not flushed: it survives the
 * operator's process being killed (the page cache keeps it); after a power loss a lost slot only
 * makes a re-delivered reading {@code REPLAYED} instead of {@code DUPLICATE}. Thread-safe.
 */
public final class AcceptedRecords implements AcceptedStore, AutoCloseable {

    /** Default number of slots per key. */
    public static final int DEFAULT_CAPACITY = 1024;

    static final byte[] MAGIC = {'P', 'Q', 'A', 'R'};
    static final int VERSION = 1;
    static final int HEADER_BYTES = 64;
    static final int SLOT_HEADER_BYTES = 8;
    static final int MAX_CAPACITY = 1 << 20;
    /** Bit of a slot's length field: the record's verdict has been written out. */
    static final int REPORTED = 0x8000_0000;
    /** Slots whose last write by this process a ring remembers (see {@code Ring.recentPuts}). */
    static final int REMEMBERED_PUTS = 1024;

    private final Path dir;
    private final int capacity;
    private final Map<KeyId, Ring> rings = new HashMap<>();

    private AcceptedRecords(Path dir, int capacity) {
        this.dir = dir;
        this.capacity = capacity;
    }

    /**
     * Keeps the rings in {@code dir} (created if missing).
     *
     * @param dir the operator's directory for the rings
     * @param capacity slots of a new key's ring (an existing ring keeps its own), 1 … 2^20
     * @return the store
     * @throws IOException if the directory cannot be created
     * @throws IllegalArgumentException if {@code capacity} is outside 1 … 2^20
     */
    public static AcceptedRecords inDirectory(Path dir, int capacity) throws IOException {
        Objects.requireNonNull(dir, "dir");
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity must be 1.." + MAX_CAPACITY + ", got " + capacity);
        }
        Files.createDirectories(dir);
        return new AcceptedRecords(dir, capacity);
    }

    /** The largest record a key with signatures of {@code signatureBytes} can have. */
    static int maxRecordBytes(int signatureBytes) {
        return SignedRecord.FIXED_BYTES
                + ReadingMessage.MAX_NAME_BYTES
                + ReadingMessage.MAX_READING_BYTES
                + signatureBytes;
    }

    /**
     * Remembers an accepted record (replacing whatever its slot held).
     *
     * @param record the accepted record
     * @param signatureBytes the key's signature size (sizes the slots of a new ring)
     * @throws IOException if the key's ring file cannot be opened, created, read or written, or is not a valid ring
     */
    @Override
    public void put(SignedRecord record, int signatureBytes) throws IOException {
        ring(record.keyId(), signatureBytes).put(record);
    }

    /**
     * The record remembered for {@code index} of {@code key}, if its slot still holds that index.
     *
     * @param key the key
     * @param index the index
     * @param signatureBytes the key's signature size (sizes the slots of a new ring)
     * @return the record, or empty if the slot is empty or holds another index
     * @throws IOException if the key's ring file cannot be opened, created, read or written, or is not a valid ring
     */
    @Override
    public Optional<SignedRecord> get(KeyId key, long index, int signatureBytes) throws IOException {
        return ring(key, signatureBytes).get(index);
    }

    /**
     * Notes that the verdict on {@code record} has been written out (verdict line, JSON Lines), so
     * that {@link #unreported} does not offer it again after a restart. The flag is one in-place
     * write, not flushed (it survives a killed process).
     *
     * @param record the record whose verdict was written
     * @param signatureBytes the key's signature size (sizes the slots of a new ring)
     * @throws IOException if the key's ring file cannot be opened, created, read or written, or is not a valid ring
     */
    @Override
    public void markReported(SignedRecord record, int signatureBytes) throws IOException {
        ring(record.keyId(), signatureBytes).markReported(record.index());
    }

    /**
     * The accepted records of {@code key} whose verdict was never written out (the operator was
     * killed between accepting and reporting them): those with consecutive indices ending at
     * {@code lastAccepted} that are still remembered and not {@link #markReported marked}, oldest
     * first.
     *
     * @param key the key
     * @param lastAccepted the key's last accepted index (from the replay guard)
     * @param signatureBytes the key's signature size (sizes the slots of a new ring)
     * @return the records, oldest first; empty if none
     * @throws IOException if the key's ring file cannot be opened, created, read or written, or is not a valid ring
     */
    @Override
    public List<SignedRecord> unreported(KeyId key, long lastAccepted, int signatureBytes) throws IOException {
        Ring r = ring(key, signatureBytes);
        List<SignedRecord> out = new ArrayList<>();
        for (long i = lastAccepted; i >= 0 && lastAccepted - i < r.capacity; i--) {
            Optional<SignedRecord> rec = r.get(i);
            if (rec.isEmpty() || r.isReported(i)) {
                break;
            }
            out.add(rec.get());
        }
        Collections.reverse(out);
        return out;
    }

    /**
     * The highest index whose record a key's ring in {@code dir} still holds, without creating or
     * changing anything: what the ring proves was accepted when the replay marks are gone.
     *
     * @param dir the operator's directory of rings
     * @param key the key
     * @return the highest remembered index, or -1 if the key has no ring or its ring holds no record
     * @throws IOException if the ring exists but cannot be read or is not a valid ring of {@code key}
     */
    public static long highestRemembered(Path dir, KeyId key) throws IOException {
        Path file = dir.resolve(key.hex() + ".pqar");
        if (!Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return -1;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            Ring r = Ring.validated(ch, file, key, 0);
            return r.highest();
        }
    }

    private synchronized Ring ring(KeyId key, int signatureBytes) throws IOException {
        Ring r = rings.get(key);
        if (r == null) {
            r = Ring.open(
                    dir.resolve(key.hex() + ".pqar"),
                    key,
                    capacity,
                    SLOT_HEADER_BYTES + maxRecordBytes(signatureBytes));
            rings.put(key, r);
        }
        return r;
    }

    @Override
    public synchronized void close() throws IOException {
        IOException first = null;
        for (Ring r : rings.values()) {
            try {
                r.channel.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        rings.clear();
        if (first != null) {
            throw first;
        }
    }

    /** One key's ring file. */
    private static final class Ring {
        final FileChannel channel;
        final KeyId key;
        final int capacity;
        final int slotBytes;
        /**
         * The index and record length of the slots this process wrote last (at most
         * {@link #REMEMBERED_PUTS}, by slot): the operator marks a record reported soon after
         * storing it (at once, or after the rest of its page of history), and then the slot need
         * not be read back.
         */
        private final Map<Long, long[]> recentPuts;

        private Ring(FileChannel channel, KeyId key, int capacity, int slotBytes) {
            this.channel = channel;
            this.key = key;
            this.capacity = capacity;
            this.slotBytes = slotBytes;
            int remembered = Math.min(capacity, REMEMBERED_PUTS);
            this.recentPuts = new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, long[]> eldest) {
                    return size() > remembered;
                }
            };
        }

        static Ring open(Path file, KeyId key, int capacity, int slotBytes) throws IOException {
            FileChannel ch = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            try {
                if (ch.size() == 0) {
                    ByteBuffer h = header(key, capacity, slotBytes);
                    ch.write(h, 0);
                    ch.force(true);
                    return new Ring(ch, key, capacity, slotBytes);
                }
                return validated(ch, file, key, slotBytes);
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        }

        /** The ring in {@code ch} after checking its header: magic, version, CRC, bounds, and that it is {@code key}'s. */
        static Ring validated(FileChannel ch, Path file, KeyId key, int slotBytes) throws IOException {
            ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES);
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // read the whole header
            }
            if (h.hasRemaining()) {
                throw new IOException(file + ": accepted-records file shorter than its header");
            }
            byte[] b = h.array();
            if (!java.util.Arrays.equals(b, 0, 4, MAGIC, 0, 4)
                    || b[4] != VERSION
                    || crc(b, 0, 60) != ByteBuffer.wrap(b, 60, 4).getInt()) {
                throw new IOException(file + ": not a valid accepted-records file (magic, version or CRC)");
            }
            int cap = ByteBuffer.wrap(b, 8, 4).getInt();
            int slot = ByteBuffer.wrap(b, 12, 4).getInt();
            byte[] id = java.util.Arrays.copyOfRange(b, 16, 16 + KeyId.BYTES);
            if (cap < 1
                    || cap > MAX_CAPACITY
                    || slot < Math.max(slotBytes, SLOT_HEADER_BYTES + 1)
                    || slot > SLOT_HEADER_BYTES + maxRecordBytes(SignedRecord.MAX_SIGNATURE_BYTES)
                    || !KeyId.of(id).equals(key)) {
                throw new IOException(file + ": accepted-records header does not fit key " + key.hex());
            }
            return new Ring(ch, key, cap, slot);
        }

        /** The highest index any slot holds a valid record of, or -1. */
        long highest() throws IOException {
            long best = -1;
            for (long slot = 0; slot < capacity; slot++) {
                Optional<SignedRecord> r = recordAt(HEADER_BYTES + slot * slotBytes);
                if (r.isPresent() && r.get().index() % capacity == slot) {
                    best = Math.max(best, r.get().index());
                }
            }
            return best;
        }

        static ByteBuffer header(KeyId key, int capacity, int slotBytes) {
            byte[] b = new byte[HEADER_BYTES];
            System.arraycopy(MAGIC, 0, b, 0, 4);
            b[4] = VERSION;
            ByteBuffer.wrap(b, 8, 8).putInt(capacity).putInt(slotBytes);
            System.arraycopy(key.bytes(), 0, b, 16, KeyId.BYTES);
            ByteBuffer.wrap(b, 60, 4).putInt(crc(b, 0, 60));
            return ByteBuffer.wrap(b);
        }

        long offset(long index) {
            return HEADER_BYTES + (index % capacity) * (long) slotBytes;
        }

        synchronized void put(SignedRecord r) throws IOException {
            byte[] rec = r.encode();
            if (rec.length > slotBytes - SLOT_HEADER_BYTES) {
                throw new IOException("record of " + rec.length + " bytes does not fit a " + slotBytes + "-byte slot");
            }
            ByteBuffer b = ByteBuffer.allocate(SLOT_HEADER_BYTES + rec.length);
            b.putInt(rec.length).putInt(crc(rec, 0, rec.length)).put(rec).flip();
            long at = offset(r.index());
            long slot = r.index() % capacity;
            recentPuts.remove(slot); // a failed write leaves the slot unknown
            while (b.hasRemaining()) {
                at += channel.write(b, at);
            }
            recentPuts.put(slot, new long[] {r.index(), rec.length});
        }

        synchronized Optional<SignedRecord> get(long index) throws IOException {
            Optional<SignedRecord> r = recordAt(offset(index));
            return r.isPresent() && r.get().index() == index ? r : Optional.empty();
        }

        /** The valid record of this ring's key in the slot at {@code at}, if any. */
        private Optional<SignedRecord> recordAt(long at) throws IOException {
            ByteBuffer h = ByteBuffer.allocate(SLOT_HEADER_BYTES);
            if (!readFully(h, at)) {
                return Optional.empty();
            }
            int n = h.getInt(0) & ~REPORTED;
            int crc = h.getInt(4);
            if (n <= 0 || n > slotBytes - SLOT_HEADER_BYTES) {
                return Optional.empty();
            }
            ByteBuffer body = ByteBuffer.allocate(n);
            if (!readFully(body, at + SLOT_HEADER_BYTES) || crc(body.array(), 0, n) != crc) {
                return Optional.empty();
            }
            try {
                SignedRecord r = SignedRecord.decode(body.array());
                return r.keyId().equals(key) ? Optional.of(r) : Optional.empty();
            } catch (IllegalArgumentException e) {
                return Optional.empty(); // a slot torn by a crash: nothing remembered there
            }
        }

        synchronized boolean isReported(long index) throws IOException {
            ByteBuffer h = ByteBuffer.allocate(4);
            return readFully(h, offset(index)) && (h.getInt(0) & REPORTED) != 0;
        }

        synchronized void markReported(long index) throws IOException {
            long at = offset(index);
            ByteBuffer h = ByteBuffer.allocate(4);
            long[] put = recentPuts.get(index % capacity);
            if (put != null && put[0] == index) {
                // This process wrote the slot last and nothing has replaced it since.
                h.putInt(0, (int) put[1] | REPORTED);
                recentPuts.remove(index % capacity); // marked once; a second mark reads the slot
            } else {
                if (get(index).isEmpty()) {
                    return; // the slot holds another index by now
                }
                if (!readFully(h, at)) {
                    return;
                }
                h.putInt(0, h.getInt(0) | REPORTED);
            }
            h.rewind();
            while (h.hasRemaining()) {
                channel.write(h, at + h.position());
            }
        }

        private boolean readFully(ByteBuffer b, long at) throws IOException {
            while (b.hasRemaining()) {
                int n = channel.read(b, at + b.position());
                if (n < 0) {
                    return false;
                }
            }
            return true;
        }
    }

    private static int crc(byte[] b, int off, int len) {
        return StateCodec.crc32c(b, off, len);
    }
}
