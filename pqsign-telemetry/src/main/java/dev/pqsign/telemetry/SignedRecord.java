package dev.pqsign.telemetry;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * Everything an operator needs to verify one reading, as one value (signed-record format version 1,
 * specified byte for byte in {@code docs/formats/signed-record.md}): the sensor publishes it as a
 * single ByteString so that a notification always carries a reading together with its own index,
 * signature, parameter set and key id, and no follow-up Read can pair it with another reading.
 *
 * <p>Only the reading, index and parameter set are covered by the signature (through
 * {@link ReadingMessage}); the key id selects the pinned key, and the times and publication
 * sequence are unsigned information for latency and de-duplication.
 */
public final class SignedRecord {

    /** Magic, ASCII {@code PQSR}. */
    static final byte[] MAGIC = {'P', 'Q', 'S', 'R'};

    /** Format version. */
    public static final int VERSION = 1;

    /** Largest signature a record may carry. */
    public static final int MAX_SIGNATURE_BYTES = 1 << 20;

    /** Bytes of a record besides the set name, reading and signature. */
    public static final int FIXED_BYTES = 4 + 1 + 1 + KeyId.BYTES + 8 + 8 + 8 + 8 + 8 + 8 + 1 + 4 + 4;

    private final KeyId keyId;
    private final String parameterSetName;
    private final SignedReading reading;
    private final Instant sourceTime;
    private final long sequence;
    private final long signNanos;
    private final long signStartNanoTime;
    private final long publishNanoTime;

    private SignedRecord(
            KeyId keyId,
            String parameterSetName,
            SignedReading reading,
            Instant sourceTime,
            long sequence,
            long signNanos,
            long signStartNanoTime,
            long publishNanoTime) {
        this.keyId = keyId;
        this.parameterSetName = parameterSetName;
        this.reading = reading;
        this.sourceTime = sourceTime;
        this.sequence = sequence;
        this.signNanos = signNanos;
        this.signStartNanoTime = signStartNanoTime;
        this.publishNanoTime = publishNanoTime;
    }

    /**
     * A record for publication.
     *
     * @param keyId the signing key's id
     * @param parameterSetName the canonical parameter-set name (printable ASCII, 1..64 bytes)
     * @param reading the signed reading (signature at most {@link #MAX_SIGNATURE_BYTES})
     * @param sourceTime the sensor's UTC wall-clock time when it began signing the reading
     * @param sequence the sensor's publication sequence number
     * @param signNanos how long reserving and signing took (non-negative)
     * @param signStartNanoTime the sensor's {@link System#nanoTime()} when signing began
     * @param publishNanoTime the sensor's {@link System#nanoTime()} when the record was published
     * @return the record
     * @throws IllegalArgumentException if a field is out of range
     */
    public static SignedRecord of(
            KeyId keyId,
            String parameterSetName,
            SignedReading reading,
            Instant sourceTime,
            long sequence,
            long signNanos,
            long signStartNanoTime,
            long publishNanoTime) {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(reading, "reading");
        Objects.requireNonNull(sourceTime, "sourceTime");
        ReadingMessage.checkName(parameterSetName);
        if (reading.signature().length == 0 || reading.signature().length > MAX_SIGNATURE_BYTES) {
            throw new IllegalArgumentException(
                    "signature must have 1.." + MAX_SIGNATURE_BYTES + " bytes, got " + reading.signature().length);
        }
        if (signNanos < 0) {
            throw new IllegalArgumentException("sign duration must not be negative");
        }
        epochNanos(sourceTime); // range check
        return new SignedRecord(
                keyId, parameterSetName, reading, sourceTime, sequence, signNanos, signStartNanoTime, publishNanoTime);
    }

    /**
     * The signing key's id as the sensor states it.
     *
     * @return the key id (not covered by the signature)
     */
    public KeyId keyId() {
        return keyId;
    }

    /**
     * The parameter-set name as the sensor states it.
     *
     * @return the canonical set name
     */
    public String parameterSetName() {
        return parameterSetName;
    }

    /**
     * Reading text, index and signature.
     *
     * @return the signed reading
     */
    public SignedReading reading() {
        return reading;
    }

    /**
     * The index the reading was signed under.
     *
     * @return the index, 0 or more
     */
    public long index() {
        return reading.index();
    }

    /**
     * The sensor's UTC wall-clock time when it began signing (unsigned; needs synchronized clocks to compare).
     *
     * @return the source time
     */
    public Instant sourceTime() {
        return sourceTime;
    }

    /**
     * The sensor's publication sequence number (unsigned, for de-duplication only).
     *
     * @return the sequence number
     */
    public long sequence() {
        return sequence;
    }

    /**
     * How long the sensor took to reserve the index and sign, in nanoseconds.
     *
     * @return the duration, 0 or more
     */
    public long signNanos() {
        return signNanos;
    }

    /**
     * The sensor's monotonic clock when signing began (comparable only within the sensor's process).
     *
     * @return the sensor's {@link System#nanoTime()} value
     */
    public long signStartNanoTime() {
        return signStartNanoTime;
    }

    /**
     * The sensor's monotonic clock when the record was published (comparable only within the sensor's process).
     *
     * @return the sensor's {@link System#nanoTime()} value
     */
    public long publishNanoTime() {
        return publishNanoTime;
    }

