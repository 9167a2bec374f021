package dev.pqsign.x509.jca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Security;
import java.security.Signature;
import java.security.SignatureException;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.jcajce.spec.XMSSMTParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.pqc.jcajce.provider.BouncyCastlePQCProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The "PQSign" provider used only through {@code java.security} (plus BouncyCastle for interop). */
class PqSignProviderTest {
    private static final byte[] MSG = "rpm=1480;t=2026-11-30T01:50:00Z".getBytes(StandardCharsets.UTF_8);

    @BeforeAll
    static void install() {
        Security.addProvider(new PqSignProvider());
        Security.addProvider(new BouncyCastleProvider());
        Security.addProvider(new BouncyCastlePQCProvider());
    }

    @ParameterizedTest
    @ValueSource(strings = {"HAETAE-2", "HAETAE-3", "HAETAE-5"})
    void haetae_generateSignVerify_pkcs8AndX509RoundTrip(String alg) throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance(alg, "PQSign").generateKeyPair();
        assertEquals(alg, kp.getPublic().getAlgorithm());
        assertEquals("X.509", kp.getPublic().getFormat());
        assertEquals("PKCS#8", kp.getPrivate().getFormat());

        Signature s = Signature.getInstance(alg, "PQSign");
        s.initSign(kp.getPrivate());
        s.update(MSG);
        byte[] sig = s.sign();

        KeyFactory kf = KeyFactory.getInstance(alg, "PQSign");
        PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        PrivateKey priv =
                kf.generatePrivate(new PKCS8EncodedKeySpec(kp.getPrivate().getEncoded()));
        assertEquals(kp.getPublic(), pub);
        assertArrayEquals(kp.getPrivate().getEncoded(), priv.getEncoded());

        Signature v = Signature.getInstance(alg, "PQSign");
        v.initVerify(pub);
        v.update(MSG);
        assertTrue(v.verify(sig));
        sig[sig.length / 2] ^= 1;
        v.update(MSG);
        assertFalse(v.verify(sig));
        v.update(MSG);
        assertFalse(v.verify(new byte[3]), "wrong length is just invalid");

