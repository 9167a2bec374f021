package dev.pqsign.x509;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeySplit;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.X509EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pqc.jcajce.provider.BouncyCastlePQCProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Certificates pqsign issues, checked by pqsign and by BouncyCastle 1.87. */
class CertificatesTest {
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();
    private static final BouncyCastlePQCProvider BCPQC = new BouncyCastlePQCProvider();

    @TempDir
    static Path dir;

    static TestCa root;
    static PqCertificate rootCert;

    @BeforeAll
    static void makeRoot() throws Exception {
        root = TestCa.create(dir, "root", XmssParameterSet.XMSSMT_SHA2_20_4_256);
        rootCert = Certificates.selfSigned(root.signer, "CN=pqsign test root,O=pqsign", 30);
    }

    static X509Certificate bcParse(PqCertificate c) throws Exception {
        return (X509Certificate)
                CertificateFactory.getInstance("X.509", BC).generateCertificate(new ByteArrayInputStream(c.encoded()));
    }

    @Test
    void selfSigned_xmssmtRoot_bouncyCastleParsesAndVerifies() throws Exception {
        X509Certificate x = bcParse(rootCert);
        assertEquals("1.3.6.1.5.5.7.6.35", x.getSigAlgOID());
        assertEquals(null, x.getSigAlgParams(), "parameters must be absent");
        x.verify(x.getPublicKey(), BC);
        assertArrayEquals(
                PublicKeys.encode(root.publicKey()),
                x.getPublicKey().getEncoded(),
                "BouncyCastle re-encodes our SubjectPublicKeyInfo identically");
        assertEquals(Integer.MAX_VALUE, x.getBasicConstraints());
        boolean[] ku = x.getKeyUsage();
        assertTrue(ku[5] && ku[6], "keyCertSign and cRLSign");
        assertFalse(ku[0] || ku[2] || ku[3] || ku[4], "no other usages");
        assertArrayEquals(
                rootCert.subjectKeyIdentifier().orElseThrow(),
                rootCert.authorityKeyIdentifier().orElseThrow());
        assertEquals(x.getSubjectX500Principal(), x.getIssuerX500Principal());
    }

    @Test
    void selfSigned_encodesAlgorithmIdentifiersWithoutParameters() throws Exception {
        byte[] expected = new AlgorithmIdentifier(Oids.ID_ALG_XMSSMT_HASHSIG).getEncoded();
        assertArrayEquals(
                new byte[] {0x30, 0x0a, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x06, 0x23}, expected);
        assertArrayEquals(expected, rootCert.holder().getSignatureAlgorithm().getEncoded());
        assertArrayEquals(
                expected,
                rootCert.holder().getSubjectPublicKeyInfo().getAlgorithm().getEncoded());
        assertArrayEquals(
                root.signer.publicKey().encoded(),
                rootCert.holder().getSubjectPublicKeyInfo().getPublicKeyData().getOctets(),
                "the BIT STRING is the bare RFC 8391 key");
    }

    @Test
    void issue_haetaeLeaf_bouncyCastleVerifiesSignatureAndReadsKey() throws Exception {
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
        long before = root.signer.nextIndex();
        PqCertificate leaf =
                Certificates.issue(root.signer, rootCert, kp.publicKey(), "CN=sensor-1,O=pqsign", 10, false);
        assertEquals(before + 1, root.signer.nextIndex(), "one certificate, one index");
        assertEquals(before, leaf.signatureIndex().orElseThrow());

        X509Certificate x = bcParse(leaf);
        x.verify(bcParse(rootCert).getPublicKey(), BC);
        assertEquals(-1, x.getBasicConstraints());
        PublicKey bcKey = KeyFactory.getInstance("HAETAE", BCPQC)
                .generatePublic(new X509EncodedKeySpec(
                        leaf.holder().getSubjectPublicKeyInfo().getEncoded()));
        assertEquals("HAETAE-2", bcKey.getAlgorithm());
        assertArrayEquals(leaf.holder().getSubjectPublicKeyInfo().getEncoded(), bcKey.getEncoded());
        assertEquals(kp.publicKey(), leaf.publicKey().haetae().orElseThrow());

        ChainVerificationResult r = CertificateChainVerifier.verify(leaf, rootCert, Instant.now());
        assertTrue(r.isValid(), r.toString());
    }

