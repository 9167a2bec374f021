package dev.pqsign.x509;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.lms.HssSignerOptions;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.ChainVerificationResult.Reason;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.crypto.params.LMOtsParameters;
import org.bouncycastle.crypto.params.LMSigParameters;
import org.bouncycastle.jcajce.spec.LMSHSSKeyGenParameterSpec;
import org.bouncycastle.jcajce.spec.LMSKeyGenParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RFC 9708 / RFC 9802 certificates with HSS / LMS keys: id-alg-hss-lms-hashsig, parameters absent,
 * the BIT STRING the raw HSS public key; signed by pqsign's HSS signer and checked by BouncyCastle
 * 1.87, and BouncyCastle's HSS certificates checked by pqsign.
 */
class HssCertificatesTest {
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();
    private static final HssParameterSet ROOT_SET = HssParameterSet.byName(
                    "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8")
            .orElseThrow();

    @TempDir
    static Path dir;

    static FileStateStore store;
    static HssStatefulSigner root;
    static PqCertificate rootCert;

    @BeforeAll
    static void makeRoot() throws Exception {
        HssPrivateKey key = HssKeyGenerator.generate(ROOT_SET, new SecureRandom(), 2, null);
        store = FileStateStore.open(dir.resolve("hss-root.state"));
        HssStatefulSigner.create(store, key);
        key.destroy();
        root = HssStatefulSigner.open(store, HssSignerOptions.defaults().withThreads(2));
        rootCert = Certificates.selfSigned(
                root,
                PqPublicKey.of(root.publicKey()),
                CertificateTemplate.forDays("CN=pqsign HSS root", 30, java.time.Clock.systemUTC())
                        .ca(true));
    }

    @AfterAll
    static void close() {
        root.close();
        store.close();
    }

    static X509Certificate bcParse(PqCertificate c) throws Exception {
        return (X509Certificate)
                CertificateFactory.getInstance("X.509", BC).generateCertificate(new ByteArrayInputStream(c.encoded()));
    }

    @Test
    void selfSignedHssRoot_hasRfc9708Encodings_andBouncyCastleVerifiesIt() throws Exception {
        assertEquals(Oids.ID_ALG_HSS_LMS_HASHSIG, rootCert.signatureAlgorithmOid());
        assertEquals(
                "1.2.840.113549.1.9.16.3.17", rootCert.signatureAlgorithmOid().getId());
        SubjectPublicKeyInfo spki = rootCert.holder().getSubjectPublicKeyInfo();
        assertNull(spki.getAlgorithm().getParameters(), "parameters must be absent");
        assertNull(rootCert.holder().getSignatureAlgorithm().getParameters());
        assertArrayEquals(root.publicKey().encoded(), spki.getPublicKeyData().getOctets(), "the bare HSS key");
        X509Certificate x = bcParse(rootCert);
        assertNull(x.getSigAlgParams());
        x.verify(x.getPublicKey(), BC);
        assertArrayEquals(
                PublicKeys.encode(PqPublicKey.of(root.publicKey())),
                x.getPublicKey().getEncoded());
        assertEquals(ROOT_SET.signatureBytes(), rootCert.signature().length);
        assertTrue(rootCert.signatureIndex().isPresent());
        assertTrue(PublicKeys.describe(rootCert).contains("id-alg-hss-lms-hashsig"), PublicKeys.describe(rootCert));
    }

