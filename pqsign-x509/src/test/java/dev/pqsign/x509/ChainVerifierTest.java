package dev.pqsign.x509;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.x509.ChainVerificationResult.Reason;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.function.Consumer;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every rejection reason of {@link CertificateChainVerifier}, each on an otherwise valid chain. */
class ChainVerifierTest {
    @SuppressWarnings("TimeInStaticInitializer") // one instant for every test of the class, on purpose
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    @TempDir
    static Path dir;

    static TestCa root;
    static PqCertificate rootCert;
    static HaetaeKeyPair sensorKeys;

    @BeforeAll
    static void setUp() throws Exception {
        root = TestCa.create(dir, "root", XmssParameterSet.XMSSMT_SHA2_20_4_256);
        rootCert = Certificates.selfSigned(root.signer, "CN=chain root", 30);
        sensorKeys = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
    }

    @AfterAll
    static void tearDown() {
        root.close();
    }

    /** A certificate built by BouncyCastle's builder around our signer, with caller-chosen content. */
    static PqCertificate custom(
            dev.pqsign.core.Signer signer,
            X500Name issuer,
            String subject,
            SubjectPublicKeyInfo spki,
            Consumer<X509v3CertificateBuilder> extensions) {
        X509v3CertificateBuilder b = new X509v3CertificateBuilder(
                issuer,
                BigInteger.TEN,
                Date.from(NOW.minusSeconds(60)),
                Date.from(NOW.plus(Duration.ofDays(1))),
                new X500Name(subject),
                spki);
        extensions.accept(b);
        return PqCertificate.fromHolder(b.build(new PqContentSigner(signer)));
    }

    static SubjectPublicKeyInfo sensorSpki() {
        return PublicKeys.toSubjectPublicKeyInfo(PqPublicKey.of(sensorKeys.publicKey()));
    }

    static void ext(
            X509v3CertificateBuilder b,
            ASN1ObjectIdentifier oid,
            boolean critical,
            org.bouncycastle.asn1.ASN1Encodable value) {
        try {
            b.addExtension(oid, critical, value);
        } catch (CertIOException e) {
            throw new IllegalStateException(e);
        }
    }

    static PqCertificate leaf(CertificateTemplate t) {
        return Certificates.issue(root.signer, rootCert, PqPublicKey.of(sensorKeys.publicKey()), t);
    }

    static Reason verify(PqCertificate leaf) {
        ChainVerificationResult r = CertificateChainVerifier.verify(leaf, rootCert, NOW);
        assertTrue(r.message().length() > 10, r::toString);
        return r.reason();
    }

    @Test
    void validLeaf_isValid() {
        assertEquals(Reason.VALID, verify(leaf(CertificateTemplate.forDays("CN=ok", 1, Clock.systemUTC()))));
    }

    @Test
    void expiredLeaf_expired() {
        assertEquals(
                Reason.EXPIRED,
                verify(leaf(CertificateTemplate.of(
                        "CN=old", NOW.minus(Duration.ofDays(10)), NOW.minus(Duration.ofDays(1))))));
    }

    @Test
    void futureLeaf_notYetValid() {
        assertEquals(
                Reason.NOT_YET_VALID,
                verify(leaf(CertificateTemplate.of(
                        "CN=future", NOW.plus(Duration.ofDays(1)), NOW.plus(Duration.ofDays(2))))));
    }

    @Test
    void validityBoundsAreInclusive() {
        PqCertificate c = leaf(CertificateTemplate.of("CN=edge", NOW.minusSeconds(5), NOW.plusSeconds(5)));
        assertEquals(
                Reason.VALID,
                CertificateChainVerifier.verify(c, rootCert, c.notAfter()).reason());
        assertEquals(
                Reason.VALID,
                CertificateChainVerifier.verify(c, rootCert, c.notBefore()).reason());
        assertEquals(
                Reason.EXPIRED,
                CertificateChainVerifier.verify(c, rootCert, c.notAfter().plusSeconds(1))
                        .reason());
    }

    @Test
    void leafOfOtherRoot_issuerMismatch(@TempDir Path tmp) throws Exception {
        try (TestCa other = TestCa.create(tmp, "other", XmssParameterSet.XMSSMT_SHA2_20_4_256)) {
            PqCertificate otherRoot = Certificates.selfSigned(other.signer, "CN=other root", 5);
            PqCertificate otherLeaf =
                    Certificates.issue(other.signer, otherRoot, sensorKeys.publicKey(), "CN=x", 1, false);
            assertEquals(Reason.ISSUER_MISMATCH, verify(otherLeaf));
            // Same name as our root, different key: the authority key identifier gives it away.
            PqCertificate impostor = Certificates.selfSigned(other.signer, "CN=chain root", 5);
            PqCertificate impostorLeaf =
                    Certificates.issue(other.signer, impostor, sensorKeys.publicKey(), "CN=y", 1, false);
            assertEquals(Reason.ISSUER_MISMATCH, verify(impostorLeaf));
            // Without key identifiers only the signature can tell.
            PqCertificate noAki = custom(other.signer, new X500Name("CN=chain root"), "CN=z", sensorSpki(), b -> {});
            assertEquals(Reason.BAD_SIGNATURE, verify(noAki));
        }
    }

