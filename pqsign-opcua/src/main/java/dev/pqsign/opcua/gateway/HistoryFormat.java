package dev.pqsign.opcua.gateway;

import dev.pqsign.telemetry.KeyId;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The bytes of a gateway history segment file (docs/formats/gateway-history.md): a header naming
 * the sensor, then entries, each one reading the operator accepted. Every length is checked
 * against its bound before anything is allocated.
 */
final class HistoryFormat {

    /** ASCII {@code PQVH}. */
    static final byte[] MAGIC = {'P', 'Q', 'V', 'H'};

    static final int VERSION = 1;

    /** Longest sensor name in a header, in UTF-8 bytes. */
    static final int MAX_NAME_BYTES = 1024;

    /** Header bytes before the name (magic, version, reserved, name length, segment, first sequence). */
    static final int HEADER_FIXED = 24;

    /** Bytes before an entry's body: its length and CRC-32C. */
    static final int ENTRY_PREFIX = 8;

    /** Body bytes before the reading: sequence, source time, verdict time, key id, index, reading length. */
    static final int BODY_FIXED = 8 + 8 + 8 + KeyId.BYTES + 8 + 2;

    /** Longest reading (as the signed reading format allows). */
    static final int MAX_READING_BYTES = 4096;

    static final int MAX_BODY = BODY_FIXED + MAX_READING_BYTES;

    private HistoryFormat() {}

    /** A segment's header. */
    record Header(String sensor, long segment, long firstSequence) {}

    /**
     * One served value of the history: a reading the operator accepted.
     *
     * @param sequence position in the sensor's history (increases by one per entry, from 1)
     * @param sourceTime the reading's source time as served (signed time of the text, or the record's)
     * @param verdictTime when the verdict reached the gateway
     * @param keyId the key that signed it
     * @param index the index it was signed under
     * @param reading the reading text
     */
    record Entry(long sequence, Instant sourceTime, Instant verdictTime, KeyId keyId, long index, String reading) {
        /** Bytes this entry takes in the file. */
        int fileBytes() {
            return ENTRY_PREFIX + BODY_FIXED + reading.getBytes(StandardCharsets.UTF_8).length;
        }
    }

    static byte[] header(Header h) {
        byte[] name = h.sensor().getBytes(StandardCharsets.UTF_8);
        if (name.length < 1 || name.length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("sensor name must be 1.." + MAX_NAME_BYTES + " UTF-8 bytes");
        }
        ByteBuffer b = ByteBuffer.allocate(HEADER_FIXED + name.length + 4);
        b.put(MAGIC).put((byte) VERSION).put((byte) 0).putShort((short) name.length);
        b.putLong(h.segment()).putLong(h.firstSequence()).put(name);
        b.putInt(crc(b.array(), 0, b.position()));
        return b.array();
    }

    /** The name length a header's fixed part announces, or -1 if the fixed part is not a header. */
    static int nameLength(byte[] fixed) {
        if (fixed.length < HEADER_FIXED
                || !Arrays.equals(fixed, 0, 4, MAGIC, 0, 4)
                || fixed[4] != VERSION
                || fixed[5] != 0) {
            return -1;
        }
        int n = ByteBuffer.wrap(fixed, 6, 2).getShort() & 0xffff;
        return n < 1 || n > MAX_NAME_BYTES ? -1 : n;
    }

    /** Decodes a whole header (fixed part, name, CRC), or returns null if it is damaged. */
    static Header decodeHeader(byte[] all) {
        int n = nameLength(all);
        if (n < 0 || all.length != HEADER_FIXED + n + 4) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(all);
        if (b.getInt(HEADER_FIXED + n) != crc(all, 0, HEADER_FIXED + n)) {
            return null;
        }
        String name = utf8(Arrays.copyOfRange(all, HEADER_FIXED, HEADER_FIXED + n));
        long segment = b.getLong(8);
        long first = b.getLong(16);
        if (name == null || segment < 1 || first < 1) {
            return null;
        }
        return new Header(name, segment, first);
    }

    /** The entry as stored: length, CRC-32C, body. */
    static byte[] encode(Entry e) {
        byte[] text = e.reading().getBytes(StandardCharsets.UTF_8);
        if (text.length < 1 || text.length > MAX_READING_BYTES) {
            throw new IllegalArgumentException("reading must be 1.." + MAX_READING_BYTES + " UTF-8 bytes");
        }
        int body = BODY_FIXED + text.length;
        ByteBuffer b = ByteBuffer.allocate(ENTRY_PREFIX + body);
        b.putInt(body).putInt(0);
        b.putLong(e.sequence()).putLong(nanos(e.sourceTime())).putLong(nanos(e.verdictTime()));
        b.put(e.keyId().bytes())
                .putLong(e.index())
                .putShort((short) text.length)
                .put(text);
        b.putInt(4, crc(b.array(), ENTRY_PREFIX, body));
        return b.array();
    }

    /** The body length an entry prefix announces, or -1 if it is out of bounds. */
    static int bodyLength(ByteBuffer prefix) {
        long n = prefix.getInt(0) & 0xffffffffL;
        return n < BODY_FIXED + 1 || n > MAX_BODY ? -1 : (int) n;
    }

    /** Decodes a body whose prefix announced its length and CRC; null if it is damaged. */
    static Entry decodeBody(byte[] body, int expectedCrc) {
        if (body.length < BODY_FIXED + 1 || body.length > MAX_BODY || crc(body, 0, body.length) != expectedCrc) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(body);
        long seq = b.getLong();
        long source = b.getLong();
        long verdict = b.getLong();
        byte[] key = new byte[KeyId.BYTES];
        b.get(key);
        long index = b.getLong();
        int m = b.getShort() & 0xffff;
        if (seq < 1 || index < 0 || m < 1 || m > MAX_READING_BYTES || BODY_FIXED + m != body.length) {
            return null;
        }
        String text = utf8(Arrays.copyOfRange(body, BODY_FIXED, body.length));
        if (text == null) {
            return null;
        }
        return new Entry(seq, instant(source), instant(verdict), KeyId.of(key), index, text);
    }

    static int crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    /** Strict UTF-8, or null. */
    private static String utf8(byte[] b) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Nanoseconds since the epoch, saturated at the ends of i64. */
    static long nanos(Instant t) {
        long s = t.getEpochSecond();
        if (s >= Long.MAX_VALUE / 1_000_000_000L) {
            return Long.MAX_VALUE;
        }
        if (s <= Long.MIN_VALUE / 1_000_000_000L) {
            return Long.MIN_VALUE;
        }
        return s * 1_000_000_000L + t.getNano();
    }

    static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
