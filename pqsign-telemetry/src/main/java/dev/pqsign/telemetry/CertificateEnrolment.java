package dev.pqsign.telemetry;

import dev.pqsign.core.Digests;
import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An operator's record that it checked a sensor's first certificate chain in certificate mode and
 * found it valid: which chain (its SHA-256) and when. An operator enrols a sensor only on a first
 * chain that is valid now; the record lets a later start with the same chain check it again,
 * completely, at the time it was found valid, so the operator resumes the sensor's followed key
 * chain after that first certificate has expired. Format: docs/formats/certificate-enrolment.md;
 * kept as {@code DATA_DIR/chains/ID.pqce} beside the followed chain state.
 *
 * <p>Immutable.
 */
public final class CertificateEnrolment {
    /** File name suffix in the operator's chains directory. */
    public static final String SUFFIX = ".pqce";

    /** Length of an encoded record in bytes. */
    public static final int LENGTH = 93;

    private static final byte[] MAGIC = {'P', 'Q', 'C', 'E'};
    private static final int VERSION = 1;
    private static final int DIGEST_BYTES = 32;
    private static final int CHECK_BYTES = 16;
    /** 9999-12-31T23:59:59.999Z, the last instant an X.509 time can name. */
    private static final long MAX_MILLIS = 253_402_300_799_999L;

    private final byte[] chainId;
    private final Instant validatedAt;
    private final byte[] chainDigest;

    private CertificateEnrolment(byte[] chainId, Instant validatedAt, byte[] chainDigest) {
        this.chainId = chainId;
        this.validatedAt = validatedAt;
        this.chainDigest = chainDigest;
    }

    /**
     * The record that {@code firstChain} was found valid at {@code validatedAt}.
     *
     * @param firstChain the sensor's first key's certificate, then its device CA's if any
     * @param validatedAt when the operator checked it (milliseconds are kept)
     * @return the record, for the chain whose id is the key id of the first certificate's key
     * @throws IllegalArgumentException if the chain is empty, its first certificate's key cannot be read,
     *     or the time is outside 1970 … 9999
     */
    public static CertificateEnrolment of(List<PqCertificate> firstChain, Instant validatedAt) {
        Objects.requireNonNull(validatedAt, "validatedAt");
        if (firstChain.isEmpty()) {
            throw new IllegalArgumentException("empty certificate chain");
        }
        long ms = validatedAt.toEpochMilli();
        if (ms < 0 || ms > MAX_MILLIS) {
            throw new IllegalArgumentException("time " + validatedAt + " is outside 1970 … 9999");
        }
        return new CertificateEnrolment(chainId(firstChain), Instant.ofEpochMilli(ms), digest(firstChain));
    }

    /**
     * The chain id of a sensor given by {@code firstChain}: the key id of its first certificate's key.
     *
     * @param firstChain the sensor's first key's certificate first
     * @return the 32-byte chain id
     * @throws IllegalArgumentException if the key cannot be read
     */
    public static byte[] chainId(List<PqCertificate> firstChain) {
        try {
            return PublicKeys.keyId(firstChain.get(0).publicKey());
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * When the operator found the chain valid.
     *
     * @return the time, to the millisecond
     */
    public Instant validatedAt() {
        return validatedAt;
    }

    /**
     * Whether this records {@code firstChain} itself (the same certificates, byte for byte, in order).
     *
     * @param firstChain a sensor's first key's certificate chain
     * @return true if its SHA-256 is the one recorded
     */
    public boolean isOf(List<PqCertificate> firstChain) {
        return MessageDigest.isEqual(chainDigest, digest(firstChain));
    }

    /**
     * The record's bytes (docs/formats/certificate-enrolment.md).
     *
     * @return {@link #LENGTH} bytes
     */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH);
        b.put(MAGIC)
                .put((byte) VERSION)
                .put(chainId)
                .putLong(validatedAt.toEpochMilli())
                .put(chainDigest);
        b.put(Digests.checkValue(b.array(), LENGTH - CHECK_BYTES, CHECK_BYTES));
        return b.array();
    }

