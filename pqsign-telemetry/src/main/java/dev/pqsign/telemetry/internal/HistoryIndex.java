package dev.pqsign.telemetry.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * What the sensor's history holds, without the bodies: its readings and its handovers, each kind
 * oldest first, with the bounds that decide which entries leave (count per kind, age, and bytes of
 * both kinds together). Not thread-safe: its owner ({@code ReadingHistory}) serializes the calls.
 */
public final class HistoryIndex {

    /**
     * One held entry: its kind and size, and where its body is in the file ({@code offset} of the
     * body), or the body itself ({@code body} non-null: a history without a file, or an append that
     * failed).
     *
     * @param sourceNanos its source time, nanoseconds since the epoch
     * @param handover whether it is a key handover (else a reading)
     * @param length its body's length
     * @param offset where its body starts in the file, or −1
     * @param body its body when it is held in memory, else null
     * @param valueBytes the size of the value served for it (the record, without a handover's prefix)
     */
    public record Entry(long sourceNanos, boolean handover, int length, long offset, byte[] body, int valueBytes) {
        /**
         * Bytes it takes in the file: its entry header and body.
         *
         * @return the stored size
         */
        public long stored() {
            return HistoryFile.ENTRY_HEADER_BYTES + (long) length;
        }

        /**
         * The same entry, its body now at {@code newOffset} of the file.
         *
         * @param newOffset where its body starts now
         * @return the moved entry
         */
        public Entry movedTo(long newOffset) {
            return new Entry(sourceNanos, handover, length, newOffset, null, valueBytes);
        }
    }

    private final int maxCount;
    private final long maxBytes;
    private final ArrayDeque<Entry> readings = new ArrayDeque<>();
    private final ArrayDeque<Entry> handovers = new ArrayDeque<>();
    /** Bytes of the entries held, as {@link Entry#stored()}. */
    private long bytes;

    /**
     * An empty index.
     *
     * @param maxCount the most readings held, and separately the most handovers
     * @param maxBytes the most bytes of entries held, both kinds together
     */
    public HistoryIndex(int maxCount, long maxBytes) {
        this.maxCount = maxCount;
        this.maxBytes = maxBytes;
    }

    /**
     * Holds {@code e} as the newest of its kind.
     *
     * @param e the entry
     */
    public void hold(Entry e) {
        (e.handover() ? handovers : readings).addLast(e);
        bytes += e.stored();
    }

    /**
     * Replaces everything held by {@code entries} (in source-time order, both kinds mixed).
     *
     * @param entries the entries to hold
     */
    public void replaceAll(List<Entry> entries) {
        readings.clear();
        handovers.clear();
        bytes = 0;
        entries.forEach(this::hold);
    }

    /**
     * Drops what the bounds no longer allow: past the count of each kind, older than
     * {@code oldestNanos}, past the byte bound.
     *
     * @param oldestNanos the source time before which entries leave by age
     */
    public void prune(long oldestNanos) {
        while (readings.size() > maxCount) {
            drop(readings);
        }
        while (handovers.size() > maxCount) {
            drop(handovers);
        }
        pruneOlder(readings, oldestNanos);
        pruneOlder(handovers, oldestNanos);
        // Past the byte bound the oldest readings go first; a handover only when no reading but the
        // newest is left (the chain outlives the readings of its keys).
        while (bytes > maxBytes && (readings.size() > 1 || handovers.size() > 1)) {
            drop(readings.size() > 1 ? readings : handovers);
        }
    }

    private void pruneOlder(ArrayDeque<Entry> entries, long oldest) {
        // The newest of each kind stays: a stopped sensor's last reading must remain fetchable, and
        // its latest handover is what makes its current key trusted.
        while (entries.size() > 1 && entries.peekFirst().sourceNanos() < oldest) {
            drop(entries);
        }
    }

    private void drop(ArrayDeque<Entry> entries) {
        bytes -= entries.removeFirst().stored();
    }

    /**
     * The readings held.
     *
     * @return their number
     */
    public int readingCount() {
        return readings.size();
    }

    /**
     * The handovers held.
     *
     * @return their number
     */
    public int handoverCount() {
        return handovers.size();
    }

    /**
     * Bytes of the entries held, as {@link Entry#stored()}.
     *
     * @return the bytes held
     */
    public long bytes() {
        return bytes;
    }

    /**
     * The newest reading.
     *
     * @return it, or null if none is held
     */
    public Entry newestReading() {
        return readings.peekLast();
    }

    /**
     * The newest handover.
     *
     * @return it, or null if none is held
     */
    public Entry newestHandover() {
        return handovers.peekLast();
    }

    /**
     * Readings within {@code lo … hi} (inclusive), oldest first, limited as {@link #merged}.
     *
     * @param lo the earliest source time
     * @param hi the latest source time
     * @param max the most entries
     * @param maxBytes the total value size after which no further entry is taken
     * @return the readings
     */
    public List<Entry> readings(long lo, long hi, int max, long maxBytes) {
        return within(readings, lo, hi, max, maxBytes);
    }

    /**
     * Handovers within {@code lo … hi} (inclusive), oldest first, limited as {@link #merged}.
     *
     * @param lo the earliest source time
     * @param hi the latest source time
     * @param max the most entries
     * @param maxBytes the total value size after which no further entry is taken
     * @return the handovers
     */
    public List<Entry> handovers(long lo, long hi, int max, long maxBytes) {
        return within(handovers, lo, hi, max, maxBytes);
    }

    private static List<Entry> within(ArrayDeque<Entry> entries, long lo, long hi, int max, long maxBytes) {
        List<Entry> out = new ArrayList<>();
        long bytes = 0;
        for (Entry e : entries) {
            if (out.size() >= max || bytes > maxBytes || e.sourceNanos() > hi) {
                break;
            }
            if (e.sourceNanos() >= lo) {
                out.add(e);
                bytes += e.valueBytes();
            }
        }
        return out;
    }

    /**
     * Entries of both kinds within {@code lo … hi} (inclusive), merged by source time, at most
     * {@code max}, and none after the first whose value brings the total above {@code maxBytes}.
     *
     * @param lo the earliest source time
     * @param hi the latest source time
     * @param max the most entries
     * @param maxBytes the total value size after which no further entry is taken
     * @return the entries, in source-time order
     */
    public List<Entry> merged(long lo, long hi, int max, long maxBytes) {
        List<Entry> out = new ArrayList<>();
        long bytes = 0;
        Iterator<Entry> r = readings.iterator();
        Iterator<Entry> h = handovers.iterator();
        Entry nr = next(r, lo);
        Entry nh = next(h, lo);
        while (out.size() < max && bytes <= maxBytes) {
            Entry e;
            if (nr != null && (nh == null || nr.sourceNanos() < nh.sourceNanos())) {
                e = nr;
                nr = r.hasNext() ? r.next() : null;
            } else if (nh != null) {
                e = nh;
                nh = h.hasNext() ? h.next() : null;
            } else {
                break;
            }
            if (e.sourceNanos() > hi) {
                break;
            }
            out.add(e);
            bytes += e.valueBytes();
        }
        return out;
    }

    /** The first entry at or after {@code lo}, or null. */
    private static Entry next(Iterator<Entry> it, long lo) {
        while (it.hasNext()) {
            Entry e = it.next();
            if (e.sourceNanos() >= lo) {
                return e;
            }
        }
        return null;
    }
}
