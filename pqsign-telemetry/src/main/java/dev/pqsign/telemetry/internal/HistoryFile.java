package dev.pqsign.telemetry.internal;

import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.RegularFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * The framing of the sensor's history file ({@code docs/formats/signed-record.md}, "Sensor history
 * file"): a 16-byte header, then entries of a u32 body length, the body's CRC-32C and the body,
 * appended in publication order. What a body holds is the caller's business: this class frames,
 * checks and positions bodies, and cuts off an entry torn by a crash. Not thread-safe: its owner
 * serializes the calls.
 */
public final class HistoryFile implements AutoCloseable {

    /** ASCII {@code PQHL}. */
    private static final byte[] MAGIC = {'P', 'Q', 'H', 'L'};
    /** The one version written and read. */
    public static final int VERSION = 2;
    /** Size of the file header. */
    public static final int HEADER_BYTES = 16;
    /** Size of an entry's header: body length and CRC-32C. */
    public static final int ENTRY_HEADER_BYTES = 8;

    /** Receives each intact entry the scan at {@link #open} finds, in file order. */
    @FunctionalInterface
    public interface Scan {
        /**
         * One entry.
         *
         * @param body the entry's body
         * @param offset where the body starts in the file
         * @return {@code false} if the body does not decode: the file is cut before this entry
         */
        boolean entry(byte[] body, long offset);
    }

    /** The bodies a {@link #rewrite} writes, by position, fetched one at a time. */
    @FunctionalInterface
    public interface Bodies {
        /**
         * The body of entry {@code i}.
         *
         * @param i 0 … count − 1
         * @return its body
         */
        byte[] body(int i);
    }

    private final Path file;
    private FileChannel channel;
    private long entries;

    private HistoryFile(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /**
     * Opens {@code file} (created with just its header if missing) and hands every intact entry to
     * {@code scan}; the file is cut at the first entry that is torn, fails its CRC, has a length
     * outside {@code minBody … maxBody}, or that {@code scan} refuses.
     *
     * @param file the history file
     * @param minBody the smallest body length of a valid entry
     * @param maxBody the largest body length of a valid entry (checked before the body is allocated)
     * @param scan what receives the entries
     * @return the opened file, positioned for appends
     * @throws IOException if the file cannot be created or read, is not a regular file, or does not
     *     start with this version's header
     */
    public static HistoryFile open(Path file, int minBody, int maxBody, Scan scan) throws IOException {
        Objects.requireNonNull(scan, "scan");
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            DurableFiles.createAtomically(file, header());
        } else {
            RegularFiles.requireRegular(file); // a FIFO would block the first read for ever
        }
        HistoryFile f =
                new HistoryFile(file, FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
        try {
            f.scan(minBody, maxBody, scan);
        } catch (IOException | RuntimeException e) {
            f.close();
            throw e;
        }
        return f;
    }

    private void scan(int minBody, int maxBody, Scan scan) throws IOException {
        long size = channel.size();
        ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES);
        if (size < HEADER_BYTES || !readFully(h, 0) || !Arrays.equals(h.array(), header())) {
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
            if (n < minBody || n > maxBody || at + ENTRY_HEADER_BYTES + n > size) {
                break;
            }
            ByteBuffer body = ByteBuffer.allocate((int) n);
            if (!readFully(body, at + ENTRY_HEADER_BYTES) || StateCodec.crc32c(body.array(), 0, (int) n) != crc) {
                break;
            }
            if (!scan.entry(body.array(), at + ENTRY_HEADER_BYTES)) {
                break;
            }
            entries++;
            at += ENTRY_HEADER_BYTES + n;
        }
        if (at < size) {
            channel.truncate(at); // a torn last append
        }
    }

    /**
     * Appends one entry. Not flushed: a killed process loses nothing (the page cache holds it), a
     * power loss may lose the newest entries.
     *
     * @param body the entry's body
     * @return where the body starts in the file
     * @throws IOException if the append failed (the file may end in a torn entry, which the next
     *     open cuts off)
     */
    public long append(byte[] body) throws IOException {
        long at = channel.size();
        ByteBuffer b = ByteBuffer.allocate(ENTRY_HEADER_BYTES + body.length);
        b.putInt(body.length)
                .putInt(StateCodec.crc32c(body, 0, body.length))
                .put(body)
                .flip();
        long pos = at;
        while (b.hasRemaining()) {
            pos += channel.write(b, pos);
        }
        entries++;
        return at + ENTRY_HEADER_BYTES;
    }

    /**
     * The number of entries in the file: those the scan kept and those appended since.
     *
     * @return the entries in the file
     */
    public long entries() {
        return entries;
    }

    /**
     * Reads the body of {@code length} bytes at {@code offset}.
     *
     * @param offset where the body starts, as {@link #append} or the scan gave it
     * @param length its length
     * @return the body
     * @throws IOException if the file is closed, cannot be read, or ends before the body does
     */
    public byte[] read(long offset, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        if (channel == null || !readFully(b, offset)) {
            throw new IOException("the file ends before the entry at " + offset);
        }
        return b.array();
    }

    /**
     * Replaces the file atomically by one holding {@code count} entries, written one by one (never
     * all bodies in memory at once), then reopens it for appends.
     *
     * @param count the number of entries
     * @param bodies their bodies, in the order they are written
     * @return where each body starts in the new file
     * @throws IOException if the new file cannot be written or reopened (the old one then stays)
     */
    public long[] rewrite(int count, Bodies bodies) throws IOException {
        long[] offsets = new long[count];
        DurableFiles.writeAtomically(file, out -> {
            write(out, ByteBuffer.wrap(header()));
            long at = HEADER_BYTES;
            for (int i = 0; i < count; i++) {
                byte[] body = bodies.body(i);
                write(
                        out,
                        ByteBuffer.allocate(ENTRY_HEADER_BYTES)
                                .putInt(body.length)
                                .putInt(StateCodec.crc32c(body, 0, body.length))
                                .flip());
                write(out, ByteBuffer.wrap(body));
                offsets[i] = at + ENTRY_HEADER_BYTES;
                at += ENTRY_HEADER_BYTES + (long) body.length;
            }
        });
        channel.close();
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        entries = count;
        return offsets;
    }

    private static void write(WritableByteChannel out, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    private boolean readFully(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            if (channel.read(b, at + b.position()) < 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] header() {
        byte[] b = new byte[HEADER_BYTES];
        System.arraycopy(MAGIC, 0, b, 0, MAGIC.length);
        b[4] = VERSION;
        return b;
    }

    /** Closes the file; later reads fail. */
    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