    @Test
    void endEntityIssuingCertificates_notACa() {
        PqCertificate sensor = leaf(CertificateTemplate.forDays("CN=sensor", 1, Clock.systemUTC()));
        HaetaeKeyPair grandchildKeys = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
        PqCertificate grandchild = custom(
                new HaetaeSigner(sensorKeys.privateKey()),
                new X500Name("CN=sensor"),
                "CN=gc",
                PublicKeys.toSubjectPublicKeyInfo(PqPublicKey.of(grandchildKeys.publicKey())),
                b -> {});
        ChainVerificationResult r = CertificateChainVerifier.verify(List.of(grandchild, sensor), rootCert, NOW);
        assertEquals(Reason.NOT_A_CA, r.reason(), r.toString());
    }

    @Test
    void keyEnciphermentOrNoSigningUsage_keyUsage() {
        PqCertificate enc = custom(
                root.signer,
                new X500Name("CN=chain root"),
                "CN=enc",
                sensorSpki(),
                b -> ext(
                        b,
                        Extension.keyUsage,
                        true,
                        new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment)));
        assertEquals(Reason.KEY_USAGE, verify(enc));
        PqCertificate crlOnly = custom(
                root.signer,
                new X500Name("CN=chain root"),
                "CN=crl",
                sensorSpki(),
                b -> ext(b, Extension.keyUsage, true, new KeyUsage(KeyUsage.cRLSign)));
        assertEquals(Reason.KEY_USAGE, verify(crlOnly));
        PqCertificate certSignNoCa = custom(
                root.signer,
                new X500Name("CN=chain root"),
                "CN=cs",
                sensorSpki(),
                b -> ext(b, Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.digitalSignature)));
        assertEquals(Reason.KEY_USAGE, verify(certSignNoCa));
    }

    @Test
    void caWithoutKeyCertSign_keyUsage(@TempDir Path tmp) throws Exception {
        try (TestCa sub = TestCa.create(tmp, "sub", XmssParameterSet.XMSS_SHA2_10_256)) {
            SubjectPublicKeyInfo subSpki = PublicKeys.toSubjectPublicKeyInfo(sub.publicKey());
            PqCertificate subCert = custom(root.signer, new X500Name("CN=chain root"), "CN=sub", subSpki, b -> {
                ext(b, Extension.basicConstraints, true, new BasicConstraints(true));
                ext(b, Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            });
            PqCertificate leaf = custom(sub.signer, new X500Name("CN=sub"), "CN=leaf", sensorSpki(), b -> {});
            ChainVerificationResult r = CertificateChainVerifier.verify(List.of(leaf, subCert), rootCert, NOW);
            assertEquals(Reason.KEY_USAGE, r.reason(), r.toString());
        }
    }

    @Test
    void pathLengthZero_forbidsSubCa(@TempDir Path tmp) throws Exception {
        try (TestCa r0 = TestCa.create(tmp, "r0", XmssParameterSet.XMSSMT_SHA2_20_4_256);
                TestCa sub = TestCa.create(tmp, "sub", XmssParameterSet.XMSS_SHA2_10_256)) {
            PqCertificate r0Cert = Certificates.selfSigned(
                    r0.signer,
                    r0.publicKey(),
                    CertificateTemplate.forDays("CN=r0", 10, Clock.systemUTC())
                            .ca(true)
                            .pathLength(0));
            PqCertificate subCert = Certificates.issue(r0.signer, r0Cert, sub.signer.publicKey(), "CN=sub", 5, true);
            PqCertificate leaf = Certificates.issue(sub.signer, subCert, sensorKeys.publicKey(), "CN=leaf", 1, false);
            assertEquals(
                    Reason.PATH_LENGTH,
                    CertificateChainVerifier.verify(List.of(leaf, subCert), r0Cert, NOW)
                            .reason());
            PqCertificate direct = Certificates.issue(r0.signer, r0Cert, sensorKeys.publicKey(), "CN=direct", 1, false);
            assertEquals(
                    Reason.VALID,
                    CertificateChainVerifier.verify(direct, r0Cert, NOW).reason());
        }
    }

    @Test
    void ecKeyLeafOrEcdsaRoot_unknownAlgorithm() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        KeyPair ec = g.generateKeyPair();
        PqCertificate ecLeaf = custom(
                root.signer,
                new X500Name("CN=chain root"),
                "CN=ec",
                SubjectPublicKeyInfo.getInstance(ec.getPublic().getEncoded()),
                b -> {});
        assertEquals(Reason.UNKNOWN_ALGORITHM, verify(ecLeaf));

        PqCertificate ecRoot = BouncyCastleIssuedTest.bcCert(
                "CN=ec root",
                "CN=ec root",
                SubjectPublicKeyInfo.getInstance(ec.getPublic().getEncoded()),
                true,
                ec.getPrivate(),
                "SHA256withECDSA",
                new BouncyCastleProvider());
        ChainVerificationResult r = CertificateChainVerifier.verify(ecRoot, ecRoot, NOW);
        assertEquals(Reason.UNKNOWN_ALGORITHM, r.reason(), r.toString());
        assertTrue(r.message().contains("1.2.840.10045.4.3.2"), r.message());
    }

    @Test
    void unknownCriticalExtension_rejected() {
        PqCertificate c = custom(
                root.signer,
                new X500Name("CN=chain root"),
                "CN=crit",
                sensorSpki(),
                b -> ext(b, new ASN1ObjectIdentifier("1.3.6.1.4.1.99999.1"), true, new DEROctetString(new byte[] {1})));
        assertEquals(Reason.UNKNOWN_CRITICAL_EXTENSION, verify(c));
        PqCertificate nonCritical = custom(
                root.signer,
                new X500Name("CN=chain root"),
                "CN=nc",
                sensorSpki(),
                b -> ext(
                        b, new ASN1ObjectIdentifier("1.3.6.1.4.1.99999.1"), false, new DEROctetString(new byte[] {1})));
        assertEquals(Reason.VALID, verify(nonCritical));
    }

    @Test
    void nullParametersOrOuterAlgorithmSwapped_algorithmMismatch() {
        ContentSigner withNull = new ContentSigner() {
            final PqContentSigner inner = new PqContentSigner(root.signer);

            @Override
            public AlgorithmIdentifier getAlgorithmIdentifier() {
                return new AlgorithmIdentifier(Oids.ID_ALG_XMSSMT_HASHSIG, DERNull.INSTANCE);
            }

            @Override
            public OutputStream getOutputStream() {
                return inner.getOutputStream();
            }

            @Override
            public byte[] getSignature() {
                return inner.getSignature();
            }
        };
        X509v3CertificateBuilder b = new X509v3CertificateBuilder(
                new X500Name("CN=chain root"),
                BigInteger.ONE,
                Date.from(NOW.minusSeconds(60)),
                Date.from(NOW.plusSeconds(3600)),
                new X500Name("CN=null"),
                sensorSpki());
        PqCertificate nullParams = PqCertificate.fromHolder(b.build(withNull));
        ChainVerificationResult r = CertificateChainVerifier.verify(nullParams, rootCert, NOW);
        assertEquals(Reason.ALGORITHM_MISMATCH, r.reason(), r.toString());
        assertTrue(r.message().contains("absent"), r.message());

        PqCertificate good = leaf(CertificateTemplate.forDays("CN=swap", 1, Clock.systemUTC()));
        ASN1EncodableVector v = new ASN1EncodableVector();
        v.add(good.holder().toASN1Structure().getTBSCertificate());
        v.add(new AlgorithmIdentifier(Oids.ID_ALG_XMSS_HASHSIG));
        v.add(new DERBitString(good.signature()));
        PqCertificate swapped;
        try {
            swapped = PqCertificate.fromDer(new DERSequence(v).getEncoded());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        assertEquals(Reason.ALGORITHM_MISMATCH, verify(swapped));
    }

    @Test
    void signatureAlgorithmNotMatchingIssuerKey_algorithmMismatch() {
        // Signed by a HAETAE key but presented under the XMSS^MT root: the OID gives it away first.
        PqCertificate c = custom(
                new HaetaeSigner(sensorKeys.privateKey()),
                new X500Name("CN=chain root"),
                "CN=h",
                sensorSpki(),
                b -> {});
        assertEquals(Reason.ALGORITHM_MISMATCH, verify(c));
    }

    @Test
    void trustedRootNotSelfSigned_rejected() {
        PqCertificate leafAsRoot = leaf(CertificateTemplate.forDays("CN=not a root", 1, Clock.systemUTC()));
        assertEquals(
                Reason.ROOT_NOT_SELF_SIGNED,
                CertificateChainVerifier.verify(leafAsRoot, leafAsRoot, NOW).reason());
    }
}