    /**
     * The record's bytes (format version 1).
     *
     * @return a new array, as {@link #decode} reads it
     */
    public byte[] encode() {
        byte[] name = parameterSetName.getBytes(StandardCharsets.US_ASCII);
        byte[] text = reading.readingBytes();
        byte[] sig = reading.signature();
        ByteBuffer b = ByteBuffer.allocate(FIXED_BYTES + name.length + text.length + sig.length);
        b.put(MAGIC)
                .put((byte) VERSION)
                .put((byte) 0)
                .put(keyId.bytes())
                .putLong(reading.index())
                .putLong(epochNanos(sourceTime))
                .putLong(sequence)
                .putLong(signNanos)
                .putLong(signStartNanoTime)
                .putLong(publishNanoTime)
                .put((byte) name.length)
                .put(name)
                .putInt(text.length)
                .put(text)
                .putInt(sig.length)
                .put(sig);
        return b.array();
    }

    /**
     * Decodes a record, checking every length against the bytes present before allocating.
     *
     * @param bytes the record node's value
     * @return the record; its signature is not verified here
     * @throws IllegalArgumentException with a one-line reason if the bytes are not a valid version-1 record
     */
    public static SignedRecord decode(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < FIXED_BYTES) {
            throw new IllegalArgumentException(
                    "record has " + bytes.length + " bytes, at least " + FIXED_BYTES + " needed");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte[] magic = new byte[4];
        b.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new IllegalArgumentException("not a signed record (magic is not PQSR)");
        }
        int version = b.get() & 0xff;
        if (version != VERSION) {
            throw new IllegalArgumentException("signed record version " + version + " is not supported");
        }
        if (b.get() != 0) {
            throw new IllegalArgumentException("signed record flags must be zero");
        }
        byte[] id = new byte[KeyId.BYTES];
        b.get(id);
        long index = b.getLong();
        if (index < 0) {
            throw new IllegalArgumentException("index above 2^63-1");
        }
        long sourceNanos = b.getLong();
        long sequence = b.getLong();
        long signNanos = b.getLong();
        if (signNanos < 0) {
            throw new IllegalArgumentException("negative sign duration");
        }
        long signStart = b.getLong();
        long publish = b.getLong();
        int nameLength = b.get() & 0xff;
        if (nameLength < 1 || nameLength > ReadingMessage.MAX_NAME_BYTES || b.remaining() < nameLength + 8) {
            throw new IllegalArgumentException("parameter-set name length " + nameLength + " out of range");
        }
        byte[] name = new byte[nameLength];
        b.get(name);
        for (byte c : name) {
            if (c < 0x21 || c > 0x7e) {
                throw new IllegalArgumentException("parameter-set name is not printable ASCII");
            }
        }
        long textLength = b.getInt() & 0xffffffffL;
        if (textLength > ReadingMessage.MAX_READING_BYTES || b.remaining() < textLength + 4) {
            throw new IllegalArgumentException("reading length " + textLength + " out of range");
        }
        byte[] text = new byte[(int) textLength];
        b.get(text);
        long sigLength = b.getInt() & 0xffffffffL;
        if (sigLength < 1 || sigLength > MAX_SIGNATURE_BYTES || b.remaining() != sigLength) {
            throw new IllegalArgumentException(
                    "signature length " + sigLength + " does not match the " + b.remaining() + " bytes left");
        }
        byte[] sig = new byte[(int) sigLength];
        b.get(sig);
        String readingText;
        try {
            CharBuffer chars = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(text));
            readingText = chars.toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("reading is not valid UTF-8");
        }
        Instant source = Instant.ofEpochSecond(
                Math.floorDiv(sourceNanos, 1_000_000_000L), Math.floorMod(sourceNanos, 1_000_000_000L));
        return new SignedRecord(
                KeyId.of(id),
                new String(name, StandardCharsets.US_ASCII),
                new SignedReading(readingText, index, sig),
                source,
                sequence,
                signNanos,
                signStart,
                publish);
    }

    /**
     * SHA-256 over what identifies the signed content: parameter-set name, index, reading and
     * signature (each length-prefixed). Two records with equal digests carry the same signed
     * message and the same signature; the unsigned times and sequence do not count.
     *
     * @return the 32-byte digest
     */
    public byte[] contentDigest() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(reading.message(parameterSetName));
            byte[] sig = reading.signature();
            md.update(ByteBuffer.allocate(4).putInt(sig.length).array());
            md.update(sig);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /**
     * {@code true} if both carry the same signed message and signature ({@link #contentDigest()}).
     *
     * @param other another record
     * @return whether the content digests are equal
     */
    public boolean sameContent(SignedRecord other) {
        return MessageDigest.isEqual(contentDigest(), other.contentDigest());
    }

    private static long epochNanos(Instant t) {
        long seconds = t.getEpochSecond();
        long nanos = t.getNano();
        if (seconds < 0 && nanos > 0) {
            // Before 1970 the seconds are floored: multiply one second less far back, or the
            // lowest times that decode() accepts (down to -2^63 ns) would overflow here.
            seconds++;
            nanos -= 1_000_000_000L;
        }
        try {
            return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("source time out of range: " + t);
        }
    }

    @Override
    public String toString() {
        return "SignedRecord[" + keyId + ", " + parameterSetName + ", index=" + reading.index() + ", source="
                + sourceTime + "]";
    }
}
