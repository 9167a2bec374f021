package dev.pqsign.opcua.gateway;

import dev.pqsign.opcua.gateway.HistoryFormat.Entry;
import dev.pqsign.opcua.gateway.HistoryFormat.Header;
import dev.pqsign.telemetry.KeyId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The served history of one sensor: the readings the operator accepted, newest last, in at most
 * two segment files ({@link HistorySegment}). A new segment is started when the current one holds
 * half the entries or half the bytes allowed; the oldest goes when a third would exist. So the
 * history holds at least the newest half of its bounds and never more than them (one entry of
 * slack per segment). Format: docs/formats/gateway-history.md.
 *
 * <p>Appends are written at once (they survive a kill of the process) and made durable by
 * {@link #sync()}, which the gateway calls periodically and on close. A reading already in the
 * history (same key, index at or below the last one stored of that key) is not stored again: after
 * a restart the operator reports the readings whose verdicts it had not written yet once more.
 */
final class SensorHistory implements AutoCloseable {

    /** Suffix of segment files. */
    static final String SUFFIX = ".pqvh";

    private final Path dir;
    private final String sensor;
    private final String prefix;
    private final long maxEntries;
    private final long maxBytes;
    private final Deque<HistorySegment> segments = new ArrayDeque<>();
    /** Per key, the highest index stored. */
    private final Map<KeyId, Long> lastIndex = new HashMap<>();

    private Entry newest;

    private SensorHistory(Path dir, String sensor, long maxEntries, long maxBytes) {
        this.dir = dir;
        this.sensor = sensor;
        this.prefix = fileId(sensor);
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The file name prefix of a sensor's segments: 32 hex digits of SHA-256 of its UTF-8 name. */
    static String fileId(String sensor) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(sensor.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }

    /**
     * Opens (or starts) the history of {@code sensor} in {@code dir}.
     *
     * @param maxEntries the most entries kept, at least 2
     * @param maxBytes the most bytes of segment files kept, at least 64 KiB
     * @throws IOException if a segment cannot be read, or belongs to another sensor
     */
    static SensorHistory open(Path dir, String sensor, long maxEntries, long maxBytes) throws IOException {
        if (maxEntries < 2) {
            throw new IllegalArgumentException("a history keeps at least 2 entries, got " + maxEntries);
        }
        if (maxBytes < 64 * 1024) {
            throw new IllegalArgumentException("a history keeps at least 64 KiB, got " + maxBytes);
        }
        Files.createDirectories(dir);
        SensorHistory h = new SensorHistory(dir, sensor, maxEntries, maxBytes);
        h.load();
        return h;
    }

    private void load() throws IOException {
        TreeMap<Long, Path> files = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, prefix + "-*" + SUFFIX)) {
            for (Path p : ds) {
                String n = p.getFileName().toString();
                String num = n.substring(prefix.length() + 1, n.length() - SUFFIX.length());
                if (num.length() == 16 && num.chars().allMatch(c -> c >= '0' && c <= '9')) {
                    files.put(Long.parseLong(num), p);
                }
            }
        }
        while (files.size() > 2) {
            Files.delete(files.pollFirstEntry().getValue()); // a rotation killed before it removed the oldest
        }
        long next = 1;
        for (Map.Entry<Long, Path> f : files.entrySet()) {
            boolean last = f.getKey().equals(files.lastKey());
            HistorySegment s = HistorySegment.open(f.getValue(), sensor, last, (e, bytes) -> {
                remember(e);
                return true;
            });
            if (s.header.segment() != f.getKey() || s.header.firstSequence() < next) {
                s.close();
                throw new IOException(f.getValue() + ": segment number or sequence out of order");
            }
            next = s.nextSequence();
            segments.addLast(s);
        }
        if (segments.isEmpty()) {
            segments.addLast(HistorySegment.create(segmentPath(1), new Header(sensor, 1, 1)));
        }
    }

    private Path segmentPath(long number) {
        return dir.resolve(prefix + "-" + String.format(java.util.Locale.ROOT, "%016d", number) + SUFFIX);
    }

    private void remember(Entry e) {
        lastIndex.merge(e.keyId(), e.index(), Math::max);
        newest = e;
    }

    /**
     * Appends an accepted reading, unless it is stored already.
     *
     * @return the stored entry, or empty if this key's index was stored before
     * @throws IOException if the segment cannot be written or rotated
     */
    synchronized Optional<Entry> append(Instant sourceTime, Instant verdictTime, KeyId key, long index, String reading)
            throws IOException {
        Long last = lastIndex.get(key);
        if (last != null && index <= last) {
            return Optional.empty();
        }
        HistorySegment current = segments.getLast();
        Entry e = new Entry(current.nextSequence(), sourceTime, verdictTime, key, index, reading);
        if (current.count() > 0
                && (current.count() + 1 > maxEntries / 2 || current.bytes() + e.fileBytes() > maxBytes / 2)) {
            current = rotate(current);
        }
        current.append(e);
        remember(e);
        return Optional.of(e);
    }

    private HistorySegment rotate(HistorySegment full) throws IOException {
        full.sync();
        HistorySegment s = HistorySegment.create(
                segmentPath(full.header.segment() + 1),
                new Header(sensor, full.header.segment() + 1, full.nextSequence()));
        segments.addLast(s);
        while (segments.size() > 2) {
            HistorySegment old = segments.removeFirst();
            old.close();
            Files.deleteIfExists(old.file);
        }
        return s;
    }

    /** The newest entry, if any. */
    synchronized Optional<Entry> newest() {
        return Optional.ofNullable(newest);
    }

    /** Sequence of the oldest entry held (the next one to be stored if there is none). */
    synchronized long oldestSequence() {
        return segments.getFirst().header.firstSequence();
    }

    /** Makes every appended entry durable. */
    synchronized void sync() throws IOException {
        segments.getLast().sync();
    }

    /**
     * Reads entries from {@code fromSequence} (or, if it is 0, from the first that may have a source
     * time at or after {@code fromNanos}) until the visitor stops.
     *
     * @return false if the visitor stopped before the end of the history
     * @throws IOException if a segment cannot be read
     */
    boolean read(long fromSequence, long fromNanos, HistorySegment.Visitor visitor) throws IOException {
        List<HistorySegment> snapshot;
        List<Long> limits = new ArrayList<>();
        long from = fromSequence;
        synchronized (this) {
            snapshot = new ArrayList<>(segments);
            for (HistorySegment s : snapshot) {
                limits.add(s.bytes());
            }
            if (from == 0) {
                from = Long.MAX_VALUE;
                for (HistorySegment s : snapshot) {
                    long f = s.firstSequenceFrom(fromNanos);
                    if (f >= 0) {
                        from = f;
                        break;
                    }
                }
            }
        }
        for (int i = 0; i < snapshot.size(); i++) {
            HistorySegment s = snapshot.get(i);
            if (s.nextSequence() <= from && i < snapshot.size() - 1) {
                continue;
            }
            try {
                if (!s.read(Math.max(from, s.header.firstSequence()), limits.get(i), visitor)) {
                    return false;
                }
            } catch (java.nio.channels.ClosedChannelException pruned) {
                // rotated away while read: the next segment continues
            }
        }
        return true;
    }

    @Override
    public synchronized void close() throws IOException {
        IOException first = null;
        for (HistorySegment s : segments) {
            try {
                s.sync();
                s.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
