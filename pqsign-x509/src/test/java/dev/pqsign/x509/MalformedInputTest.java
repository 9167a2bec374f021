package dev.pqsign.x509;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.x509.ChainVerificationResult.Reason;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Unreadable input gives a {@link CertificateFormatException} or {@link UnsupportedAlgorithmException} that says why. */
class MalformedInputTest {

    static byte[] example() throws Exception {
        try (InputStream in = MalformedInputTest.class.getResourceAsStream("/rfc9802/appendix-b-xmss.pem")) {
            return PqCertificate.read(in.readAllBytes()).encoded();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 100, 1000, -1})
    void truncatedDer_rejected(int keep) throws Exception {
        byte[] der = example();
        byte[] cut = Arrays.copyOf(der, keep < 0 ? der.length + keep : keep);
        CertificateFormatException e = assertThrows(CertificateFormatException.class, () -> PqCertificate.fromDer(cut));
        assertTrue(e.getMessage().contains("certificate"), e.getMessage());
    }

    @Test
    void trailingBytes_rejected() throws Exception {
        byte[] der = example();
        byte[] longer = Arrays.copyOf(der, der.length + 3);
        CertificateFormatException e =
                assertThrows(CertificateFormatException.class, () -> PqCertificate.fromDer(longer));
        assertTrue(e.getMessage().contains("3 trailing byte"), e.getMessage());
    }

    @Test
    void nonMinimalLength_isBerNotDer() throws Exception {
        byte[] der = example();
        assertEquals((byte) 0x82, der[1], "outer length uses two bytes");
        byte[] ber = new byte[der.length + 1];
        ber[0] = 0x30;
        ber[1] = (byte) 0x83;
        ber[2] = 0;
        System.arraycopy(der, 2, ber, 3, der.length - 2);
        CertificateFormatException e = assertThrows(CertificateFormatException.class, () -> PqCertificate.fromDer(ber));
        assertTrue(e.getMessage().contains("not DER"), e.getMessage());
    }

    @Test
    void emptyOrGarbageOrWrongStructure_rejected() throws Exception {
        assertThrows(CertificateFormatException.class, () -> PqCertificate.fromDer(new byte[0]));
        assertThrows(
                CertificateFormatException.class,
                () -> PqCertificate.fromDer("hello".getBytes(StandardCharsets.US_ASCII)));
        byte[] spki = PublicKeys.encode(PqCertificate.fromDer(example()).publicKey());
        CertificateFormatException e =
                assertThrows(CertificateFormatException.class, () -> PqCertificate.fromDer(spki));
        assertTrue(e.getMessage().contains("not an X.509 certificate"), e.getMessage());
    }

    @Test
    void spki_wrongOid_unsupported() throws Exception {
        byte[] key = new byte[68];
        key[3] = 1;
        byte[] der = new SubjectPublicKeyInfo(
                        new AlgorithmIdentifier(new ASN1ObjectIdentifier("1.2.840.113549.1.1.1")), key)
                .getEncoded();
        UnsupportedAlgorithmException e =
                assertThrows(UnsupportedAlgorithmException.class, () -> PublicKeys.decode(der));
        assertTrue(e.getMessage().contains("1.2.840.113549.1.1.1"), e.getMessage());
    }

    @Test
    void spki_wrongKeyLength_rejectedWithExpectedLength() throws Exception {
        byte[] key = new byte[67];
        key[3] = 2;
        byte[] der = new SubjectPublicKeyInfo(new AlgorithmIdentifier(Oids.ID_ALG_XMSSMT_HASHSIG), key).getEncoded();
        CertificateFormatException e = assertThrows(CertificateFormatException.class, () -> PublicKeys.decode(der));
        assertTrue(e.getMessage().contains("68") && e.getMessage().contains("67"), e.getMessage());

        byte[] h = new SubjectPublicKeyInfo(new AlgorithmIdentifier(Oids.HAETAE_2), new DEROctetString(new byte[991]))
                .getEncoded();
        CertificateFormatException e2 = assertThrows(CertificateFormatException.class, () -> PublicKeys.decode(h));
        assertTrue(e2.getMessage().contains("992"), e2.getMessage());
    }