        Signature any = Signature.getInstance("HAETAE", "PQSign");
        any.initSign(priv);
        any.update(MSG);
        byte[] sig2 = any.sign();
        any.initVerify(kp.getPublic());
        any.update(MSG);
        assertTrue(any.verify(sig2));
    }

    @Test
    void haetae_keysInterchangeWithBouncyCastle() throws Exception {
        KeyPair bc = KeyPairGenerator.getInstance("HAETAE-3", "BCPQC").generateKeyPair();
        KeyFactory kf = KeyFactory.getInstance("HAETAE", "PQSign");
        PublicKey pub = kf.generatePublic(new X509EncodedKeySpec(bc.getPublic().getEncoded()));
        PrivateKey priv =
                kf.generatePrivate(new PKCS8EncodedKeySpec(bc.getPrivate().getEncoded()));
        assertArrayEquals(bc.getPublic().getEncoded(), pub.getEncoded(), "same SubjectPublicKeyInfo bytes");
        assertArrayEquals(bc.getPrivate().getEncoded(), priv.getEncoded(), "same PKCS#8 bytes");
        KeyFactory bcKf = KeyFactory.getInstance("HAETAE", "BCPQC");
        assertEquals(bc.getPrivate(), bcKf.generatePrivate(new PKCS8EncodedKeySpec(priv.getEncoded())));

        Signature s = Signature.getInstance("HAETAE-3", "PQSign");
        s.initSign(bc.getPrivate()); // BouncyCastle's key object, translated through PKCS#8
        s.update(MSG);
        byte[] sig = s.sign();
        s.initVerify(bc.getPublic());
        s.update(MSG);
        assertTrue(s.verify(sig));
    }

    @Test
    void haetae_wrongSetKey_rejected() throws Exception {
        KeyPair kp = KeyPairGenerator.getInstance("HAETAE-2", "PQSign").generateKeyPair();
        Signature s = Signature.getInstance("HAETAE-5", "PQSign");
        InvalidKeyException e = assertThrows(InvalidKeyException.class, () -> s.initVerify(kp.getPublic()));
        assertTrue(e.getMessage().contains("HAETAE-2"), e.getMessage());
        assertThrows(
                InvalidKeySpecException.class,
                () -> KeyFactory.getInstance("HAETAE-5", "PQSign")
                        .generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded())));
    }

    @Test
    void xmssmt_verifiesBouncyCastleSignature_viaKeyFactoryAndOidAlias() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("XMSSMT", "BC");
        g.initialize(new XMSSMTParameterSpec(20, 4, XMSSMTParameterSpec.SHA256));
        KeyPair bc = g.generateKeyPair();
        Signature bcSig = Signature.getInstance("XMSSMT", "BC");
        bcSig.initSign(bc.getPrivate());
        bcSig.update(MSG);
        byte[] sig = bcSig.sign();

        PublicKey pub = KeyFactory.getInstance("XMSSMT", "PQSign")
                .generatePublic(new X509EncodedKeySpec(bc.getPublic().getEncoded()));
        assertEquals("XMSSMT", pub.getAlgorithm());
        assertArrayEquals(bc.getPublic().getEncoded(), pub.getEncoded());
        Signature v = Signature.getInstance("1.3.6.1.5.5.7.6.35", "PQSign");
        v.initVerify(pub);
        v.update(MSG);
        assertTrue(v.verify(sig));
        v.initVerify(bc.getPublic()); // BouncyCastle's key object directly
        v.update("other".getBytes(StandardCharsets.UTF_8));
        assertFalse(v.verify(sig));
    }

    @Test
    void xmssmt_signOnlyThroughStatefulKey_burnsIndex_noExport(@TempDir Path dir) throws Exception {
        XmssPrivateKey key = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_20_4_256);
        try (FileStateStore store = FileStateStore.open(dir.resolve("k.state"))) {
            XmssStatefulSigner.create(store, key);
            key.destroy();
            try (XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
                XmssStatefulPrivateKey priv = new XmssStatefulPrivateKey(signer);
                assertNull(priv.getEncoded());
                assertNull(priv.getFormat());
                assertThrows(
                        NotSerializableException.class,
                        () -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(priv));

                Signature s = Signature.getInstance("XMSSMT", "PQSign");
                s.initSign(priv);
                s.update(MSG);
                byte[] sig = s.sign();
                assertEquals(1, signer.nextIndex());
                s.update(MSG);
                s.sign();
                assertEquals(2, signer.nextIndex());

                Signature bcV = Signature.getInstance("XMSSMT", "BC");
                bcV.initVerify(KeyFactory.getInstance("XMSSMT", "BC")
                        .generatePublic(new X509EncodedKeySpec(priv.publicKey().getEncoded())));
                bcV.update(MSG);
                assertTrue(bcV.verify(sig), "BouncyCastle verifies a PQSign XMSS^MT signature");

                KeyFactory kf = KeyFactory.getInstance("XMSSMT", "PQSign");
                InvalidKeySpecException e = assertThrows(
                        InvalidKeySpecException.class,
                        () -> kf.generatePrivate(new PKCS8EncodedKeySpec(new byte[] {0x30, 0})));
                assertTrue(e.getMessage().contains("SP 800-208"), e.getMessage());
                assertThrows(InvalidKeySpecException.class, () -> kf.getKeySpec(priv, PKCS8EncodedKeySpec.class));

                KeyPairGenerator bcGen = KeyPairGenerator.getInstance("XMSSMT", "BC");
                bcGen.initialize(new XMSSMTParameterSpec(20, 4, XMSSMTParameterSpec.SHA256));
                KeyPair bcKeys = bcGen.generateKeyPair();
                InvalidKeyException e2 = assertThrows(InvalidKeyException.class, () -> s.initSign(bcKeys.getPrivate()));
                assertTrue(e2.getMessage().contains("XmssStatefulPrivateKey"), e2.getMessage());
                assertThrows(
                        InvalidKeyException.class,
                        () -> Signature.getInstance("XMSS", "PQSign").initSign(priv),
                        "family mismatch");
            }
            try (XmssStatefulSigner reopened = XmssStatefulSigner.open(store)) {
                assertEquals(2, reopened.nextIndex(), "indices used through the JCA are durable");
            }
        }
    }

    @Test
    void xmss_signingWithClosedSigner_signatureExceptionNamesCause(@TempDir Path dir) throws Exception {
        XmssPrivateKey key = XmssKeyGenerator.generate(XmssParameterSet.XMSS_SHA2_10_256);
        try (FileStateStore store = FileStateStore.open(dir.resolve("x.state"))) {
            XmssStatefulSigner.create(store, key);
            XmssStatefulSigner signer = XmssStatefulSigner.open(store);
            Signature s = Signature.getInstance("XMSS", "PQSign");
            s.initSign(new XmssStatefulPrivateKey(signer));
            signer.close();
            s.update(MSG);
            SignatureException e = assertThrows(SignatureException.class, s::sign);
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
    }

    @Test
    void keyPairGenerator_namedParameterSpec_andUninitialisedUse() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("HAETAE", "PQSign");
        g.initialize(new NamedParameterSpec("HAETAE-5"));
        assertEquals("HAETAE-5", g.generateKeyPair().getPublic().getAlgorithm());
        assertThrows(
                java.security.InvalidAlgorithmParameterException.class,
                () -> KeyPairGenerator.getInstance("HAETAE-2", "PQSign")
                        .initialize(new NamedParameterSpec("HAETAE-3")));
        Signature s = Signature.getInstance("HAETAE-2", "PQSign");
        assertThrows(SignatureException.class, () -> s.update(MSG));
    }

    @Test
    void jdkCertificateFactory_withProviderInstalled_readsRfc9802CertificateKey() throws Exception {
        byte[] pem;
        try (java.io.InputStream in = getClass().getResourceAsStream("/rfc9802/appendix-c-xmssmt.pem")) {
            pem = in.readAllBytes();
        }
        // With PQSign installed, the JDK's CertificateFactory asks our KeyFactory (by OID) for the key,
        // passing an encoding with NULL parameters; that must not make certificate parsing fail.
        java.security.cert.X509Certificate jdk =
                (java.security.cert.X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(new java.io.ByteArrayInputStream(pem));
        PublicKey key = jdk.getPublicKey();
        assertEquals("XMSSMT", key.getAlgorithm());
        assertEquals(0x03, key.getEncoded()[14], "our encoding: BIT STRING right after the OID, no NULL");
        Signature v = Signature.getInstance("XMSSMT", "PQSign");
        v.initVerify(key);
        v.update(jdk.getTBSCertificate());
        assertTrue(v.verify(jdk.getSignature()), "RFC 9802 appendix C verifies through the JDK's certificate object");

        byte[] withNull = org.bouncycastle.util.Arrays.concatenate(
                new byte[] {0x30, 0x55, 0x30, 0x0c},
                java.util.Arrays.copyOfRange(key.getEncoded(), 4, 14),
                new byte[] {0x05, 0x00},
                java.util.Arrays.copyOfRange(key.getEncoded(), 14, key.getEncoded().length));
        assertEquals(key, KeyFactory.getInstance("XMSSMT", "PQSign").generatePublic(new X509EncodedKeySpec(withNull)));
        assertThrows(
                dev.pqsign.x509.CertificateFormatException.class,
                () -> dev.pqsign.x509.PublicKeys.decode(withNull),
                "pqsign's own decoder stays strict");
    }
}
