package dev.pqsign.x509;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssSignatures;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Certificate;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

/**
 * A parsed X.509 certificate (immutable). Reading checks only that the bytes are one well-formed DER
 * certificate; whether it is acceptable (signature, validity, chaining, key usage) is the business
 * of {@link CertificateChainVerifier}.
 *
 * <p>Backed by BouncyCastle's {@link X509CertificateHolder}: the JDK's own parser re-encodes absent
 * algorithm parameters as NULL, which changes what RFC 9802 signatures cover.
 */
public final class PqCertificate {
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();

    private final byte[] der;
    private final X509CertificateHolder holder;

    private PqCertificate(byte[] der, X509CertificateHolder holder) {
        this.der = der;
        this.holder = holder;
    }

    /**
     * Parses one DER certificate.
     *
     * @param der the DER encoding; copied
     * @return the certificate
     * @throws CertificateFormatException on truncated, trailing or non-DER bytes, or a structure that
     *         is not a certificate
     */
    public static PqCertificate fromDer(byte[] der) {
        byte[] copy = der.clone();
        ASN1Primitive p = Der.parse(copy, "certificate");
        PqCertificate cert;
        try {
            Certificate c = Certificate.getInstance(p);
            cert = new PqCertificate(copy, new X509CertificateHolder(c));
        } catch (RuntimeException e) {
            throw new CertificateFormatException("not an X.509 certificate: " + e.getMessage(), e);
        }
        cert.checkFieldsReadable();
        return cert;
    }

    /**
     * BouncyCastle decodes names, times and extension values lazily; decode them all now so that
     * a certificate which cannot be read fails here, with a {@link CertificateFormatException},
     * rather than later inside verification.
     */
    @SuppressWarnings("ReturnValueIgnored") // the names are rendered only to make BouncyCastle decode them
    private void checkFieldsReadable() {
        String field = "names";
        try {
            holder.getSubject().toString();
            holder.getIssuer().toString();
            field = "validity";
            holder.getNotBefore();
            holder.getNotAfter();
            field = "signature";
            if (holder.toASN1Structure().getSignature().getPadBits() != 0) {
                throw new IllegalArgumentException("signature BIT STRING has unused bits");
            }
            field = "extensions";
            Extensions ext = holder.getExtensions();
            if (ext != null) {
                BasicConstraints bc = BasicConstraints.fromExtensions(ext);
                BigInteger pathLen = bc == null ? null : bc.getPathLenConstraint();
                if (pathLen != null && (pathLen.signum() < 0 || pathLen.bitLength() > 31)) {
                    // RFC 5280: INTEGER (0..MAX); beyond an int it can constrain nothing and
                    // pathLengthConstraint() could not return it
                    throw new IllegalArgumentException(
                            "pathLenConstraint " + pathLen + " is outside 0 .. " + Integer.MAX_VALUE);
                }
                KeyUsage.fromExtensions(ext);
                SubjectKeyIdentifier.fromExtensions(ext);
                AuthorityKeyIdentifier.fromExtensions(ext);
            }
        } catch (RuntimeException e) {
            throw new CertificateFormatException("certificate " + field + " cannot be decoded: " + e.getMessage(), e);
        }
    }

    /**
     * Reads DER or PEM (a single {@code CERTIFICATE} block), whichever {@code data} is.
     *
     * @param data a certificate file's content
     * @return the certificate
     * @throws CertificateFormatException if {@code data} is not one readable certificate
     */
    public static PqCertificate read(byte[] data) {
        if (Pem.looksLikePem(data)) {
            return Pem.readCertificate(new String(data, java.nio.charset.StandardCharsets.US_ASCII));
        }
        return fromDer(data);
    }

