package dev.pqsign.opcua.gateway;

import dev.pqsign.opcua.gateway.HistoryFormat.Entry;
import dev.pqsign.opcua.gateway.HistoryFormat.Header;
import dev.pqsign.state.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One segment file of a sensor's served history: a header, then entries appended in sequence
 * order. Keeps no entry in memory, only one {@link Block} per {@link #BLOCK} entries (where it
 * starts and the range of source times in it), so a read by time skips blocks without reading
 * them and a read by sequence starts at its block.
 *
 * <p>Not thread-safe for appends ({@link SensorHistory} serializes them); {@link #read} may run
 * concurrently with appends, up to an end offset taken under the history's lock.
 */
final class HistorySegment implements AutoCloseable {

    /** Entries per block of the in-memory index. */
    static final int BLOCK = 64;

    /** Where a block of entries starts in the file, and its source times. */
    static final class Block {
        final long offset;
        final long firstSequence;
        long minSourceNanos = Long.MAX_VALUE;
        long maxSourceNanos = Long.MIN_VALUE;
        int count;

        Block(long offset, long firstSequence) {
            this.offset = offset;
            this.firstSequence = firstSequence;
        }
    }

    /** Receives the entries of a {@link #read}; returns false to stop. */
    @FunctionalInterface
    interface Visitor {
        boolean visit(Entry e, int fileBytes);
    }

    final Path file;
    final Header header;
    private final FileChannel channel;
    /** Copy on write: {@link #read} walks it while appends add blocks. */
    private final List<Block> blocks = new CopyOnWriteArrayList<>();

    private long end;
    private long count;
    private boolean dirty;

    private HistorySegment(Path file, Header header, FileChannel channel, long end) {
        this.file = file;
        this.header = header;
        this.channel = channel;
        this.end = end;
    }

    /** Creates a new, empty segment (header written durably before any entry). */
    static HistorySegment create(Path file, Header header) throws IOException {
        byte[] h = HistoryFormat.header(header);
        DurableFiles.createAtomically(file, h);
        DurableFiles.forceDirectory(file.toAbsolutePath().getParent());
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new HistorySegment(file, header, ch, h.length);
    }

    /**
     * Opens a segment and reads its entries once, to build the index and hand each to {@code each}.
     * An entry that is torn or damaged ends the segment there (cut off when {@code truncate}).
     *
     * @throws IOException if the file cannot be read or its header is not a history header of {@code sensor}
     */
    static HistorySegment open(Path file, String sensor, boolean truncate, Visitor each) throws IOException {
        FileChannel ch = FileChannel.open(
                file,
                truncate
                        ? new StandardOpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE}
                        : new StandardOpenOption[] {StandardOpenOption.READ});
        try {
            ByteBuffer fixed = ByteBuffer.allocate(HistoryFormat.HEADER_FIXED);
            int n = readFully(ch, fixed, 0) ? HistoryFormat.nameLength(fixed.array()) : -1;
            Header h = null;
            if (n > 0) {
                ByteBuffer all = ByteBuffer.allocate(HistoryFormat.HEADER_FIXED + n + 4);
                if (readFully(ch, all, 0)) {
                    h = HistoryFormat.decodeHeader(all.array());
                }
            }
            if (h == null) {
                throw new IOException(file + ": not a gateway history file (magic, version or header damaged)");
            }
            if (!h.sensor().equals(sensor)) {
                throw new IOException(file + ": history of sensor '" + h.sensor() + "', not '" + sensor + "'");
            }
            HistorySegment s = new HistorySegment(file, h, ch, HistoryFormat.HEADER_FIXED + n + 4);
            s.load(each);
            if (s.end < ch.size() && truncate) {
                ch.truncate(s.end); // a torn last append, or damage: what follows is not trusted
                ch.force(true);
            }
            return s;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private void load(Visitor each) throws IOException {
        long size = channel.size();
        long expected = header.firstSequence();
        ByteBuffer prefix = ByteBuffer.allocate(HistoryFormat.ENTRY_PREFIX);
        while (end + HistoryFormat.ENTRY_PREFIX <= size) {
            prefix.clear();
            if (!readFully(channel, prefix, end)) {
                return;
            }
            int n = HistoryFormat.bodyLength(prefix);
            if (n < 0 || end + HistoryFormat.ENTRY_PREFIX + n > size) {
                return;
            }
            ByteBuffer body = ByteBuffer.allocate(n);
            if (!readFully(channel, body, end + HistoryFormat.ENTRY_PREFIX)) {
                return;
            }
            Entry e = HistoryFormat.decodeBody(body.array(), prefix.getInt(4));
            if (e == null || e.sequence() != expected) {
                return;
            }
            index(e, end);
            end += HistoryFormat.ENTRY_PREFIX + n;
            expected++;
            each.visit(e, HistoryFormat.ENTRY_PREFIX + n);
        }
    }

    private void index(Entry e, long offset) {
        Block b = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
        if (b == null || b.count == BLOCK) {
            b = new Block(offset, e.sequence());
            blocks.add(b);
        }
        long t = HistoryFormat.nanos(e.sourceTime());
        b.minSourceNanos = Math.min(b.minSourceNanos, t);
        b.maxSourceNanos = Math.max(b.maxSourceNanos, t);
        b.count++;
        count++;
    }

    /** Appends an entry whose sequence is {@link #nextSequence()}. */
    void append(Entry e) throws IOException {
        if (e.sequence() != nextSequence()) {
            throw new IllegalStateException("entry " + e.sequence() + " appended where " + nextSequence() + " belongs");
        }
        ByteBuffer b = ByteBuffer.wrap(HistoryFormat.encode(e));
        long at = end;
        while (b.hasRemaining()) {
            at += channel.write(b, at);
        }
        index(e, end);
        end = at;
        dirty = true;
    }

    /** Makes the appended entries durable (if any were appended since the last call). */
    void sync() throws IOException {
        if (dirty) {
            dirty = false;
            channel.force(false);
        }
    }

    long nextSequence() {
        return header.firstSequence() + count;
    }

    long count() {
        return count;
    }

    long bytes() {
        return end;
    }

    /** The first sequence of the first block that may hold a source time at or after {@code nanos}, or -1. */
    long firstSequenceFrom(long nanos) {
        for (Block b : blocks) {
            if (b.maxSourceNanos >= nanos) {
                return b.firstSequence;
            }
        }
        return -1;
    }

    /**
     * Reads the entries from {@code fromSequence} on, up to byte {@code limit} of the file, handing
     * each to {@code visitor} until it returns false.
     *
     * @return false if the visitor stopped the read
     */
    boolean read(long fromSequence, long limit, Visitor visitor) throws IOException {
        long offset = -1;
        long seq = 0;
        for (Block b : blocks) {
            if (b.firstSequence <= fromSequence) {
                offset = b.offset;
                seq = b.firstSequence;
            } else {
                break;
            }
        }
        if (offset < 0) {
            if (blocks.isEmpty()) {
                return true;
            }
            offset = blocks.get(0).offset;
            seq = blocks.get(0).firstSequence;
        }
        ByteBuffer prefix = ByteBuffer.allocate(HistoryFormat.ENTRY_PREFIX);
        while (offset + HistoryFormat.ENTRY_PREFIX <= limit) {
            prefix.clear();
            if (!readFully(channel, prefix, offset)) {
                return true;
            }
            int n = HistoryFormat.bodyLength(prefix);
            if (n < 0) {
                throw new IOException(file + ": damaged entry at byte " + offset);
            }
            if (seq >= fromSequence) {
                ByteBuffer body = ByteBuffer.allocate(n);
                if (!readFully(channel, body, offset + HistoryFormat.ENTRY_PREFIX)) {
                    return true;
                }
                Entry e = HistoryFormat.decodeBody(body.array(), prefix.getInt(4));
                if (e == null) {
                    throw new IOException(file + ": damaged entry at byte " + offset);
                }
                if (!visitor.visit(e, HistoryFormat.ENTRY_PREFIX + n)) {
                    return false;
                }
            }
            offset += HistoryFormat.ENTRY_PREFIX + n;
            seq++;
        }
        return true;
    }

    private static boolean readFully(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long pos = at;
        while (b.hasRemaining()) {
            int r = ch.read(b, pos);
            if (r < 0) {
                return false;
            }
            pos += r;
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
