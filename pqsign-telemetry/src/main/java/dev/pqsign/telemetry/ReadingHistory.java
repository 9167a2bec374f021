package dev.pqsign.telemetry;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.KeyHandover;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.telemetry.internal.HistoryFile;
import dev.pqsign.telemetry.internal.HistoryIndex;
import dev.pqsign.telemetry.internal.HistoryIndex.Entry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The sensor's store-and-forward buffer: its most recent signed records and the key handover
 * records published between them, ordered by source time (which the sensor keeps strictly
 * increasing). Operators read it with OPC UA HistoryRead to fetch what they missed while
 * disconnected, handovers included, so an operator that was away across several key rollovers
 * follows every handover in order before it meets a reading of a newer key.
 *
 * <p>Bounds: at most {@code maxCount} readings and, separately, at most {@code maxCount} handovers,
 * none older than {@code maxAge} (the newest reading and the newest handover always stay), and at
 * most {@code maxBytes} of entries of both kinds together (as stored in the file: body and its
 * 8-byte entry header). Readings never push a handover out by count: a handover leaves only by age
 * (like the readings around it), when {@code maxCount} newer handovers exist, or, past
 * {@code maxBytes}, once no reading but the newest is left to go; so it outlives the readings of
 * its own key.
 *
 * <p>With a file ({@link #open(Path, int, long, Duration, Clock)}) every entry is appended
 * (format in {@code docs/formats/signed-record.md}) and the file is read back at start-up, so the
 * history survives a sensor restart; the memory then holds only where each entry is in the file
 * (a few dozen bytes per entry), and every read takes the entries it returns from the file. When
 * the file holds twice the entries kept + 1,000, it is replaced by one holding only those, written
 * entry by entry. Appends are not flushed one by one: they survive the sensor's process being
 * killed (the page cache holds them); a power loss can lose the newest ones, which operators then
 * report as gaps. An entry whose append failed stays in memory until the next rewrite stores it.
 * Thread-safe.
 */
public final class ReadingHistory implements AutoCloseable {

    /** Magic of a handover entry's body: {@code "PQHT"}, then the source time, then the record. */
    static final byte[] HANDOVER_MAGIC = {'P', 'Q', 'H', 'T'};

    static final int HANDOVER_PREFIX_BYTES = 4 + 8;
    /** Largest signed key handover record (magic, version, two length-prefixed fields). */
    static final int MAX_HANDOVER_BYTES = 4 + 1 + 4 + KeyHandover.MAX_BYTES + 4 + SignedKeyHandover.MAX_SIGNATURE_BYTES;
    /** Largest entry body: a record with the largest signature (handover entries are smaller). */
    static final int MAX_ENTRY_BYTES = SignedRecord.FIXED_BYTES
            + ReadingMessage.MAX_NAME_BYTES
            + ReadingMessage.MAX_READING_BYTES
            + SignedRecord.MAX_SIGNATURE_BYTES;

    /**
     * The most bytes of entries a history holds unless told otherwise: 128 MiB, more than 10,000
     * readings of the study's second set (9.4 KB each) and about 9,000 of its third.
     */
    public static final long DEFAULT_MAX_BYTES = 128L << 20;

    private final int maxCount;
    private final long maxBytes;
    private final Duration maxAge;
    private final Clock clock;
    private final Path file;
    private final HistoryIndex held;
    private long newestNanos = Long.MIN_VALUE;

    private HistoryFile store;

    private ReadingHistory(int maxCount, long maxBytes, Duration maxAge, Clock clock, Path file) {
        if (maxCount < 1) {
            throw new IllegalArgumentException("history must hold at least one reading, got " + maxCount);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("history bytes must be positive, got " + maxBytes);
        }
        if (maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("history age must be positive, got " + maxAge);
        }
        this.maxCount = maxCount;
        this.maxBytes = maxBytes;
        this.maxAge = maxAge;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.file = file;
        this.held = new HistoryIndex(maxCount, maxBytes);
    }

    /**
     * A history kept in memory only.
     *
     * @param maxCount the most readings held, and separately the most handovers; at least 1
     * @param maxAge entries older than this by {@code clock} are dropped; positive
     * @param clock the clock that ages entries
     * @return an empty history
     * @throws IllegalArgumentException if {@code maxCount} is below 1 or {@code maxAge} is not positive
     */
    public static ReadingHistory inMemory(int maxCount, Duration maxAge, Clock clock) {
        return inMemory(maxCount, DEFAULT_MAX_BYTES, maxAge, clock);
    }

    /**
     * A history kept in memory only, bounded in bytes too.
     *
     * @param maxCount the most readings held, and separately the most handovers; at least 1
     * @param maxBytes the most bytes of entries held, both kinds together; positive
     * @param maxAge entries older than this by {@code clock} are dropped; positive
     * @param clock the clock that ages entries
     * @return an empty history
     * @throws IllegalArgumentException if {@code maxCount} is below 1 or {@code maxBytes} or
     *     {@code maxAge} is not positive
     */
    public static ReadingHistory inMemory(int maxCount, long maxBytes, Duration maxAge, Clock clock) {
        return new ReadingHistory(maxCount, maxBytes, maxAge, clock, null);
    }

    /**
     * A history kept in {@code file} as well (created if missing; an entry torn by a crash at the
     * end is cut off).
     *
     * @param file the history file
     * @param maxCount the most readings held, and separately the most handovers; at least 1
     * @param maxAge entries older than this by {@code clock} are dropped; positive
     * @param clock the clock that ages entries
     * @return the history, holding the file's entries that are still within the limits
     * @throws IOException if the file cannot be read or is not a history file
     * @throws IllegalArgumentException if {@code maxCount} is below 1 or {@code maxAge} is not positive
     */
    public static ReadingHistory open(Path file, int maxCount, Duration maxAge, Clock clock) throws IOException {
        return open(file, maxCount, DEFAULT_MAX_BYTES, maxAge, clock);
    }

    /**
     * A history kept in {@code file}, bounded in bytes too (see
     * {@link #open(Path, int, Duration, Clock)}).
     *
     * @param file the history file
     * @param maxCount the most readings held, and separately the most handovers; at least 1
     * @param maxBytes the most bytes of entries held, both kinds together; positive
     * @param maxAge entries older than this by {@code clock} are dropped; positive
     * @param clock the clock that ages entries
     * @return the history, holding the file's entries that are still within the limits
     * @throws IOException if the file cannot be read or is not a history file
     * @throws IllegalArgumentException if {@code maxCount} is below 1 or {@code maxBytes} or
     *     {@code maxAge} is not positive
     */
    public static ReadingHistory open(Path file, int maxCount, long maxBytes, Duration maxAge, Clock clock)
            throws IOException {
        ReadingHistory h = new ReadingHistory(maxCount, maxBytes, maxAge, clock, Objects.requireNonNull(file, "file"));
        h.load();
        return h;
    }

    private void load() throws IOException {
        store = HistoryFile.open(file, HANDOVER_PREFIX_BYTES, MAX_ENTRY_BYTES, (body, offset) -> {
            Entry e = parse(body, offset);
            if (e == null) {
                return false;
            }
            if (e.sourceNanos() > newestNanos) {
                held.hold(e);
                newestNanos = e.sourceNanos();
                prune(); // while loading too: a file of a larger history must not fill the memory
            }
            return true;
        });
        prune();
    }

    /**
     * The entry a stored body at {@code offset} of the file holds (its body left in the file), or
     * null if it does not decode.
     */
    private static Entry parse(byte[] body, long offset) {
        try {
            if (isHandover(body)) {
                if (body.length > HANDOVER_PREFIX_BYTES + MAX_HANDOVER_BYTES) {
                    return null;
                }
                SignedKeyHandover.decode(Arrays.copyOfRange(body, HANDOVER_PREFIX_BYTES, body.length));
                return new Entry(
                        ByteBuffer.wrap(body, 4, 8).getLong(),
                        true,
                        body.length,
                        offset,
                        null,
                        body.length - HANDOVER_PREFIX_BYTES);
            }
            if (body.length < SignedRecord.FIXED_BYTES) {
                return null;
            }
            return new Entry(
                    nanos(SignedRecord.decode(body).sourceTime()), false, body.length, offset, null, body.length);
        } catch (IllegalArgumentException | KeyFormatException e) {
            return null;
        }
    }

    private static boolean isHandover(byte[] body) {
        return body.length >= HANDOVER_PREFIX_BYTES && Arrays.equals(body, 0, 4, HANDOVER_MAGIC, 0, 4);
    }

    /** The body of {@code e}: from memory, or read from the file. */
    private byte[] body(Entry e) {
        if (e.body() != null) {
            return e.body();
        }
        try {
            if (store == null) {
                throw new IOException("the file ends before the entry at " + e.offset());
            }
            return store.read(e.offset(), e.length());
        } catch (IOException x) {
            throw new UncheckedIOException(
                    file + ": cannot read the history entry at " + e.offset() + ": " + x.getMessage(), x);
        }
    }

    private HistoryEntry decode(Entry e) {
        byte[] body = body(e);
        if (e.handover()) {
            return HistoryEntry.ofHandover(
                    instant(e.sourceNanos()),
                    SignedKeyHandover.decode(Arrays.copyOfRange(body, HANDOVER_PREFIX_BYTES, body.length)));
        }
        return HistoryEntry.ofReading(SignedRecord.decode(body));
    }

    /**
     * The newest reading, if any.
     *
     * @return the newest reading, or empty
     */
    public synchronized Optional<SignedRecord> newest() {
        Entry e = held.newestReading();
        return e == null ? Optional.empty() : Optional.of(SignedRecord.decode(body(e)));
    }

    /**
     * The source time of the newest entry, reading or handover (a restarted sensor continues its
     * source times after it).
     *
     * @return the source time, or empty if the history is empty
     */
    public synchronized Optional<Instant> newestSourceTime() {
        return newestNanos == Long.MIN_VALUE ? Optional.empty() : Optional.of(instant(newestNanos));
    }

    /**
     * The newest handover held, if any (a restarted sensor adds the ones a crash kept out).
     *
     * @return the newest handover, or empty
     */
    public synchronized Optional<SignedKeyHandover> newestHandover() {
        Entry e = held.newestHandover();
        return e == null ? Optional.empty() : decode(e).handover();
    }

    /**
     * The most readings (and, separately, the most handovers) the history holds.
     *
     * @return {@code maxCount}
     */
    public int capacity() {
        return maxCount;
    }

    /**
     * Number of readings held now.
     *
     * @return the readings held
     */
    public synchronized int size() {
        prune();
        return held.readingCount();
    }

    /**
     * Number of handovers held now.
     *
     * @return the handovers held
     */
    public synchronized int handoverCount() {
        prune();
        return held.handoverCount();
    }

    /**
     * Adds a record; its source time must be after the newest entry's.
     *
     * @param record the published record
     * @throws IOException if the file cannot be appended to (the record is kept in memory anyway)
     * @throws IllegalArgumentException if its source time is not after the newest entry's
     */
    public synchronized void add(SignedRecord record) throws IOException {
        append(false, nanos(record.sourceTime()), record.encode());
    }

    /**
     * Adds a key handover record published at {@code sourceTime}, which must be after the newest
     * entry's.
     *
     * @param sourceTime when the sensor published it
     * @param handover the signed handover
     * @throws IOException if the file cannot be appended to (the handover is kept in memory anyway)
     * @throws IllegalArgumentException if {@code sourceTime} is not after the newest entry's
     */
    public synchronized void addHandover(Instant sourceTime, SignedKeyHandover handover) throws IOException {
        long at = nanos(sourceTime);
        byte[] record = handover.encode();
        byte[] body = ByteBuffer.allocate(HANDOVER_PREFIX_BYTES + record.length)
                .put(HANDOVER_MAGIC)
                .putLong(at)
                .put(record)
                .array();
        append(true, at, body);
    }

    private void append(boolean handover, long nanos, byte[] body) throws IOException {
        if (nanos <= newestNanos) {
            throw new IllegalArgumentException("history source times must increase");
        }
        newestNanos = nanos;
        if (store == null) {
            held.hold(appended(nanos, handover, body, -1));
            prune();
            return;
        }
        long offset;
        try {
            offset = store.append(body);
        } catch (IOException e) {
            held.hold(appended(nanos, handover, body, -1)); // kept in memory until a rewrite stores it
            prune();
            throw e;
        }
        held.hold(appended(nanos, handover, body, offset));
        prune();
        if (store.entries() >= 2L * (held.readingCount() + held.handoverCount()) + 1000) {
            rewrite();
        }
    }

    /** The entry of a body appended now: in the file at {@code offset}, or held in memory (offset −1). */
    private static Entry appended(long nanos, boolean handover, byte[] body, long offset) {
        int value = handover ? body.length - HANDOVER_PREFIX_BYTES : body.length;
        return new Entry(nanos, handover, body.length, offset, offset < 0 ? body : null, value);
    }

    /**
     * Replaces the file by one holding only the entries kept now, in source-time order (atomically),
     * written entry by entry from the old file: never the whole history in memory.
     */
    private void rewrite() throws IOException {
        List<Entry> kept = held.merged(Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE);
        long[] offsets = store.rewrite(kept.size(), i -> body(kept.get(i)));
        List<Entry> moved = new ArrayList<>(kept.size());
        for (int i = 0; i < kept.size(); i++) {
            moved.add(kept.get(i).movedTo(offsets[i]));
        }
        held.replaceAll(moved);
    }

    /**
     * Readings with source time in {@code from … to} (both inclusive), oldest first, at most {@code max}.
     *
     * @param from the earliest source time
     * @param to the latest source time
     * @param max the most entries returned
     * @return the readings, oldest first
     */
    public synchronized List<SignedRecord> range(Instant from, Instant to, int max) {
        return range(from, to, max, Long.MAX_VALUE);
    }

    /**
     * Like {@link #range(Instant, Instant, int)}, and it also stops after the first reading whose
     * encoding brings the total of the returned encodings above {@code maxBytes}: that reading is
     * still returned, so a caller paging by size can tell that more follow. Only the returned
     * readings are decoded.
     *
     * @param from the earliest source time
     * @param to the latest source time
     * @param max the most entries returned
     * @param maxBytes the total encoded size after which no further reading is returned
     * @return the readings, oldest first
     */
    public synchronized List<SignedRecord> range(Instant from, Instant to, int max, long maxBytes) {
        prune();
        List<SignedRecord> out = new ArrayList<>();
        for (Entry e : held.readings(nanos(from), nanos(to), max, maxBytes)) {
            out.add(SignedRecord.decode(body(e)));
        }
        return out;
    }

    /**
     * Readings and handovers with source time in {@code from … to} (both inclusive), in the order
     * the sensor published them, at most {@code max}.
     *
     * @param from the earliest source time
     * @param to the latest source time
     * @param max the most entries returned
     * @return the entries, in publication order
     */
    public synchronized List<HistoryEntry> entries(Instant from, Instant to, int max) {
        return entries(from, to, max, Long.MAX_VALUE);
    }

    /**
     * Like {@link #entries(Instant, Instant, int)}, and it also stops after the first entry whose
     * {@link HistoryEntry#value()} brings the total of the returned values' sizes above
     * {@code maxBytes} (that entry included, as in {@link #range(Instant, Instant, int, long)}).
     *
     * @param from the earliest source time
     * @param to the latest source time
     * @param max the most entries returned
     * @param maxBytes the total value size after which no further entry is returned
     * @return the entries, in publication order
     */
    public synchronized List<HistoryEntry> entries(Instant from, Instant to, int max, long maxBytes) {
        prune();
        List<HistoryEntry> out = new ArrayList<>();
        for (Entry e : held.merged(nanos(from), nanos(to), max, maxBytes)) {
            out.add(decode(e));
        }
        return out;
    }

    /**
     * Handovers only, with source time in {@code from … to} (both inclusive), oldest first, at most
     * {@code max}: the chain an operator that missed several handovers follows.
     *
     * @param from the earliest source time
     * @param to the latest source time
     * @param max the most entries returned
     * @return the handovers, oldest first
     */
    public synchronized List<HistoryEntry> handovers(Instant from, Instant to, int max) {
        return handovers(from, to, max, Long.MAX_VALUE);
    }

    /**
     * Like {@link #handovers(Instant, Instant, int)}, with the size limit of
     * {@link #entries(Instant, Instant, int, long)}.
     *
     * @param from the earliest source time
     * @param to the latest source time
     * @param max the most entries returned
     * @param maxBytes the total value size after which no further handover is returned
     * @return the handovers, oldest first
     */
    public synchronized List<HistoryEntry> handovers(Instant from, Instant to, int max, long maxBytes) {
        prune();
        List<HistoryEntry> out = new ArrayList<>();
        for (Entry e : held.handovers(nanos(from), nanos(to), max, maxBytes)) {
            out.add(decode(e));
        }
        return out;
    }

    private void prune() {
        held.prune(nanos(clock.instant().minus(maxAge)));
    }

    /**
     * The most bytes of entries the history holds, both kinds together.
     *
     * @return {@code maxBytes}
     */
    public long byteCapacity() {
        return maxBytes;
    }

    /**
     * Bytes of the entries held now, as they are stored in the file (body and entry header).
     *
     * @return the bytes held
     */
    public synchronized long bytes() {
        prune();
        return held.bytes();
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

    private static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    @Override
    public synchronized void close() throws IOException {
        if (store != null) {
            store.close();
            store = null;
        }
    }
}
