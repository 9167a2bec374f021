package dev.pqsign.x509;

import dev.pqsign.core.Signer;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.Objects;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AuthorityKeyIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectKeyIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x509.Time;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;

/**
 * Issues X.509 v3 certificates signed with XMSS / XMSS^MT (RFC 9802) or HAETAE.
 *
 * <p>Every certificate signed with an XMSS key consumes one one-time index, reserved durably in the
 * signer's state store before the signature exists ({@link XmssStatefulSigner#sign}). After signing,
 * the certificate is verified against the issuer's key, so a signer that does not belong to the
 * issuing certificate is caught before the certificate leaves this class.
 *
 * <p>Extensions written: basic constraints (critical; cA and optional pathLenConstraint), key usage
 * (critical), subject key identifier and authority key identifier (SHA-1 of the subject public key
 * BIT STRING, RFC 5280 section 4.2.1.2 method 1; self-signed certificates carry their own).
 *
 * <pre>{@code
 * try (FileStateStore store = FileStateStore.open(Path.of("root.state"));
 *      XmssStatefulSigner root = XmssStatefulSigner.open(store)) {
 *     PqCertificate rootCert = Certificates.selfSigned(root, "CN=Plant Root CA,O=Example", 3650);
 *     PqCertificate sensor = Certificates.issue(root, rootCert, sensorHaetaeKey, "CN=sensor-17", 365, false);
 *     Files.writeString(Path.of("sensor.pem"), Pem.write(sensor));
 * }
 * }</pre>
 */
public final class Certificates {
    private Certificates() {}

    /**
     * A self-signed CA certificate for the signer's own XMSS / XMSS^MT key, valid for {@code days}.
     * Uses one index of the key.
     *
     * @param ca the signer of the CA's key; its public key becomes the subject key
     * @param subjectDn the subject's distinguished name in RFC 4514 form, e.g. {@code CN=Plant Root CA,O=Example}
     * @param days the number of days the certificate is valid from now, at least 1
     * @return the certificate, verified under its own key
     * @throws IllegalArgumentException if the DN is malformed or {@code days < 1}
     * @throws UnsupportedAlgorithmException for a private-use XMSS set
     */
    public static PqCertificate selfSigned(XmssStatefulSigner ca, String subjectDn, int days) {
        return selfSigned(
                ca,
                PqPublicKey.of(ca.publicKey()),
                CertificateTemplate.forDays(subjectDn, days, Clock.systemUTC()).ca(true));
    }

    /**
     * A self-signed CA certificate for the signer's own XMSS / XMSS^MT key, valid for {@code validity}.
     * Uses one index of the key.
     *
     * @param ca the signer of the CA's key; its public key becomes the subject key
     * @param subjectDn the subject's distinguished name in RFC 4514 form, e.g. {@code CN=Plant Root CA,O=Example}
     * @param validity how long the certificate is valid from now; positive
     * @return the certificate, verified under its own key
     * @throws IllegalArgumentException if the DN is malformed or {@code validity} is not positive
     * @throws UnsupportedAlgorithmException for a private-use XMSS set
     */
    public static PqCertificate selfSigned(XmssStatefulSigner ca, String subjectDn, Duration validity) {
        return selfSigned(
                ca,
                PqPublicKey.of(ca.publicKey()),
                CertificateTemplate.valid(subjectDn, validity, Clock.systemUTC())
                        .ca(true));
    }

    /**
     * A self-signed certificate: issuer = subject, signed by {@code signer}, whose public key is
     * {@code key} (checked by verifying the result).
     *
     * @param signer an {@link XmssStatefulSigner} or a {@link dev.pqsign.haetae.HaetaeSigner}
     * @param key the signer's public key, which becomes the subject key
     * @param template subject, validity, CA flag, key usage and serial
     * @return the certificate, verified under {@code key}
     * @throws IllegalArgumentException if the template's key usage breaks RFC 9802's rules or the
     *         signature does not verify under {@code key}
     * @throws UnsupportedAlgorithmException for a private-use XMSS set
     */
    public static PqCertificate selfSigned(Signer signer, PqPublicKey key, CertificateTemplate template) {
        X500Name name = template.subject();
        byte[] keyId = keyIdentifier(PublicKeys.toSubjectPublicKeyInfo(key));
        return sign(signer, key, name, keyId, key, template);
    }