    /**
     * Decodes a record strictly.
     *
     * @param bytes the stored bytes
     * @param expectedChainId the chain id the record must name (guards against another sensor's file)
     * @return the record
     * @throws KeyFormatException naming what is wrong
     */
    public static CertificateEnrolment decode(byte[] bytes, byte[] expectedChainId) {
        Objects.requireNonNull(expectedChainId, "expectedChainId");
        if (bytes.length != LENGTH) {
            throw new KeyFormatException(
                    "certificate enrolment record is " + bytes.length + " bytes, expected " + LENGTH);
        }
        if (!MessageDigest.isEqual(
                Digests.checkValue(bytes, LENGTH - CHECK_BYTES, CHECK_BYTES),
                Arrays.copyOfRange(bytes, LENGTH - CHECK_BYTES, LENGTH))) {
            throw new KeyFormatException("certificate enrolment record check value does not match (corrupted file)");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        byte[] magic = new byte[MAGIC.length];
        b.get(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new KeyFormatException("not a certificate enrolment record (magic " + Hex.encode(magic) + ")");
        }
        int version = b.get() & 0xff;
        if (version != VERSION) {
            throw new KeyFormatException(
                    "certificate enrolment record version " + version + " is not supported (only 1)");
        }
        byte[] chainId = new byte[PublicKeys.KEY_ID_BYTES];
        b.get(chainId);
        if (!MessageDigest.isEqual(chainId, expectedChainId)) {
            throw new KeyFormatException("certificate enrolment record belongs to chain "
                    + Hex.encode(chainId).substring(0, 16) + "…, not "
                    + Hex.encode(expectedChainId).substring(0, 16) + "…");
        }
        long ms = b.getLong();
        if (ms < 0 || ms > MAX_MILLIS) {
            throw new KeyFormatException(
                    "certificate enrolment record time " + Long.toUnsignedString(ms) + " ms is outside 1970 … 9999");
        }
        byte[] digest = new byte[DIGEST_BYTES];
        b.get(digest);
        return new CertificateEnrolment(chainId, Instant.ofEpochMilli(ms), digest);
    }

    /**
     * The record of the chain {@code chainId} in {@code dir}, if there is one.
     *
     * @param dir the operator's chains directory
     * @param chainId the sensor's chain id
     * @return the record, or empty if the file does not exist
     * @throws IOException if the file cannot be read or is not a valid record of that chain (the
     *     message names the file)
     */
    public static Optional<CertificateEnrolment> load(Path dir, byte[] chainId) throws IOException {
        Path file = file(dir, chainId);
        byte[] bytes;
        try {
            bytes = DurableFiles.readAll(file, LENGTH);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(decode(bytes, chainId));
        } catch (KeyFormatException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stores this record in {@code dir} (created if missing), atomically and durably, replacing an
     * earlier record of the same chain.
     *
     * @param dir the operator's chains directory
     * @return the file written
     * @throws IOException if it cannot be made durable
     */
    public Path store(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file = file(dir, chainId);
        DurableFiles.writeAtomically(file, encode());
        return file;
    }

    /**
     * Where the record of {@code chainId} is kept in {@code dir}.
     *
     * @param dir the operator's chains directory
     * @param chainId the sensor's chain id
     * @return {@code dir/ID.pqce}, ID the chain id in lower-case hex
     */
    public static Path file(Path dir, byte[] chainId) {
        return dir.resolve(Hex.encode(chainId) + SUFFIX);
    }

    private static byte[] digest(List<PqCertificate> chain) {
        MessageDigest md = Digests.sha256();
        // DER is self-delimiting, so the concatenation names the sequence of certificates exactly.
        for (PqCertificate c : chain) {
            md.update(c.encoded());
        }
        return md.digest();
    }

    @Override
    public String toString() {
        return "CertificateEnrolment[chain " + Hex.encode(chainId).substring(0, 16) + "…, validated at " + validatedAt
                + "]";
    }
}