    @Test
    void spki_nullParameters_rejectedMentioningTheJdk() throws Exception {
        byte[] key = new byte[68];
        key[3] = 1;
        byte[] der = new SubjectPublicKeyInfo(new AlgorithmIdentifier(Oids.ID_ALG_XMSS_HASHSIG, DERNull.INSTANCE), key)
                .getEncoded();
        CertificateFormatException e = assertThrows(CertificateFormatException.class, () -> PublicKeys.decode(der));
        assertTrue(e.getMessage().contains("NULL") && e.getMessage().contains("absent"), e.getMessage());
    }

    @Test
    void spki_privateUseOrUnknownTypeCode_unsupported() throws Exception {
        byte[] key = new byte[68];
        key[0] = (byte) 0xDD;
        key[1] = (byte) 0xDE;
        key[2] = 0x0A;
        key[3] = 0x02;
        byte[] der = new SubjectPublicKeyInfo(new AlgorithmIdentifier(Oids.ID_ALG_XMSSMT_HASHSIG), key).getEncoded();
        UnsupportedAlgorithmException e =
                assertThrows(UnsupportedAlgorithmException.class, () -> PublicKeys.decode(der));
        assertTrue(
                e.getMessage().contains("private-use") && e.getMessage().contains("XMSS-SHA2_10_256"), e.getMessage());
        key[0] = 0;
        key[1] = 0;
        key[2] = 0;
        key[3] = 0x7f;
        byte[] der2 = new SubjectPublicKeyInfo(new AlgorithmIdentifier(Oids.ID_ALG_XMSSMT_HASHSIG), key).getEncoded();
        UnsupportedAlgorithmException e2 =
                assertThrows(UnsupportedAlgorithmException.class, () -> PublicKeys.decode(der2));
        assertTrue(e2.getMessage().contains("0x0000007f"), e2.getMessage());
    }