    /**
     * Wraps a certificate parsed by a JCA provider (its encoding is re-read; BouncyCastle's keeps it intact).
     *
     * @param cert a certificate from any provider
     * @return the certificate
     * @throws CertificateFormatException if the certificate cannot be encoded or its encoding parsed
     */
    public static PqCertificate fromX509(X509Certificate cert) {
        try {
            return fromDer(cert.getEncoded());
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new CertificateFormatException("cannot encode certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Wraps a BouncyCastle certificate holder.
     *
     * @param holder the certificate
     * @return the certificate, re-parsed from the holder's encoding
     * @throws CertificateFormatException if the holder's encoding cannot be parsed
     */
    public static PqCertificate fromHolder(X509CertificateHolder holder) {
        try {
            return fromDer(holder.getEncoded());
        } catch (IOException e) {
            throw new CertificateFormatException("cannot encode certificate: " + e.getMessage(), e);
        }
    }

    /**
     * The DER encoding (a copy).
     *
     * @return a copy of the DER encoding
     */
    public byte[] encoded() {
        return der.clone();
    }

    /**
     * The BouncyCastle view, for callers that need more than this class offers.
     *
     * @return the certificate holder
     */
    public X509CertificateHolder holder() {
        return holder;
    }

    /**
     * A {@link X509Certificate} from BouncyCastle's certificate factory, which keeps the original
     * encoding (the JDK's factory would not, see the class comment). Its {@code verify} needs a
     * provider that knows the algorithm (BouncyCastle for XMSS / XMSS^MT).
     *
     * @return a new {@link X509Certificate} with this certificate's encoding
     * @throws CertificateFormatException if BouncyCastle cannot read the certificate
     */
    public X509Certificate toX509Certificate() {
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509", BC);
            return (X509Certificate) cf.generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException e) {
            throw new CertificateFormatException("BouncyCastle cannot read this certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Subject distinguished name in RFC 4514 style (BouncyCastle's rendering).
     *
     * @return the subject name, e.g. {@code CN=sensor-17,O=Plant A}
     */
    public String subject() {
        return holder.getSubject().toString();
    }

    /**
     * Issuer distinguished name in RFC 4514 style.
     *
     * @return the issuer name
     */
    public String issuer() {
        return holder.getIssuer().toString();
    }

    /**
     * The serial number (positive for certificates pqsign issues).
     *
     * @return the serial number
     */
    public BigInteger serialNumber() {
        return holder.getSerialNumber();
    }

    /**
     * Start of the validity period (inclusive).
     *
     * @return notBefore
     */
    public Instant notBefore() {
        return holder.getNotBefore().toInstant();
    }

    /**
     * End of the validity period (inclusive).
     *
     * @return notAfter
     */
    public Instant notAfter() {
        return holder.getNotAfter().toInstant();
    }

    /**
     * The subject public key.
     *
     * @return the decoded key
     * @throws UnsupportedAlgorithmException for keys pqsign does not handle (RSA, EC, private-use XMSS)
     * @throws CertificateFormatException for a malformed key
     */
    public PqPublicKey publicKey() {
        return PublicKeys.fromSubjectPublicKeyInfo(holder.getSubjectPublicKeyInfo());
    }

    /**
     * The OID of the outer signatureAlgorithm.
     *
     * @return the signature algorithm's OID
     */
    public ASN1ObjectIdentifier signatureAlgorithmOid() {
        return holder.getSignatureAlgorithm().getAlgorithm();
    }

    /**
     * The signature value (a copy).
     *
     * @return a copy of the signature bytes
     */
    public byte[] signature() {
        return holder.getSignature();
    }

    /**
     * The DER tbsCertificate, exactly the bytes the signature covers.
     *
     * @return a new array with the DER tbsCertificate
     */
    public byte[] tbsCertificate() {
        try {
            return holder.toASN1Structure().getTBSCertificate().getEncoded(org.bouncycastle.asn1.ASN1Encoding.DER);
        } catch (IOException e) {
            throw new IllegalStateException("re-encoding a parsed DER structure failed", e);
        }
    }

    /**
     * For a certificate signed with XMSS / XMSS^MT or HSS / LMS, the one-time index the issuer used
     * (read from the start of the signature, or from the leaf numbers of an HSS signature's levels);
     * empty for other algorithms, or if the signature length matches no registered set.
     *
     * @return the issuer's index, or empty
     */
    public Optional<Long> signatureIndex() {
        if (Oids.isHss(signatureAlgorithmOid())) {
            byte[] sig = holder.getSignature();
            return HssSignatures.parameterSetOf(sig)
                    .filter(HssParameterSet::isSignable)
                    .flatMap(p -> {
                        try {
                            return Optional.of(HssSignatures.index(p, sig));
                        } catch (KeyFormatException e) {
                            return Optional.empty();
                        }
                    });
        }
        XmssParameterSet.Family family = Oids.xmssFamily(signatureAlgorithmOid());
        if (family == null) {
            return Optional.empty();
        }
        byte[] sig = holder.getSignature();
        Integer indexBytes = null;
        for (XmssParameterSet p : XmssParameterSet.values()) {
            if (p.family() == family && p.signatureBytes() == sig.length) {
                if (indexBytes != null && indexBytes != p.indexBytes()) {
                    return Optional.empty();
                }
                indexBytes = p.indexBytes();
            }
        }
        if (indexBytes == null) {
            return Optional.empty();
        }
        long idx = 0;
        for (int i = 0; i < indexBytes; i++) {
            idx = (idx << 8) | (sig[i] & 0xff);
        }
        return Optional.of(idx);
    }

    /**
     * {@code true} if the basic constraints extension says cA = TRUE.
     *
     * @return whether this is a CA certificate
     */
    public boolean isCa() {
        BasicConstraints bc = BasicConstraints.fromExtensions(extensions());
        return bc != null && bc.isCA();
    }

    /**
     * The pathLenConstraint of a CA certificate, if present.
     *
     * @return the constraint, or empty for an end entity or a CA without one
     */
    public Optional<Integer> pathLengthConstraint() {
        BasicConstraints bc = BasicConstraints.fromExtensions(extensions());
        if (bc == null || !bc.isCA() || bc.getPathLenConstraint() == null) {
            return Optional.empty();
        }
        return Optional.of(bc.getPathLenConstraint().intValueExact());
    }

    /**
     * The key usage bits, or empty if the extension is absent (which RFC 5280 reads as "unrestricted").
     *
     * @return the bits set, or empty
     */
    public Optional<Set<KeyUsageBit>> keyUsage() {
        KeyUsage ku = KeyUsage.fromExtensions(extensions());
        if (ku == null) {
            return Optional.empty();
        }
        Set<KeyUsageBit> bits = EnumSet.noneOf(KeyUsageBit.class);
        for (KeyUsageBit b : KeyUsageBit.values()) {
            if (ku.hasUsages(b.mask())) {
                bits.add(b);
            }
        }
        return Optional.of(bits);
    }

    /**
     * The subject key identifier extension value, if present (a fresh array).
     *
     * @return the key identifier, or empty
     */
    public Optional<byte[]> subjectKeyIdentifier() {
        SubjectKeyIdentifier ski = SubjectKeyIdentifier.fromExtensions(extensions());
        return ski == null ? Optional.empty() : Optional.of(ski.getKeyIdentifier());
    }

    /**
     * The keyIdentifier of the authority key identifier extension, if present (a fresh array).
     *
     * @return the issuer's key identifier, or empty
     */
    public Optional<byte[]> authorityKeyIdentifier() {
        AuthorityKeyIdentifier aki = AuthorityKeyIdentifier.fromExtensions(extensions());
        return aki == null || aki.getKeyIdentifierObject() == null
                ? Optional.empty()
                : Optional.of(aki.getKeyIdentifierOctets());
    }

    /**
     * {@code true} if subject and issuer names are equal.
     *
     * @return whether subject and issuer names are equal
     */
    public boolean isSelfIssued() {
        return holder.getSubject().equals(holder.getIssuer());
    }

    Extensions extensions() {
        return holder.getExtensions();
    }

    Extension extension(ASN1ObjectIdentifier oid) {
        return holder.getExtension(oid);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PqCertificate && java.util.Arrays.equals(((PqCertificate) o).der, der);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(der);
    }

    @Override
    public String toString() {
        return "PqCertificate[subject=" + subject() + ", issuer=" + issuer() + ", serial="
                + serialNumber().toString(16) + "]";
    }
}
