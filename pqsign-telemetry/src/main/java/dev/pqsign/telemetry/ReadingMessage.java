package dev.pqsign.telemetry;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The canonical byte string that is signed for one telemetry reading (format version 1, specified
 * byte for byte in {@code docs/formats/signed-reading.md}).
 *
 * <p>Layout: 16-byte ASCII domain tag {@code "PQSIGN-READING\0\0"}, one version byte, the
 * parameter-set name (u8 length, ASCII), the index (u64 big-endian), the reading (u32 big-endian
 * length, raw UTF-8 bytes). Every variable-length field is length-prefixed, so the encoding is
 * injective: two different (set, index, reading) triples never produce the same message. The index
 * is signed explicitly because a HAETAE signature carries no index, so without it a valid reading
 * could be republished under another index.
 *
 * <p>The raw reading bytes are signed, not a SHA-256 of them: every supported scheme hashes the
 * message itself (XMSS with a randomized, keyed H_msg; HAETAE with SHAKE), so a pre-hash would add
 * work and make security rest on plain SHA-256 collision resistance instead of the scheme's own
 * message hashing, while the readings are small (about 38 bytes, at most {@link #MAX_READING_BYTES}).
 */
public final class ReadingMessage {

    /** Domain-separation tag: ASCII "PQSIGN-READING" padded with two zero bytes to 16 bytes. */
    static final byte[] DOMAIN_TAG = "PQSIGN-READING\0\0".getBytes(StandardCharsets.US_ASCII);

    /** Format version carried in byte 16. */
    public static final int VERSION = 1;

    /** Largest reading, in UTF-8 bytes, that may be signed or accepted. */
    public static final int MAX_READING_BYTES = 4096;

    /** Largest parameter-set name, in ASCII bytes. */
    public static final int MAX_NAME_BYTES = 64;

    private ReadingMessage() {}

    /**
     * Builds the message to sign for one reading.
     *
     * @param parameterSetName printable ASCII, 1 to {@value #MAX_NAME_BYTES} bytes
     * @param index non-negative index the reading is published under
     * @param reading raw UTF-8 reading bytes, at most {@value #MAX_READING_BYTES}
     * @return the message: domain tag, version, name, index and reading
     * @throws IllegalArgumentException if a field is out of range
     */
    public static byte[] encode(String parameterSetName, long index, byte[] reading) {
        byte[] name = checkName(parameterSetName);
        Objects.requireNonNull(reading, "reading");
        if (index < 0) {
            throw new IllegalArgumentException("index must be non-negative, got " + index);
        }
        if (reading.length > MAX_READING_BYTES) {
            throw new IllegalArgumentException(
                    "reading has " + reading.length + " bytes, at most " + MAX_READING_BYTES + " allowed");
        }
        ByteBuffer b = ByteBuffer.allocate(DOMAIN_TAG.length + 1 + 1 + name.length + 8 + 4 + reading.length);
        b.put(DOMAIN_TAG).put((byte) VERSION).put((byte) name.length).put(name);
        b.putLong(index).putInt(reading.length).put(reading);
        return b.array();
    }

    /**
     * Parses a message produced by {@link #encode}; used by tests and independent tools. Every
     * length is checked against the remaining bytes before anything is copied.
     *
     * @param message the message bytes
     * @return its fields
     * @throws IllegalArgumentException on a wrong tag, version, length, name character or trailing bytes
     */
    public static Decoded decode(byte[] message) {
        Objects.requireNonNull(message, "message");
        ByteBuffer b = ByteBuffer.wrap(message);
        if (message.length < DOMAIN_TAG.length + 2
                || !Arrays.equals(message, 0, DOMAIN_TAG.length, DOMAIN_TAG, 0, DOMAIN_TAG.length)) {
            throw new IllegalArgumentException("not a signed-reading message: domain tag missing");
        }
        b.position(DOMAIN_TAG.length);
        int version = b.get() & 0xff;
        if (version != VERSION) {
            throw new IllegalArgumentException(
                    "unsupported signed-reading version " + version + ", expected " + VERSION);
        }
        int nameLen = b.get() & 0xff;
        if (nameLen == 0 || nameLen > MAX_NAME_BYTES || b.remaining() < nameLen + 8 + 4) {
            throw new IllegalArgumentException("parameter-set name length " + nameLen + " out of range");
        }
        byte[] name = new byte[nameLen];
        b.get(name);
        for (int i = 0; i < nameLen; i++) {
            // the same rule as encode: a decoded message must be one encode could have produced
            if (name[i] < 0x21 || name[i] > 0x7e) {
                throw new IllegalArgumentException(
                        "parameter-set name must be printable ASCII without spaces, bad byte 0x"
                                + String.format("%02x", name[i] & 0xff) + " at " + i);
            }
        }
        long index = b.getLong();
        if (index < 0) {
            throw new IllegalArgumentException("index above 2^63-1 is not supported");
        }
        long readingLen = b.getInt() & 0xffffffffL;
        if (readingLen > MAX_READING_BYTES || readingLen != b.remaining()) {
            throw new IllegalArgumentException("reading length " + readingLen + " does not match the " + b.remaining()
                    + " remaining bytes (or exceeds " + MAX_READING_BYTES + ")");
        }
        byte[] reading = new byte[(int) readingLen];
        b.get(reading);
        return new Decoded(new String(name, StandardCharsets.US_ASCII), index, reading);
    }

    static byte[] checkName(String parameterSetName) {
        Objects.requireNonNull(parameterSetName, "parameterSetName");
        int n = parameterSetName.length();
        if (n == 0 || n > MAX_NAME_BYTES) {
            throw new IllegalArgumentException(
                    "parameter-set name must have 1.." + MAX_NAME_BYTES + " characters, got " + n);
        }
        for (int i = 0; i < n; i++) {
            char c = parameterSetName.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException(
                        "parameter-set name must be printable ASCII without spaces, bad character at " + i);
            }
        }
        return parameterSetName.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The fields of a decoded message.
     *
     * @param parameterSetName the parameter-set name
     * @param index the index the reading was signed under
     * @param reading the raw reading bytes
     */
    public record Decoded(String parameterSetName, long index, byte[] reading) {
        /** Equal when every field is equal, the reading by its bytes. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Decoded d
                    && d.index == index
                    && d.parameterSetName.equals(parameterSetName)
                    && Arrays.equals(d.reading, reading);
        }

        @Override
        public int hashCode() {
            return Objects.hash(parameterSetName, index, Arrays.hashCode(reading));
        }

        @Override
        public String toString() {
            return "Decoded[" + parameterSetName + ", index=" + index + ", reading=" + reading.length + " bytes]";
        }
    }
}