    @Test
    void spki_haetaeRawOrWrapped_bothRead_wrappedWritten() throws Exception {
        PqPublicKey k = PqPublicKey.of(HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_3, new SecureRandom())
                .publicKey());
        byte[] wrapped = PublicKeys.encode(k);
        assertEquals(
                0x04,
                SubjectPublicKeyInfo.getInstance(wrapped).getPublicKeyData().getOctets()[0],
                "BouncyCastle's OCTET STRING wrapper");
        byte[] raw = new SubjectPublicKeyInfo(new AlgorithmIdentifier(Oids.HAETAE_3), k.rawEncoding()).getEncoded();
        assertEquals(k, PublicKeys.decode(wrapped));
        assertEquals(k, PublicKeys.decode(raw));
        byte[] trailing = Arrays.copyOf(wrapped, wrapped.length + 1);
        assertThrows(CertificateFormatException.class, () -> PublicKeys.decode(trailing));
    }

    @Test
    void certificateWithMalformedSubjectKey_readsButChainSaysMalformedKey(@TempDir Path dir) throws Exception {
        try (TestCa root = TestCa.create(dir, "root", XmssParameterSet.XMSSMT_SHA2_20_4_256)) {
            PqCertificate rootCert = Certificates.selfSigned(root.signer, "CN=r", 2);
            SubjectPublicKeyInfo bad = new SubjectPublicKeyInfo(new AlgorithmIdentifier(Oids.HAETAE_2), new byte[10]);
            PqCertificate leaf = ChainVerifierTest.custom(root.signer, new X500Name("CN=r"), "CN=bad", bad, b -> {});
            assertThrows(CertificateFormatException.class, leaf::publicKey);
            ChainVerificationResult r = CertificateChainVerifier.verify(leaf, rootCert, Instant.now());
            assertEquals(Reason.MALFORMED_KEY, r.reason(), r.toString());
        }
    }

    /** A CA certificate whose pathLenConstraint is {@code pathLen}, with a signature that is just bytes. */
    static byte[] caWithPathLength(BigInteger pathLen) throws Exception {
        SubjectPublicKeyInfo spki = PublicKeys.toSubjectPublicKeyInfo(
                PqPublicKey.of(HaetaeKeyPairGenerator.fromSeed(HaetaeParameterSet.HAETAE_2, new byte[32])
                        .publicKey()));
        X509v3CertificateBuilder b = new X509v3CertificateBuilder(
                new X500Name("CN=ca"),
                BigInteger.ONE,
                Date.from(Instant.parse("2026-01-01T00:00:00Z")),
                Date.from(Instant.parse("2027-01-01T00:00:00Z")),
                new X500Name("CN=ca"),
                spki);
        b.addExtension(Extension.basicConstraints, true, new DERSequence(new ASN1Encodable[] {
            ASN1Boolean.TRUE, new ASN1Integer(pathLen)
        }));
        ContentSigner fixed = new ContentSigner() {
            private final ByteArrayOutputStream ignored = new ByteArrayOutputStream();

            @Override
            public AlgorithmIdentifier getAlgorithmIdentifier() {
                return new AlgorithmIdentifier(Oids.HAETAE_2);
            }

            @Override
            public OutputStream getOutputStream() {
                return ignored;
            }

            @Override
            public byte[] getSignature() {
                return new byte[] {1, 2, 3};
            }
        };
        return b.build(fixed).getEncoded();
    }

    /** Found while writing CertificateFuzzTest: describe() (pqsign inspect) threw ArithmeticException. */
    @ParameterizedTest
    @ValueSource(longs = {1L << 31, 1L << 40, -1})
    void pathLengthBeyondIntOrNegative_rejectedWhenRead(long pathLen) throws Exception {
        byte[] der = caWithPathLength(BigInteger.valueOf(pathLen));
        CertificateFormatException e = assertThrows(CertificateFormatException.class, () -> PqCertificate.fromDer(der));
        assertTrue(e.getMessage().contains("pathLenConstraint"), e.getMessage());
    }

    @Test
    void pathLengthLargestInt_readAndDescribed() throws Exception {
        PqCertificate c = PqCertificate.fromDer(caWithPathLength(BigInteger.valueOf(Integer.MAX_VALUE)));
        assertEquals(Integer.MAX_VALUE, c.pathLengthConstraint().orElseThrow());
        assertTrue(PublicKeys.describe(c).contains("path length " + Integer.MAX_VALUE));
    }

    /** Found by CertificateFuzzTest (-Pfuzz run): the END line began inside the BEGIN line's dashes. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "-----BEGIN PUBLIC KEY------END PUBLIC KEY-----\n",
                "-----BEGIN CERTIFICATE------END CERTIFICATE-----",
                "-----BEGIN X-----END X-----"
            })
    void pem_endLineOverlappingBeginLine_rejectedNotCrashed(String text) {
        CertificateFormatException e = assertThrows(CertificateFormatException.class, () -> Pem.readBlocks(text));
        assertTrue(e.getMessage().contains("END"), e.getMessage());
        assertThrows(CertificateFormatException.class, () -> Pem.readPublicKey(text));
        assertThrows(CertificateFormatException.class, () -> Pem.readCertificates(text));
    }

    @Test
    void pem_errors_areSpecific() throws Exception {
        String pem = Pem.write(PqCertificate.fromDer(example()));
        assertTrue(assertThrows(CertificateFormatException.class, () -> Pem.readCertificate("nothing here"))
                .getMessage()
                .contains("no PEM block"));
        String truncated = pem.substring(0, pem.indexOf("-----END"));
        assertTrue(assertThrows(CertificateFormatException.class, () -> Pem.readCertificate(truncated))
                .getMessage()
                .contains("no END line"));
        String mismatched = pem.replace("-----END CERTIFICATE-----", "-----END PUBLIC KEY-----");
        assertTrue(assertThrows(CertificateFormatException.class, () -> Pem.readCertificate(mismatched))
                .getMessage()
                .contains("ends with END"));
        String badBase64 = pem.replaceFirst("\n[A-Za-z0-9+/]", "\n*");
        assertTrue(assertThrows(CertificateFormatException.class, () -> Pem.readCertificate(badBase64))
                .getMessage()
                .contains("Base64"));
        String wrongLabel = pem.replace("CERTIFICATE", "PUBLIC KEY");
        assertTrue(assertThrows(CertificateFormatException.class, () -> Pem.readCertificate(wrongLabel))
                .getMessage()
                .contains("expected a PEM 'CERTIFICATE'"));
        assertEquals(2, Pem.readCertificates(pem + pem).size());
        assertThrows(CertificateFormatException.class, () -> Pem.readCertificate(pem + pem));
    }
}
