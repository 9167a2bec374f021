package dev.pqsign.x509;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Verifier;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.lms.HssPublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1InputStream;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;

/**
 * SubjectPublicKeyInfo encoding of pqsign's public keys, and the per-certificate helpers the CLI
 * uses ({@link #verifierFor}, {@link #describe}).
 *
 * <h2>Encodings</h2>
 * <ul>
 * <li>XMSS / XMSS^MT (RFC 9802 section 3): algorithm {@code id-alg-xmss-hashsig} or
 * {@code id-alg-xmssmt-hashsig}, parameters absent; the BIT STRING holds the RFC 8391 key
 * ({@code type code || root || PUB_SEED}) with no ASN.1 wrapping.</li>
 * <li>HSS / LMS (RFC 9708 section 4, RFC 9802): algorithm {@code id-alg-hss-lms-hashsig},
 * parameters absent; the BIT STRING holds the RFC 8554 HSS public key with no ASN.1 wrapping.</li>
 * <li>HAETAE (no standard): algorithm = BouncyCastle 1.87's OID for the set, parameters absent; the
 * BIT STRING holds a DER OCTET STRING wrapping the reference key {@code vk}, exactly as
 * BouncyCastle 1.87 writes it (its reader accepts nothing else). On input pqsign also accepts the
 * unwrapped key; the lengths differ, so the two forms cannot be confused.</li>
 * </ul>
 * XMSS sets without a registered type code ({@link XmssParameterSet#isPrivateUse()}) are refused in
 * both directions: RFC 9802 has no way to express them and no other implementation could read them.
 */
public final class PublicKeys {
    private PublicKeys() {}

    /**
     * The SubjectPublicKeyInfo of {@code key}.
     *
     * @param key an XMSS / XMSS^MT or HAETAE key
     * @return the SubjectPublicKeyInfo, parameters absent
     * @throws UnsupportedAlgorithmException for a private-use XMSS set
     */
    public static SubjectPublicKeyInfo toSubjectPublicKeyInfo(PqPublicKey key) {
        AlgorithmIdentifier alg = Oids.algorithmIdentifier(key.algorithmOid());
        if (key.isXmss()) {
            XmssPublicKey x = key.xmss().orElseThrow();
            requireRegistered(x.parameterSet());
            return new SubjectPublicKeyInfo(alg, x.encoded());
        }
        if (key.isHss()) {
            return new SubjectPublicKeyInfo(alg, key.rawEncoding());
        }
        try {
            return new SubjectPublicKeyInfo(alg, new DEROctetString(key.rawEncoding()));
        } catch (IOException e) {
            throw new IllegalStateException("DER encoding of an OCTET STRING failed", e);
        }
    }

    /**
     * The DER SubjectPublicKeyInfo of {@code key} (the X.509 encoding a JCA {@code PublicKey} returns).
     *
     * @param key an XMSS / XMSS^MT or HAETAE key
     * @return a new array with the DER encoding
     * @throws UnsupportedAlgorithmException for a private-use XMSS set
     */
    public static byte[] encode(PqPublicKey key) {
        try {
            return toSubjectPublicKeyInfo(key).getEncoded(ASN1Encoding.DER);
        } catch (IOException e) {
            throw new IllegalStateException("DER encoding failed", e);
        }
    }

    /**
     * Parses a DER SubjectPublicKeyInfo.
     *
     * @param der the DER encoding
     * @return the public key
     * @throws CertificateFormatException if the bytes are not one DER SubjectPublicKeyInfo, have
     *         parameters, or the key has the wrong length
     * @throws UnsupportedAlgorithmException for an algorithm or XMSS type code pqsign cannot use
     */
    public static PqPublicKey decode(byte[] der) {
        ASN1Primitive p = Der.parse(der, "SubjectPublicKeyInfo");
        SubjectPublicKeyInfo spki;
        try {
            spki = SubjectPublicKeyInfo.getInstance(p);
        } catch (RuntimeException e) {
            throw new CertificateFormatException("not a SubjectPublicKeyInfo: " + e.getMessage(), e);
        }
        return fromSubjectPublicKeyInfo(spki);
    }

