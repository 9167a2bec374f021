package dev.pqsign.telemetry;

import dev.pqsign.state.DurableFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The sensor's store-and-forward buffer: its most recent signed records, bounded by count and by
 * age, ordered by source time (which the sensor keeps strictly increasing). Operators read it with
 * OPC UA HistoryRead to fetch what they missed while disconnected.
 *
 * <p>With a file ({@link #open(Path, int, Duration, Clock)}) every record is appended
 * (format in {@code docs/formats/signed-record.md}) and the file is read back at start-up, so the
 * history survives a sensor restart. Appends are not flushed one by one: they survive the sensor's
 * process being killed (the page cache holds them); a power loss can lose the newest ones, which
 * operators then report as gaps. Thread-safe.
 */
public final class ReadingHistory implements AutoCloseable {

    static final byte[] MAGIC = {'P', 'Q', 'H', 'L'};
    static final int VERSION = 1;
    static final int HEADER_BYTES = 16;
    static final int ENTRY_HEADER_BYTES = 8;
    /** Largest record an entry may hold (a record with the largest signature). */
    static final int MAX_ENTRY_BYTES = SignedRecord.FIXED_BYTES
            + ReadingMessage.MAX_NAME_BYTES
            + ReadingMessage.MAX_READING_BYTES
            + SignedRecord.MAX_SIGNATURE_BYTES;

    /** One stored record. */
    private record Entry(long sourceNanos, byte[] bytes) {}

    private final int maxCount;
    private final Duration maxAge;
    private final Clock clock;
    private final Path file;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private FileChannel channel;
    private long entriesInFile;

    private ReadingHistory(int maxCount, Duration maxAge, Clock clock, Path file) {
        if (maxCount < 1) {
            throw new IllegalArgumentException("history must hold at least one reading, got " + maxCount);
        }
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("history age must be positive, got " + maxAge);
        }
        this.maxCount = maxCount;
        this.maxAge = maxAge;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.file = file;
    }

    /** A history kept in memory only. */
    public static ReadingHistory inMemory(int maxCount, Duration maxAge, Clock clock) {
        return new ReadingHistory(maxCount, maxAge, clock, null);
    }

    /**
     * A history kept in {@code file} as well (created if missing; an entry torn by a crash at the
     * end is cut off).
     *
     * @throws IOException if the file cannot be read or is not a history file
     */
    public static ReadingHistory open(Path file, int maxCount, Duration maxAge, Clock clock) throws IOException {
        ReadingHistory h = new ReadingHistory(maxCount, maxAge, clock, Objects.requireNonNull(file, "file"));
        h.load();
        return h;
    }

    private void load() throws IOException {
        if (!Files.exists(file)) {
            DurableFiles.createAtomically(file, header());
        }
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        long size = channel.size();
        ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES);
        if (size < HEADER_BYTES || !readFully(h, 0) || !java.util.Arrays.equals(h.array(), header())) {
            channel.close();
            throw new IOException(file + ": not a reading history file (magic / version)");
        }
        long at = HEADER_BYTES;
        ByteBuffer eh = ByteBuffer.allocate(ENTRY_HEADER_BYTES);
        while (at + ENTRY_HEADER_BYTES <= size) {
            eh.clear();
            if (!readFully(eh, at)) {
                break;
            }
            long n = eh.getInt(0) & 0xffffffffL;
            int crc = eh.getInt(4);
            if (n < SignedRecord.FIXED_BYTES || n > MAX_ENTRY_BYTES || at + ENTRY_HEADER_BYTES + n > size) {
                break;
            }
            ByteBuffer body = ByteBuffer.allocate((int) n);
            if (!readFully(body, at + ENTRY_HEADER_BYTES) || AcceptedRecords.crc(body.array(), 0, (int) n) != crc) {
                break;
            }
            SignedRecord r;
            try {
                r = SignedRecord.decode(body.array());
            } catch (IllegalArgumentException e) {
                break;
            }
            long nanos = nanos(r.sourceTime());
            if (entries.isEmpty() || nanos > entries.peekLast().sourceNanos()) {
                entries.addLast(new Entry(nanos, body.array()));
            }
            entriesInFile++;
            at += ENTRY_HEADER_BYTES + n;
        }
        if (at < size) {
            channel.truncate(at); // a torn last append
        }
        prune();
    }

    private static byte[] header() {
        byte[] b = new byte[HEADER_BYTES];
        System.arraycopy(MAGIC, 0, b, 0, 4);
        b[4] = VERSION;
        return b;
    }

    /** The newest record, if any (a restarted sensor continues its source times after it). */
    public synchronized Optional<SignedRecord> newest() {
        return entries.isEmpty()
                ? Optional.empty()
                : Optional.of(SignedRecord.decode(entries.peekLast().bytes()));
    }

    /** Number of records held now. */
    public synchronized int size() {
        prune();
        return entries.size();
    }

    /**
     * Adds a record; its source time must be after the newest one's.
     *
     * @throws IOException if the file cannot be appended to (the record is kept in memory anyway)
     */
    public synchronized void add(SignedRecord record) throws IOException {
        long nanos = nanos(record.sourceTime());
        if (!entries.isEmpty() && nanos <= entries.peekLast().sourceNanos()) {
            throw new IllegalArgumentException("history source times must increase");
        }
        byte[] bytes = record.encode();
        entries.addLast(new Entry(nanos, bytes));
        prune();
        if (channel != null) {
            if (entriesInFile >= 2L * maxCount + 1000) {
                rewrite();
            } else {
                ByteBuffer b = ByteBuffer.allocate(ENTRY_HEADER_BYTES + bytes.length);
                b.putInt(bytes.length)
                        .putInt(AcceptedRecords.crc(bytes, 0, bytes.length))
                        .put(bytes)
                        .flip();
                long at = channel.size();
                while (b.hasRemaining()) {
                    at += channel.write(b, at);
                }
                entriesInFile++;
            }
        }
    }

    /** Replaces the file by one holding only the records kept now (atomically). */
    private void rewrite() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header());
        for (Entry e : entries) {
            out.write(ByteBuffer.allocate(ENTRY_HEADER_BYTES)
                    .putInt(e.bytes().length)
                    .putInt(AcceptedRecords.crc(e.bytes(), 0, e.bytes().length))
                    .array());
            out.write(e.bytes());
        }
        channel.close();
        DurableFiles.writeAtomically(file, out.toByteArray());
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        entriesInFile = entries.size();
    }

    /**
     * Records with source time in {@code from … to} (both inclusive), oldest first, at most {@code max}.
     */
    public synchronized List<SignedRecord> range(Instant from, Instant to, int max) {
        prune();
        long lo = nanos(from);
        long hi = nanos(to);
        List<SignedRecord> out = new ArrayList<>();
        for (Entry e : entries) {
            if (out.size() >= max) {
                break;
            }
            if (e.sourceNanos() >= lo && e.sourceNanos() <= hi) {
                out.add(SignedRecord.decode(e.bytes()));
            }
        }
        return out;
    }

    private void prune() {
        while (entries.size() > maxCount) {
            entries.removeFirst();
        }
        long oldest = nanos(clock.instant().minus(maxAge));
        Iterator<Entry> it = entries.iterator();
        while (it.hasNext() && entries.size() > 1 && it.next().sourceNanos() < oldest) {
            it.remove(); // the newest stays: a stopped sensor's last reading must remain fetchable
        }
    }

    /** Nanoseconds since the epoch, saturated. */
    static long nanos(Instant t) {
        if (t.getEpochSecond() >= Long.MAX_VALUE / 1_000_000_000L) {
            return Long.MAX_VALUE;
        }
        if (t.getEpochSecond() <= Long.MIN_VALUE / 1_000_000_000L) {
            return Long.MIN_VALUE;
        }
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private boolean readFully(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            if (channel.read(b, at + b.position()) < 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
