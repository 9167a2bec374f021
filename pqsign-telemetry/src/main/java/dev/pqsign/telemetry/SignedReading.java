package dev.pqsign.telemetry;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One published reading: the raw reading text, the index it was signed under and the signature over
 * {@link ReadingMessage#encode(String, long, byte[]) the canonical message}.
 *
 * @param reading the reading text exactly as published (UTF-8 on the wire)
 * @param index the index the reading was signed under
 * @param signature the signature bytes; the record keeps the array it is given
 */
public record SignedReading(String reading, long index, byte[] signature) {

    /**
     * Validates the fields; the reading must fit {@link ReadingMessage#MAX_READING_BYTES}.
     *
     * @param reading the reading text exactly as published (UTF-8 on the wire)
     * @param index the index the reading was signed under
     * @param signature the signature bytes; the record keeps the array it is given
     * @throws IllegalArgumentException if {@code index} is negative or the reading is too long
     */
    public SignedReading {
        Objects.requireNonNull(reading, "reading");
        Objects.requireNonNull(signature, "signature");
        if (index < 0) {
            throw new IllegalArgumentException("index must be non-negative, got " + index);
        }
        if (reading.getBytes(StandardCharsets.UTF_8).length > ReadingMessage.MAX_READING_BYTES) {
            throw new IllegalArgumentException(
                    "reading longer than " + ReadingMessage.MAX_READING_BYTES + " UTF-8 bytes");
        }
    }

    /**
     * The reading's UTF-8 bytes (a fresh array).
     *
     * @return the UTF-8 encoding of {@link #reading()}
     */
    public byte[] readingBytes() {
        return reading.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The message that {@link #signature()} signs, for the given parameter set.
     *
     * @param parameterSetName the signer's canonical set name
     * @return the canonical message ({@link ReadingMessage#encode(String, long, byte[])})
     */
    public byte[] message(String parameterSetName) {
        return ReadingMessage.encode(parameterSetName, index, readingBytes());
    }

    @Override
    public String toString() {
        return "SignedReading[index=" + index + ", reading=" + reading + ", signature=" + signature.length + " bytes]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SignedReading s
                && s.index == index
                && s.reading.equals(reading)
                && Arrays.equals(s.signature, signature);
    }

    @Override
    public int hashCode() {
        return Objects.hash(reading, index, Arrays.hashCode(signature));
    }
}