    /**
     * Issues a certificate for an XMSS / XMSS^MT key; see {@link #issue(Signer, PqCertificate, PqPublicKey, String,
     * int, boolean)}.
     *
     * @param signer the issuer's signer
     * @param caCert the issuer's certificate
     * @param subjectKey the key the certificate is for
     * @param subjectDn the subject's distinguished name, e.g. {@code CN=sensor-17}
     * @param days the number of days the certificate is valid from now, at least 1
     * @param ca whether the new certificate is itself a CA
     * @return the certificate, verified under the issuer's key
     */
    public static PqCertificate issue(
            Signer signer, PqCertificate caCert, XmssPublicKey subjectKey, String subjectDn, int days, boolean ca) {
        return issue(signer, caCert, PqPublicKey.of(subjectKey), subjectDn, days, ca);
    }

    /**
     * Issues a certificate for a HAETAE key; see {@link #issue(Signer, PqCertificate, PqPublicKey, String, int,
     * boolean)}.
     *
     * @param signer the issuer's signer
     * @param caCert the issuer's certificate
     * @param subjectKey the key the certificate is for
     * @param subjectDn the subject's distinguished name, e.g. {@code CN=sensor-17}
     * @param days the number of days the certificate is valid from now, at least 1
     * @param ca whether the new certificate is itself a CA
     * @return the certificate, verified under the issuer's key
     */
    public static PqCertificate issue(
            Signer signer, PqCertificate caCert, HaetaePublicKey subjectKey, String subjectDn, int days, boolean ca) {
        return issue(signer, caCert, PqPublicKey.of(subjectKey), subjectDn, days, ca);
    }

    /**
     * Issues a certificate valid from now for {@code days} days.
     *
     * @param signer the issuer's signer: an {@link XmssStatefulSigner} or a
     *        {@link dev.pqsign.haetae.HaetaeSigner}, whose key is the subject key of {@code caCert}
     * @param caCert the issuer's certificate; must be a CA allowed to sign certificates
     * @param subjectKey the key the certificate is for
     * @param subjectDn the subject's distinguished name, e.g. {@code CN=sensor-17}
     * @param days the number of days the certificate is valid from now, at least 1
     * @param ca whether the new certificate is itself a CA
     * @return the certificate, verified under the issuer's key
     * @throws IllegalArgumentException if {@code caCert} is not a CA, the validity would outlast it,
     *         the DN is malformed, or the signer's key does not match {@code caCert}
     * @throws UnsupportedAlgorithmException for private-use XMSS sets (either key)
     */
    public static PqCertificate issue(
            Signer signer, PqCertificate caCert, PqPublicKey subjectKey, String subjectDn, int days, boolean ca) {
        return issue(
                signer,
                caCert,
                subjectKey,
                CertificateTemplate.forDays(subjectDn, days, Clock.systemUTC()).ca(ca));
    }

    /**
     * Issues a certificate described by {@code template}; see the other {@code issue} methods.
     *
     * @param signer the issuer's signer, whose key is the subject key of {@code caCert}
     * @param caCert the issuer's certificate; must be a CA allowed to sign certificates
     * @param subjectKey the key the certificate is for
     * @param template subject, validity, CA flag, key usage and serial
     * @return the certificate, verified under the issuer's key
     * @throws IllegalArgumentException if {@code caCert} is not a CA or lacks keyCertSign, the validity
     *         would outlast it, the key usage breaks RFC 9802's rules, or the signer's key does not match
     *         {@code caCert}
     * @throws UnsupportedAlgorithmException for private-use XMSS sets (either key)
     */
    public static PqCertificate issue(
            Signer signer, PqCertificate caCert, PqPublicKey subjectKey, CertificateTemplate template) {
        Objects.requireNonNull(caCert, "caCert");
        if (!caCert.isCa()) {
            throw new IllegalArgumentException(
                    "issuer certificate " + caCert.subject() + " is not a CA (basic constraints cA is not TRUE)");
        }
        if (caCert.keyUsage().map(k -> !k.contains(KeyUsageBit.KEY_CERT_SIGN)).orElse(false)) {
            throw new IllegalArgumentException(
                    "issuer certificate " + caCert.subject() + " lacks the keyCertSign key usage");
        }
        if (template.notAfter().isAfter(caCert.notAfter())) {
            throw new IllegalArgumentException("requested notAfter " + template.notAfter()
                    + " is after the issuer's notAfter " + caCert.notAfter() + "; shorten the validity");
        }
        PqPublicKey issuerKey = caCert.publicKey();
        if (signer instanceof XmssStatefulSigner
                && !PqPublicKey.of(((XmssStatefulSigner) signer).publicKey()).equals(issuerKey)) {
            // Checked before signing so that a mix-up does not cost an index.
            throw new IllegalArgumentException(
                    "the signer's key is not the public key of issuer certificate " + caCert.subject());
        }
        if (signer instanceof HssStatefulSigner
                && !PqPublicKey.of(((HssStatefulSigner) signer).publicKey()).equals(issuerKey)) {
            throw new IllegalArgumentException(
                    "the signer's key is not the public key of issuer certificate " + caCert.subject());
        }
        byte[] issuerKeyId = caCert.subjectKeyIdentifier()
                .orElseGet(() -> keyIdentifier(caCert.holder().getSubjectPublicKeyInfo()));
        return sign(signer, issuerKey, caCert.holder().getSubject(), issuerKeyId, subjectKey, template);
    }