    @Test
    void hssRootIssuesXmssLeafAndHssSubCa_chainVerifies_andBouncyCastleVerifiesEverySignature() throws Exception {
        HssParameterSet subSet =
                HssParameterSet.byName("LMS_SHA256_M24_H5/LMOTS_SHA256_N24_W4").orElseThrow();
        HssPrivateKey subKey = HssKeyGenerator.generate(subSet, new SecureRandom(), 2, null);
        try (FileStateStore subStore = FileStateStore.open(dir.resolve("hss-sub.state"))) {
            HssStatefulSigner.create(subStore, subKey);
            try (HssStatefulSigner sub = HssStatefulSigner.open(subStore)) {
                long before = root.nextIndex();
                PqCertificate subCert =
                        Certificates.issue(root, rootCert, PqPublicKey.of(sub.publicKey()), "CN=hss sub CA", 20, true);
                assertEquals(before, subCert.signatureIndex().orElseThrow(), "the index the root used");
                try (TestCa leafKey = TestCa.create(dir, "xmss-leaf", XmssParameterSet.XMSS_SHA2_10_256)) {
                    PqCertificate leaf =
                            Certificates.issue(sub, subCert, leafKey.publicKey(), "CN=sensor-1", 10, false);
                    ChainVerificationResult r =
                            CertificateChainVerifier.verify(List.of(leaf, subCert), rootCert, Instant.now());
                    assertTrue(r.isValid(), r.toString());
                    X509Certificate bcRoot = bcParse(rootCert);
                    X509Certificate bcSub = bcParse(subCert);
                    bcSub.verify(bcRoot.getPublicKey(), BC);
                    bcParse(leaf).verify(bcSub.getPublicKey(), BC);
                }
            }
        }
    }

    @Test
    void certificateSignedByHss_withOneChangedByte_failsChainVerification() throws Exception {
        PqCertificate leafish = Certificates.issue(
                root, rootCert, PqPublicKey.of(root.publicKey()), "CN=same key other name", 5, false);
        byte[] der = leafish.encoded();
        der[der.length - 10] ^= 1; // inside the signature value
        PqCertificate bad = PqCertificate.fromDer(der);
        ChainVerificationResult r = CertificateChainVerifier.verify(List.of(bad), rootCert, Instant.now());
        assertFalse(r.isValid());
        assertEquals(Reason.BAD_SIGNATURE, r.reason());
    }

    @Test
    void bouncyCastleHssCa_issuingAnHssLeaf_verifiesWithPqsign() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("LMS", BC);
        g.initialize(new LMSHSSKeyGenParameterSpec(
                new LMSKeyGenParameterSpec(LMSigParameters.lms_sha256_n32_h5, LMOtsParameters.sha256_n32_w4),
                new LMSKeyGenParameterSpec(LMSigParameters.lms_sha256_n32_h5, LMOtsParameters.sha256_n32_w2)));
        KeyPair ca = g.generateKeyPair();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        SubjectPublicKeyInfo caSpki =
                SubjectPublicKeyInfo.getInstance(ca.getPublic().getEncoded());
        X509CertificateHolder caHolder = bcCert("CN=bc hss ca", "CN=bc hss ca", caSpki, true, ca, now);
        assertTrue(caHolder.isSignatureValid(
                new JcaContentVerifierProviderBuilder().setProvider(BC).build(ca.getPublic())));
        PqCertificate caCert = PqCertificate.fromHolder(caHolder);
        assertTrue(caCert.publicKey().isHss());
        SubjectPublicKeyInfo leafSpki = PublicKeys.toSubjectPublicKeyInfo(PqPublicKey.of(root.publicKey()));
        PqCertificate leaf =
                PqCertificate.fromHolder(bcCert("CN=bc hss ca", "CN=pqsign hss leaf", leafSpki, false, ca, now));
        ChainVerificationResult r = CertificateChainVerifier.verify(List.of(leaf), caCert, Instant.now());
        assertTrue(r.isValid(), r.toString());
        assertEquals(PqPublicKey.of(root.publicKey()), leaf.publicKey());
    }

    private static X509CertificateHolder bcCert(
            String issuer, String subject, SubjectPublicKeyInfo spki, boolean ca, KeyPair signer, Instant now)
            throws Exception {
        X509v3CertificateBuilder b = new X509v3CertificateBuilder(
                new X500Name(issuer),
                BigInteger.valueOf(now.getEpochSecond()),
                Date.from(now.minusSeconds(60)),
                Date.from(now.plus(1, ChronoUnit.DAYS)),
                new X500Name(subject),
                spki);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        b.addExtension(
                Extension.keyUsage,
                true,
                new KeyUsage(ca ? KeyUsage.keyCertSign | KeyUsage.cRLSign : KeyUsage.digitalSignature));
        return b.build(new JcaContentSignerBuilder("LMS").setProvider(BC).build(signer.getPrivate()));
    }
}