    /**
     * As {@link #decode(byte[])}, for an already parsed structure.
     *
     * @param spki the SubjectPublicKeyInfo, e.g. a certificate's
     * @return the public key
     * @throws CertificateFormatException if the algorithm has parameters, the BIT STRING has unused
     *         bits, or the key has the wrong length or out-of-range values
     * @throws UnsupportedAlgorithmException for an algorithm or XMSS type code pqsign cannot use
     */
    public static PqPublicKey fromSubjectPublicKeyInfo(SubjectPublicKeyInfo spki) {
        AlgorithmIdentifier alg = spki.getAlgorithm();
        ASN1ObjectIdentifier oid = alg.getAlgorithm();
        XmssParameterSet.Family family = Oids.xmssFamily(oid);
        HaetaeParameterSet haetae = Oids.haetaeSet(oid);
        boolean hss = Oids.isHss(oid);
        if (family == null && haetae == null && !hss) {
            throw new UnsupportedAlgorithmException("unsupported public key algorithm " + oid.getId()
                    + "; pqsign reads id-alg-xmss-hashsig, id-alg-xmssmt-hashsig, id-alg-hss-lms-hashsig and"
                    + " HAETAE-2/3/5");
        }
        requireAbsentParameters(alg, "public key");
        if (spki.getPublicKeyData().getPadBits() != 0) {
            throw new CertificateFormatException("public key BIT STRING has "
                    + spki.getPublicKeyData().getPadBits() + " unused bits; a key is a whole number of bytes");
        }
        byte[] bits = spki.getPublicKeyData().getOctets();
        if (family != null) {
            return PqPublicKey.of(decodeXmss(family, bits));
        }
        if (hss) {
            try {
                return PqPublicKey.of(HssPublicKey.decode(bits));
            } catch (KeyFormatException e) {
                throw new CertificateFormatException(e.getMessage(), e);
            }
        }
        return PqPublicKey.of(decodeHaetae(haetae, bits));
    }

    private static XmssPublicKey decodeXmss(XmssParameterSet.Family family, byte[] key) {
        String fam = family == XmssParameterSet.Family.XMSS ? "XMSS" : "XMSS^MT";
        if (key.length < 4) {
            throw new CertificateFormatException(
                    fam + " public key is " + key.length + " bytes; it must start with a 4-byte type code");
        }
        int code = ((key[0] & 0xff) << 24) | ((key[1] & 0xff) << 16) | ((key[2] & 0xff) << 8) | (key[3] & 0xff);
        XmssParameterSet set = XmssParameterSet.byTypeCode(family, code)
                .orElseThrow(() -> new UnsupportedAlgorithmException("unknown " + fam + " type code 0x"
                        + String.format("%08x", code) + " (not in the IANA XMSS registry as known to this build)"));
        requireRegistered(set);
        try {
            return XmssPublicKey.decode(set, key);
        } catch (KeyFormatException e) {
            throw new CertificateFormatException(e.getMessage(), e);
        }
    }

    private static HaetaePublicKey decodeHaetae(HaetaeParameterSet set, byte[] bits) {
        byte[] key = unwrapOctetString(bits, set.publicKeyBytes());
        if (key == null) {
            throw new CertificateFormatException(set.setName() + " public key must be a DER OCTET STRING of "
                    + set.publicKeyBytes() + " bytes (BouncyCastle's form) or the bare " + set.publicKeyBytes()
                    + "-byte key, got " + bits.length + " bytes");
        }
        try {
            return HaetaePublicKey.fromEncoded(set, key);
        } catch (KeyFormatException e) {
            throw new CertificateFormatException(e.getMessage(), e);
        }
    }