    @Test
    void issue_byHaetaeCa_bouncyCastleVerifiesHaetaeCertificateSignature() throws Exception {
        HaetaeKeyPair ca = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_3, new SecureRandom());
        HaetaeSigner signer = new HaetaeSigner(ca.privateKey());
        PqCertificate caCert = Certificates.selfSigned(
                signer,
                PqPublicKey.of(ca.publicKey()),
                CertificateTemplate.forDays("CN=HAETAE CA", 5, Clock.systemUTC())
                        .ca(true));
        HaetaeKeyPair leafKeys = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_5, new SecureRandom());
        PqCertificate leaf = Certificates.issue(signer, caCert, leafKeys.publicKey(), "CN=HAETAE leaf", 2, false);

        PublicKey bcCaKey = KeyFactory.getInstance("HAETAE", BCPQC)
                .generatePublic(new X509EncodedKeySpec(PublicKeys.encode(PqPublicKey.of(ca.publicKey()))));
        X509CertificateHolder h = new X509CertificateHolder(leaf.encoded());
        assertTrue(h.isSignatureValid(
                new JcaContentVerifierProviderBuilder().setProvider(BCPQC).build(bcCaKey)));
        assertTrue(new X509CertificateHolder(caCert.encoded())
                .isSignatureValid(new JcaContentVerifierProviderBuilder()
                        .setProvider(BCPQC)
                        .build(bcCaKey)));
        assertTrue(CertificateChainVerifier.verify(leaf, caCert, Instant.now()).isValid());
    }

    @Test
    void issue_xmssSubCa_chainOfThreeVerifies(@TempDir Path tmp) throws Exception {
        try (TestCa sub = TestCa.create(tmp, "sub", XmssParameterSet.XMSS_SHA2_10_256)) {
            PqCertificate subCert =
                    Certificates.issue(root.signer, rootCert, sub.signer.publicKey(), "CN=sub CA", 20, true);
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
            PqCertificate leaf = Certificates.issue(sub.signer, subCert, kp.publicKey(), "CN=sensor-2", 5, false);
            ChainVerificationResult r =
                    CertificateChainVerifier.verify(java.util.List.of(leaf, subCert), rootCert, Instant.now());
            assertTrue(r.isValid(), r.toString());
            bcParse(leaf).verify(bcParse(subCert).getPublicKey(), BC);
        }
    }

    @Test
    void selfSigned_privateUseSet_refusedNamingAlternative_noIndexBurned(@TempDir Path tmp) throws Exception {
        try (TestCa odd = TestCa.create(tmp, "odd", XmssParameterSet.XMSSMT_SHA2_10_2_256)) {
            UnsupportedAlgorithmException e = assertThrows(
                    UnsupportedAlgorithmException.class, () -> Certificates.selfSigned(odd.signer, "CN=odd", 1));
            assertTrue(e.getMessage().contains("XMSSMT-SHA2_10/2_256"), e.getMessage());
            assertTrue(e.getMessage().contains("XMSS-SHA2_10_256"), e.getMessage());
            assertEquals(0, odd.signer.nextIndex());
            UnsupportedAlgorithmException e2 = assertThrows(
                    UnsupportedAlgorithmException.class,
                    () -> Certificates.issue(root.signer, rootCert, odd.signer.publicKey(), "CN=odd leaf", 1, false));
            assertTrue(e2.getMessage().contains("private-use"), e2.getMessage());
        }
        assertEquals(
                XmssParameterSet.XMSSMT_SHA2_40_8_256,
                PublicKeys.registeredAlternative(XmssParameterSet.XMSSMT_SHA2_30_6_256));
    }

    @Test
    void issue_signerNotMatchingIssuerCertificate_refusedBeforeSigning(@TempDir Path tmp) throws Exception {
        try (TestCa other = TestCa.create(tmp, "other", XmssParameterSet.XMSSMT_SHA2_20_4_256)) {
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> Certificates.issue(other.signer, rootCert, kp.publicKey(), "CN=x", 1, false));
            assertTrue(e.getMessage().contains("not the public key"), e.getMessage());
            assertEquals(0, other.signer.nextIndex());
        }
    }

    @Test
    void issue_byNonCaOrWithEncipherment_refused() throws Exception {
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
        PqCertificate leaf = Certificates.issue(root.signer, rootCert, kp.publicKey(), "CN=leaf", 1, false);
        assertThrows(
                IllegalArgumentException.class,
                () -> Certificates.issue(new HaetaeSigner(kp.privateKey()), leaf, kp.publicKey(), "CN=y", 1, false));
        CertificateTemplate t = CertificateTemplate.forDays("CN=enc", 1, Clock.systemUTC())
                .keyUsage(EnumSet.of(KeyUsageBit.DIGITAL_SIGNATURE, KeyUsageBit.KEY_ENCIPHERMENT));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Certificates.issue(root.signer, rootCert, PqPublicKey.of(kp.publicKey()), t));
        assertTrue(e.getMessage().contains("KEY_ENCIPHERMENT"), e.getMessage());
        CertificateTemplate tooLong = CertificateTemplate.valid("CN=long", Duration.ofDays(400), Clock.systemUTC());
        assertThrows(
                IllegalArgumentException.class,
                () -> Certificates.issue(root.signer, rootCert, PqPublicKey.of(kp.publicKey()), tooLong));
    }

    @Test
    void pem_roundTrip_andDescribe() throws Exception {
        String pem = Pem.write(rootCert);
        assertTrue(pem.startsWith("-----BEGIN CERTIFICATE-----\n"));
        assertEquals(rootCert, Pem.readCertificate("some text before\n" + pem + "trailing text\n"));
        assertEquals(rootCert, PqCertificate.read(pem.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertEquals(rootCert, PqCertificate.read(rootCert.encoded()));
        String d = PublicKeys.describe(rootCert);
        assertTrue(d.contains("XMSSMT-SHA2_20/4_256"), d);
        assertTrue(d.contains("id-alg-xmssmt-hashsig"), d);
        assertTrue(d.contains("CA:                  yes"), d);
        assertTrue(d.contains("keyCertSign, cRLSign"), d);
        assertEquals("nonRepudiation", KeyUsageBit.NON_REPUDIATION.rfcName());
        assertEquals(rootCert.encoded().length, rootCert.toX509Certificate().getEncoded().length);
        assertEquals(
                XmssParameterSet.XMSSMT_SHA2_20_4_256,
                PublicKeys.verifierFor(rootCert).parameterSet());
    }

    @Test
    void issue_withExhaustedCaKey_throwsKeyExhausted_lastIndexStillUsable(@TempDir Path tmp) throws Exception {
        XmssPrivateKey key = XmssKeyGenerator.generate(XmssParameterSet.XMSS_SHA2_10_256);
        try (FileStateStore store = FileStateStore.open(tmp.resolve("last.state"))) {
            XmssStatefulSigner.create(store, key);
            keepOnlyLastIndex(store);
            try (XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
                PqCertificate ca = Certificates.selfSigned(signer, "CN=last index", 3);
                assertEquals(1023L, ca.signatureIndex().orElseThrow());
                HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
                KeyExhaustedException e = assertThrows(
                        KeyExhaustedException.class,
                        () -> Certificates.issue(signer, ca, kp.publicKey(), "CN=one too many", 1, false));
                assertTrue(e.getMessage().contains("exhausted"), e.getMessage());
            }
        }
    }

    /**
     * Leaves the key in {@code store} with only its last index, through the public API (nothing can set
     * an index): split off every other index into parts that are thrown away, keep the last part.
     */
    private static void keepOnlyLastIndex(FileStateStore store) throws IOException {
        int parts = Math.toIntExact(XmssParameterSet.XMSS_SHA2_10_256.maxSignatures());
        byte[][] last = new byte[1][];
        XmssKeySplit.split(store, parts, new XmssKeySplit.PartWriter() {
            @Override
            public void checkAbsent(int part) {}

            @Override
            public void create(int part, byte[] encodedState) {
                if (part == parts) {
                    last[0] = encodedState.clone();
                }
            }

            @Override
            public String describe(int part) {
                return "discarded part " + part;
            }
        });
        store.update(current -> last[0]);
    }
}
