package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.internal.ByteWriter;
import dev.pqsign.keys.internal.StrictReader;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.RegularFiles;
import dev.pqsign.x509.PqPublicKey;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The compacted part of a sensor key directory's handover chain, {@code handovers.pqhc}
 * (docs/formats/handover-log.md): one entry per retired generation from 1 on, each holding that
 * generation's signed handover record and its certificate chain, if it had one.
 *
 * <p>Reading checks the header, every entry's length (before anything is allocated) and CRC-32C,
 * that the generations run 1, 2, 3, … and that each record is this chain's and is signed by the
 * key the previous entry handed over to (by key id; the signatures are checked by
 * {@link KeyDirectoryAudit}). A damaged <em>last</em> entry is not an error here: whether it is the
 * torn tail of an interrupted append (the generation's directory still exists) or damage (it does
 * not) only the key directory can tell, so it is reported by {@link #damagedTail()}. A damaged
 * entry with another entry after it is always an error. Thread-safe.
 */
final class HandoverLog {
    static final byte[] MAGIC = "PQHC".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    /** Magic, version, three zero bytes, the chain id. */
    static final int HEADER_BYTES = 4 + 1 + 3 + PublicKeys.KEY_ID_BYTES;
    /** Body length and its CRC-32C. */
    static final int ENTRY_HEAD_BYTES = 8;
    /** The largest signed handover record: its header, the largest statement, the largest signature. */
    static final int MAX_RECORD_BYTES = 13 + KeyHandover.MAX_BYTES + SignedKeyHandover.MAX_SIGNATURE_BYTES;
    /** The largest certificate file a key directory reads. */
    static final int MAX_CERTIFICATE_BYTES = 1 << 20;
    /** Generation, record length, a record of at least one byte, certificate length. */
    static final int MIN_BODY_BYTES = 8 + 4 + 1 + 4;

    static final int MAX_BODY_BYTES = 8 + 4 + MAX_RECORD_BYTES + 4 + MAX_CERTIFICATE_BYTES;

    /**
     * One compacted generation.
     *
     * @param generation the generation the record hands over to
     * @param record the signed handover record (docs/formats/key-handover.md), as {@code handover.pqho} held it
     * @param certificate the generation's {@code certificate.pem} as it was, empty if it had none
     */
    record Entry(long generation, byte[] record, byte[] certificate) {}

    /**
     * The bytes after the last good entry when they do not form a good entry.
     *
     * @param offset where they start
     * @param generation the generation the entry there would hold
     * @param problem what is wrong with them
     */
    record DamagedTail(long offset, long generation, String problem) {}

    private final Path file;
    private final String firstSet;
    private final byte[] chainId;
    private long[] offsets = new long[16];
    private long count;
    private long end;
    private byte[] lastNewKeyId;
    private DamagedTail tail;

    private HandoverLog(Path file, PqPublicKey firstKey) {
        this.file = file;
        this.firstSet = firstKey.parameterSet().setName();
        this.chainId = PublicKeys.keyId(firstKey);
        this.lastNewKeyId = chainId;
        this.end = HEADER_BYTES;
    }

    /**
     * Creates an empty log durably (header written to a temporary file, fsynced, linked into place,
     * the directory fsynced), so the file never exists with a partial header.
     */
    static HandoverLog create(Path file, PqPublicKey firstKey) throws IOException {
        HandoverLog log = new HandoverLog(file, firstKey);
        ByteWriter w = new ByteWriter();
        w.raw(MAGIC);
        w.u8(VERSION);
        w.raw(new byte[3]);
        w.raw(log.chainId);
        DurableFiles.createAtomically(file, w.toByteArray());
        return log;
    }

    /** Reads and checks an existing log of the chain that starts at {@code firstKey}. */
    static HandoverLog read(Path file, PqPublicKey firstKey) throws IOException {
        HandoverLog log = new HandoverLog(file, firstKey);
        try (FileChannel ch = RegularFiles.openForReading(file)) {
            log.scan(ch);
        }
        return log;
    }

    private void scan(FileChannel ch) throws IOException {
        long size = ch.size();
        if (size < HEADER_BYTES) {
            throw new KeyFormatException(
                    file + ": " + size + " bytes, shorter than the " + HEADER_BYTES + "-byte header");
        }
        byte[] header = readAt(ch, 0, HEADER_BYTES);
        StrictReader r = new StrictReader(header, "handover log");
        r.expect(MAGIC, "magic");
        int version = r.u8("version");
        if (version != VERSION) {
            throw new KeyFormatException(
                    file + ": handover log version " + version + ", only " + VERSION + " is known");
        }
        if (!Arrays.equals(r.bytes(3, "reserved"), new byte[3])) {
            throw new KeyFormatException(file + ": reserved header bytes are not zero");
        }
        if (!MessageDigest.isEqual(r.bytes(PublicKeys.KEY_ID_BYTES, "chain id"), chainId)) {
            throw new KeyFormatException(file + ": handover log of another chain (chain id differs from key.pub's)");
        }
        long pos = HEADER_BYTES;
        while (pos < size) {
            long left = size - pos;
            long g = count + 1;
            if (left < ENTRY_HEAD_BYTES) {
                tail = new DamagedTail(pos, g, "entry header cut off after " + left + " bytes");
                return;
            }
            ByteBuffer head = ByteBuffer.wrap(readAt(ch, pos, ENTRY_HEAD_BYTES));
            long length = Integer.toUnsignedLong(head.getInt());
            int crc = head.getInt();
            if (length < MIN_BODY_BYTES || length > MAX_BODY_BYTES) {
                // Where the next entry would start is unknown: this is the last one readable.
                tail = new DamagedTail(
                        pos, g, "entry length " + length + " outside " + MIN_BODY_BYTES + ".." + MAX_BODY_BYTES);
                return;
            }
            if (ENTRY_HEAD_BYTES + length > left) {
                tail = new DamagedTail(
                        pos, g, "entry of " + length + " bytes cut off after " + (left - ENTRY_HEAD_BYTES));
                return;
            }
            byte[] body = readAt(ch, pos + ENTRY_HEAD_BYTES, (int) length);
            if (crc32c(body) != crc) {
                if (ENTRY_HEAD_BYTES + length == left) {
                    tail = new DamagedTail(pos, g, "last entry fails its CRC-32C");
                    return;
                }
                throw new KeyFormatException(file + ": entry at offset " + pos + " (generation " + g
                        + ") fails its CRC-32C and is not the last: the log is damaged");
            }
            Entry e = decodeBody(body, pos);
            accept(e, pos);
            pos += ENTRY_HEAD_BYTES + length;
        }
    }

    /** Checks a well-formed entry against the chain so far and adds it to the index. */
    private void accept(Entry e, long offset) {
        long g = count + 1;
        String where = file + ": entry at offset " + offset;
        if (e.generation() != g) {
            throw new KeyFormatException(where + " holds generation " + e.generation() + ", expected " + g);
        }
        SignedKeyHandover h = decodeRecord(e.record(), where);
        checkLink(h, g, where);
        if (count == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length * 2);
        }
        offsets[(int) count] = offset;
        count = g;
        end = offset + ENTRY_HEAD_BYTES + encodedBodyLength(e);
        lastNewKeyId = h.statement().newKeyId();
    }

    /** The record must hand this chain over to {@code g}, from the key the previous entry named. */
    private void checkLink(SignedKeyHandover h, long g, String where) {
        KeyHandover s = h.statement();
        if (s.sequence() != g
                || !MessageDigest.isEqual(s.chainId(), chainId)
                || !MessageDigest.isEqual(s.oldKeyId(), lastNewKeyId)
                || !s.oldParameterSet().equals(firstSet)) {
            throw new KeyFormatException(where + " is not the handover to generation " + g
                    + " from the key of generation " + (g - 1) + " of this chain");
        }
    }

    private static SignedKeyHandover decodeRecord(byte[] record, String where) {
        try {
            return SignedKeyHandover.decode(record);
        } catch (KeyFormatException | IllegalArgumentException e) {
            throw new KeyFormatException(where + ": " + e.getMessage());
        }
    }

    private Entry decodeBody(byte[] body, long offset) {
        StrictReader r = new StrictReader(body, "handover log entry at offset " + offset + " of " + file);
        long g = r.u63("generation");
        int recordLength = r.length32("record length", MAX_RECORD_BYTES);
        if (recordLength == 0) {
            throw new KeyFormatException(file + ": entry at offset " + offset + " has an empty record");
        }
        byte[] record = r.bytes(recordLength, "record");
        int certLength = r.length32("certificate length", MAX_CERTIFICATE_BYTES);
        byte[] cert = r.bytes(certLength, "certificate");
        r.end();
        return new Entry(g, record, cert);
    }

    /** The number of entries: generations 1 to {@code count()} are in the log. */
    synchronized long count() {
        return count;
    }

    /** The damaged bytes after the last good entry, if any; {@link #append} refuses until they are cut. */
    synchronized Optional<DamagedTail> damagedTail() {
        return Optional.ofNullable(tail);
    }

    /** The key id of the key the newest entry hands over to (the chain id for an empty log). */
    synchronized byte[] lastNewKeyId() {
        return lastNewKeyId.clone();
    }

    /**
     * Reads generation {@code g}'s entry again from the file, checking its CRC-32C (the file may have
     * changed since it was opened).
     */
    synchronized Entry entry(long g) throws IOException {
        if (g < 1 || g > count) {
            throw new IllegalArgumentException("generation " + g + " is not in the log (1.." + count + ")");
        }
        long offset = offsets[(int) (g - 1)];
        try (FileChannel ch = RegularFiles.openForReading(file)) {
            ByteBuffer head = ByteBuffer.wrap(readAt(ch, offset, ENTRY_HEAD_BYTES));
            long length = Integer.toUnsignedLong(head.getInt());
            int crc = head.getInt();
            if (length < MIN_BODY_BYTES || length > MAX_BODY_BYTES) {
                throw new KeyFormatException(file + ": entry of generation " + g + " changed (length " + length + ")");
            }
            byte[] body = readAt(ch, offset + ENTRY_HEAD_BYTES, (int) length);
            if (crc32c(body) != crc) {
                throw new KeyFormatException(file + ": entry of generation " + g + " fails its CRC-32C");
            }
            Entry e = decodeBody(body, offset);
            if (e.generation() != g) {
                throw new KeyFormatException(file + ": entry of generation " + g + " changed");
            }
            return e;
        }
    }

    /** Removes the damaged tail (the caller made sure its generation is still in its directory) and fsyncs. */
    synchronized void cutTail() throws IOException {
        if (tail == null) {
            return;
        }
        RegularFiles.requireRegular(file); // an open for writing of a FIFO waits for a reader
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(tail.offset());
            ch.force(true);
        }
        end = tail.offset();
        tail = null;
    }

    /**
     * Appends generation {@code count() + 1}'s entry and fsyncs the log: when this returns, the
     * entry survives a crash.
     */
    synchronized void append(Entry e) throws IOException {
        if (tail != null) {
            throw new IllegalStateException("the log's damaged tail must be cut first");
        }
        long g = count + 1;
        if (e.record().length < 1 || e.record().length > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("record of " + e.record().length + " bytes");
        }
        if (e.certificate().length > MAX_CERTIFICATE_BYTES) {
            throw new IllegalArgumentException("certificate of " + e.certificate().length + " bytes");
        }
        checkLink(decodeRecord(e.record(), "generation " + g + "'s record"), g, "generation " + g + "'s record");
        if (e.generation() != g) {
            throw new IllegalArgumentException("generation " + e.generation() + " appended after " + count);
        }
        byte[] body = encodeBody(e);
        ByteBuffer out = ByteBuffer.allocate(ENTRY_HEAD_BYTES + body.length);
        out.putInt(body.length).putInt(crc32c(body)).put(body).flip();
        RegularFiles.requireRegular(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            // Whatever a failed earlier append left after the last good entry is overwritten.
            ch.truncate(end);
            long pos = end;
            while (out.hasRemaining()) {
                pos += ch.write(out, pos);
            }
            ch.force(true);
        }
        accept(e, end);
    }

    static byte[] encodeBody(Entry e) {
        ByteWriter w = new ByteWriter();
        w.u64(e.generation());
        w.u32(e.record().length);
        w.raw(e.record());
        w.u32(e.certificate().length);
        w.raw(e.certificate());
        return w.toByteArray();
    }

    private static long encodedBodyLength(Entry e) {
        return 8L + 4 + e.record().length + 4 + e.certificate().length;
    }

    static int crc32c(byte[] body) {
        CRC32C c = new CRC32C();
        c.update(body);
        return (int) c.getValue();
    }

    private static byte[] readAt(FileChannel ch, long pos, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b, pos + b.position()) < 0) {
                throw new EOFException("handover log ended while reading " + n + " bytes at offset " + pos);
            }
        }
        return b.array();
    }
}