    private static PqCertificate sign(
            Signer signer,
            PqPublicKey issuerKey,
            X500Name issuer,
            byte[] issuerKeyId,
            PqPublicKey subjectKey,
            CertificateTemplate template) {
        Objects.requireNonNull(signer, "signer");
        SubjectPublicKeyInfo spki = PublicKeys.toSubjectPublicKeyInfo(subjectKey);
        Set<KeyUsageBit> usage = template.keyUsage();
        checkKeyUsage(usage, template.isCa());
        // Resolve the signature algorithm before building anything, so unsupported signers fail early.
        PqContentSigner contentSigner = new PqContentSigner(signer);
        X509v3CertificateBuilder b = new X509v3CertificateBuilder(
                issuer,
                template.serialOrRandom(),
                new Time(Date.from(template.notBefore())),
                new Time(Date.from(template.notAfter())),
                template.subject(),
                spki);
        try {
            BasicConstraints bc = template.isCa()
                    ? template.pathLength().map(BasicConstraints::new).orElseGet(() -> new BasicConstraints(true))
                    : new BasicConstraints(false);
            b.addExtension(Extension.basicConstraints, true, bc);
            int mask = 0;
            for (KeyUsageBit bit : usage) {
                mask |= bit.mask();
            }
            b.addExtension(Extension.keyUsage, true, new KeyUsage(mask));
            b.addExtension(Extension.subjectKeyIdentifier, false, new SubjectKeyIdentifier(keyIdentifier(spki)));
            b.addExtension(Extension.authorityKeyIdentifier, false, new AuthorityKeyIdentifier(issuerKeyId));
        } catch (IOException e) {
            throw new IllegalStateException("encoding an extension failed", e);
        }
        X509CertificateHolder holder = b.build(contentSigner);
        PqCertificate cert = PqCertificate.fromHolder(holder);
        if (!X509Signatures.verify(issuerKey, cert.tbsCertificate(), cert.signature())) {
            throw new IllegalArgumentException("the new certificate does not verify under the issuer's public key: "
                    + "the signer does not hold the issuer certificate's key");
        }
        return cert;
    }

    /**
     * RFC 9802 section 4 (applied to HAETAE too): only digitalSignature, nonRepudiation, keyCertSign
     * and cRLSign; a CA needs keyCertSign; an end entity may not have keyCertSign.
     */
    static void checkKeyUsage(Set<KeyUsageBit> usage, boolean ca) {
        for (KeyUsageBit bit : usage) {
            if (!bit.isSigningUsage()) {
                throw new IllegalArgumentException("key usage " + bit + " is not allowed for a signature-only key "
                        + "(RFC 9802 allows digitalSignature, nonRepudiation, keyCertSign, cRLSign)");
            }
        }
        if (ca && !usage.contains(KeyUsageBit.KEY_CERT_SIGN)) {
            throw new IllegalArgumentException("a CA certificate needs the keyCertSign key usage");
        }
        if (!ca && usage.contains(KeyUsageBit.KEY_CERT_SIGN)) {
            throw new IllegalArgumentException("keyCertSign is only allowed in CA certificates (RFC 5280 4.2.1.3)");
        }
    }

    /** SHA-1 of the subjectPublicKey BIT STRING contents (RFC 5280 section 4.2.1.2, method 1). */
    static byte[] keyIdentifier(SubjectPublicKeyInfo spki) {
        try {
            return MessageDigest.getInstance("SHA-1")
                    .digest(spki.getPublicKeyData().getBytes());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
