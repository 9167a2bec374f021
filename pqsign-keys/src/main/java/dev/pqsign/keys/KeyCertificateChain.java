package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.internal.ByteWriter;
import dev.pqsign.keys.internal.StrictReader;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The certificates of one sensor key as a sensor publishes them: the key's own certificate first,
 * then the certificate of the device CA that issued it (layout: docs/formats/key-certificates.md).
 * Published on the sensor's record node right before the handover record that introduces the key,
 * and on the key-certificates node while the key is current; an operator in certificate mode
 * follows a handover only with a chain that validates to its trusted root.
 */
public final class KeyCertificateChain {
    /** {@code "PQCC"}. */
    static final byte[] MAGIC = "PQCC".getBytes(StandardCharsets.US_ASCII);

    static final int VERSION = 1;
    /** Most certificates in a chain: the key's, its device CA's, and room for two more intermediates. */
    public static final int MAX_CERTIFICATES = 4;
    /** Largest certificate accepted (an XMSSMT-SHA2_60/12_256 signature alone is 27 KiB). */
    public static final int MAX_CERTIFICATE_BYTES = 1 << 16;

    private final List<PqCertificate> certificates;

    private KeyCertificateChain(List<PqCertificate> certificates) {
        this.certificates = List.copyOf(certificates);
    }

    /**
     * A chain of 1 … {@value #MAX_CERTIFICATES} certificates, the key's own first.
     *
     * @param certificates the key's certificate, then its issuers' (each at most {@link #MAX_CERTIFICATE_BYTES} bytes
     *     DER)
     * @return the chain
     * @throws IllegalArgumentException if the list is empty, too long or a certificate too large
     */
    public static KeyCertificateChain of(List<PqCertificate> certificates) {
        Objects.requireNonNull(certificates, "certificates");
        if (certificates.isEmpty() || certificates.size() > MAX_CERTIFICATES) {
            throw new IllegalArgumentException("a key certificate chain holds 1 to " + MAX_CERTIFICATES
                    + " certificates, got " + certificates.size());
        }
        for (PqCertificate c : certificates) {
            if (c.encoded().length > MAX_CERTIFICATE_BYTES) {
                throw new IllegalArgumentException(
                        "certificate " + c.subject() + " is larger than " + MAX_CERTIFICATE_BYTES + " bytes");
            }
        }
        return new KeyCertificateChain(certificates);
    }

    /**
     * {@code true} if {@code value} starts with this format's magic (the operator's dispatch on the record node).
     *
     * @param value a record node's value
     * @return whether it starts with {@code "PQCC"}
     */
    public static boolean hasMagic(byte[] value) {
        return value.length >= MAGIC.length
                && value[0] == MAGIC[0]
                && value[1] == MAGIC[1]
                && value[2] == MAGIC[2]
                && value[3] == MAGIC[3];
    }

    /**
     * The certificates, the key's own first.
     *
     * @return 1 to {@value #MAX_CERTIFICATES} certificates, unmodifiable
     */
    public List<PqCertificate> certificates() {
        return certificates;
    }

    /**
     * The key's own certificate.
     *
     * @return the first certificate
     */
    public PqCertificate leaf() {
        return certificates.get(0);
    }

    /**
     * The wire form (docs/formats/key-certificates.md).
     *
     * @return magic, version, count, then each certificate's length and DER
     */
    public byte[] encode() {
        ByteWriter w = new ByteWriter().raw(MAGIC).u8(VERSION).u8(certificates.size());
        for (PqCertificate c : certificates) {
            byte[] der = c.encoded();
            w.u32(der.length).raw(der);
        }
        return w.toByteArray();
    }

    /**
     * Decodes the wire form strictly: magic, version, count, lengths checked before anything is
     * allocated, every certificate DER as {@link PqCertificate#fromDer} reads it, no trailing bytes.
     *
     * @param value the wire form
     * @return the chain
     * @throws KeyFormatException if the bytes are not such a chain
     */
    public static KeyCertificateChain decode(byte[] value) {
        Objects.requireNonNull(value, "value");
        StrictReader r = new StrictReader(value, "key certificate chain");
        r.expect(MAGIC, "magic");
        int version = r.u8("version");
        if (version != VERSION) {
            throw new KeyFormatException("key certificate chain version " + version + " is not supported (only 1)");
        }
        int n = r.u8("count");
        if (n < 1 || n > MAX_CERTIFICATES) {
            throw new KeyFormatException(
                    "key certificate chain holds " + n + " certificates, 1 to " + MAX_CERTIFICATES + " allowed");
        }
        List<PqCertificate> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int len = r.length32("certificate " + (i + 1) + " length", MAX_CERTIFICATE_BYTES);
            if (len < 1) {
                throw new KeyFormatException("key certificate chain certificate " + (i + 1) + " is empty");
            }
            byte[] der = r.bytes(len, "certificate " + (i + 1));
            try {
                out.add(PqCertificate.fromDer(der));
            } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
                throw new KeyFormatException("key certificate chain certificate " + (i + 1) + ": " + e.getMessage());
            }
        }
        r.end();
        return new KeyCertificateChain(out);
    }

    @Override
    public String toString() {
        return "KeyCertificateChain[" + leaf().subject() + " issued by " + leaf().issuer() + ", " + certificates.size()
                + " certificates]";
    }
}