    /**
     * {@code bits} as an OCTET STRING's content if it is exactly one DER OCTET STRING of
     * {@code expected} bytes; {@code bits} itself if it is {@code expected} bytes long; else null.
     */
    static byte[] unwrapOctetString(byte[] bits, int expected) {
        if (bits.length == expected) {
            return bits;
        }
        try (ASN1InputStream in = new ASN1InputStream(bits)) {
            ASN1Primitive p = in.readObject();
            if (p instanceof ASN1OctetString
                    && in.available() == 0
                    && Arrays.equals(p.getEncoded(ASN1Encoding.DER), bits)) {
                byte[] inner = ((ASN1OctetString) p).getOctets();
                return inner.length == expected ? inner : null;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    static void requireAbsentParameters(AlgorithmIdentifier alg, String where) {
        ASN1Encodable params = alg.getParameters();
        if (params == null) {
            return;
        }
        if (params instanceof DERNull || DERNull.INSTANCE.equals(params)) {
            throw new CertificateFormatException(where + " algorithm " + Oids.describe(alg.getAlgorithm())
                    + " has NULL parameters; they must be absent (RFC 9802). The JDK's generic X509Key (e.g."
                    + " X509Certificate.getPublicKey() from the JDK's CertificateFactory) adds such a NULL; read the"
                    + " key from the certificate's own SubjectPublicKeyInfo instead");
        }
        throw new CertificateFormatException(
                where + " algorithm " + Oids.describe(alg.getAlgorithm()) + " has parameters; they must be absent");
    }

    /**
     * Refuses XMSS sets whose type code is from RFC 8391's private-use range.
     *
     * @param set the set to check
     * @throws UnsupportedAlgorithmException naming a registered alternative
     */
    public static void requireRegistered(XmssParameterSet set) {
        if (set.isPrivateUse()) {
            throw new UnsupportedAlgorithmException(set.setName() + " has no registered type code (0x"
                    + String.format("%08x", set.typeCode()) + " is from RFC 8391's private-use range), so RFC 9802"
                    + " certificates cannot carry it and no other implementation could read it; use "
                    + registeredAlternative(set).setName() + " instead");
        }
    }

    /**
     * The registered set pqsign recommends instead of a private-use one: for XMSSMT-SHA2_10/2_256
     * (2^10 signatures) XMSS-SHA2_10_256, the same capacity with smaller signatures; for
     * XMSSMT-SHA2_30/6_256 (subtrees of height 5) XMSSMT-SHA2_40/8_256, the same subtree height and
     * signing cost with more capacity. A registered set is its own alternative.
     *
     * @param set any XMSS / XMSS^MT set
     * @return a set with a registered type code
     */
    public static XmssParameterSet registeredAlternative(XmssParameterSet set) {
        if (!set.isPrivateUse()) {
            return set;
        }
        if (set.layers() == 1 || set.height() <= 10) {
            return XmssParameterSet.XMSS_SHA2_10_256;
        }
        for (XmssParameterSet p : XmssParameterSet.values()) {
            if (!p.isPrivateUse()
                    && p.family() == XmssParameterSet.Family.XMSSMT
                    && p.hash() == set.hash()
                    && p.treeHeight() == set.treeHeight()
                    && p.height() >= set.height()) {
                return p;
            }
        }
        return XmssParameterSet.XMSSMT_SHA2_20_4_256;
    }

    /**
     * A verifier for messages signed with the certificate's subject key: an
     * {@link dev.pqsign.xmss.XmssVerifier} or a {@link dev.pqsign.haetae.HaetaeVerifier} (empty
     * context, as pqsign's telemetry signs). This does not check the certificate itself; do that
     * first with {@link CertificateChainVerifier}.
     *
     * @param cert the certificate whose subject key verifies
     * @return a new verifier
     * @throws UnsupportedAlgorithmException if the certificate holds a key of another algorithm
     * @throws CertificateFormatException if its key is malformed
     */
    public static Verifier verifierFor(PqCertificate cert) {
        return cert.publicKey().verifier();
    }

    /**
     * A human-readable multi-line summary for {@code pqsign inspect}: subject, issuer, serial,
     * validity, key algorithm and parameter set, signature algorithm, CA flag, key usage, key
     * identifiers and the SHA-256 fingerprint. Never fails on an unsupported key: it says so instead.
     *
     * @param cert the certificate to describe
     * @return the summary, one field per line
     */
    public static String describe(PqCertificate cert) {
        StringBuilder sb = new StringBuilder();
        DateTimeFormatter iso = DateTimeFormatter.ISO_INSTANT;
        sb.append("Certificate (X.509 v")
                .append(cert.holder().getVersionNumber())
                .append(")\n");
        sb.append("  Subject:             ").append(cert.subject()).append('\n');
        sb.append("  Issuer:              ").append(cert.issuer()).append('\n');
        sb.append("  Serial:              ")
                .append(cert.serialNumber().toString(16))
                .append('\n');
        sb.append("  Not before:          ")
                .append(iso.format(cert.notBefore()))
                .append('\n');
        sb.append("  Not after:           ").append(iso.format(cert.notAfter())).append('\n');
        ASN1ObjectIdentifier keyOid =
                cert.holder().getSubjectPublicKeyInfo().getAlgorithm().getAlgorithm();
        sb.append("  Public key:          ").append(Oids.describe(keyOid)).append('\n');
        try {
            PqPublicKey key = cert.publicKey();
            sb.append("  Parameter set:       ").append(key.parameterSet().setName());
            if (key.isXmss()) {
                XmssParameterSet p = key.xmss().orElseThrow().parameterSet();
                sb.append(" (type code 0x")
                        .append(String.format("%08x", p.typeCode()))
                        .append(", 2^")
                        .append(p.height())
                        .append(" signatures)");
            }
            if (key.isHss()) {
                HssPublicKey h = key.hss().orElseThrow();
                sb.append(
                        h.levels() == 1
                                ? " (one level)"
                                : " (" + h.levels() + " levels; the lower trees are named by each signature)");
            }
            sb.append('\n');
            sb.append("  Key bytes:           ")
                    .append(key.rawEncoding().length)
                    .append('\n');
        } catch (RuntimeException e) {
            sb.append("  Parameter set:       unusable: ")
                    .append(e.getMessage())
                    .append('\n');
        }
        sb.append("  Signature algorithm: ")
                .append(Oids.describe(cert.signatureAlgorithmOid()))
                .append(", ")
                .append(cert.signature().length)
                .append(" bytes");
        Optional<Long> idx = cert.signatureIndex();
        idx.ifPresent(i -> sb.append(", one-time index ").append(i));
        sb.append('\n');
        sb.append("  CA:                  ").append(cert.isCa() ? "yes" : "no");
        cert.pathLengthConstraint().ifPresent(n -> sb.append(", path length ").append(n));
        sb.append('\n');
        sb.append("  Key usage:           ")
                .append(cert.keyUsage()
                        .map(bits -> bits.stream()
                                .map(KeyUsageBit::rfcName)
                                .collect(java.util.stream.Collectors.joining(", ")))
                        .orElse("(extension absent: unrestricted)"))
                .append('\n');
        cert.subjectKeyIdentifier()
                .ifPresent(k -> sb.append("  Subject key id:      ")
                        .append(Hex.encode(k))
                        .append('\n'));
        cert.authorityKeyIdentifier()
                .ifPresent(k -> sb.append("  Authority key id:    ")
                        .append(Hex.encode(k))
                        .append('\n'));
        sb.append("  SHA-256 fingerprint: ")
                .append(Hex.encode(sha256(cert.encoded())))
                .append('\n');
        return sb.toString();
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
