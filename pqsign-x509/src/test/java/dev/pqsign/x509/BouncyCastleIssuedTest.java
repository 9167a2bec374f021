package dev.pqsign.x509;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.x509.ChainVerificationResult.Reason;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.jcajce.spec.XMSSMTParameterSpec;
import org.bouncycastle.jcajce.spec.XMSSParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pqc.jcajce.provider.BouncyCastlePQCProvider;
import org.bouncycastle.pqc.jcajce.spec.HaetaeParameterSpec;
import org.junit.jupiter.api.Test;

/**
 * Certificates made and signed by BouncyCastle 1.87 (its XMSS / XMSS^MT keys use the RFC 8391 WOTS+
 * derivation; verification does not depend on it) verify with pqsign.
 */
class BouncyCastleIssuedTest {
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();
    private static final BouncyCastlePQCProvider BCPQC = new BouncyCastlePQCProvider();

    static PqCertificate bcCert(
            String issuer,
            String subject,
            SubjectPublicKeyInfo spki,
            boolean ca,
            PrivateKey key,
            String alg,
            java.security.Provider provider)
            throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
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
        if (alg.startsWith("HAETAE")) {
            // BouncyCastle's JcaContentSignerBuilder has no name-to-OID entry for HAETAE; its JCA
            // Signature does the signing, with the OID its own key encoding uses.
            return PqCertificate.fromHolder(b.build(jcaSigner(alg, key, provider)));
        }
        return PqCertificate.fromHolder(
                b.build(new JcaContentSignerBuilder(alg).setProvider(provider).build(key)));
    }

    static ContentSigner jcaSigner(String alg, PrivateKey key, java.security.Provider provider) throws Exception {
        Signature s = Signature.getInstance(alg, provider);
        s.initSign(key);
        AlgorithmIdentifier id = PrivateKeyInfo.getInstance(key.getEncoded()).getPrivateKeyAlgorithm();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        return new ContentSigner() {
            @Override
            public AlgorithmIdentifier getAlgorithmIdentifier() {
                return id;
            }

            @Override
            public OutputStream getOutputStream() {
                return buf;
            }

            @Override
            public byte[] getSignature() {
                try {
                    s.update(buf.toByteArray());
                    return s.sign();
                } catch (java.security.SignatureException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    static SubjectPublicKeyInfo spki(PublicKey k) {
        return SubjectPublicKeyInfo.getInstance(k.getEncoded());
    }

    @Test
    void bouncyCastleXmssmtRoot_issuingOurHaetaeAndXmssKeys_verifies() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("XMSSMT", BC);
        g.initialize(new XMSSMTParameterSpec(20, 4, XMSSMTParameterSpec.SHA256), new SecureRandom());
        KeyPair ca = g.generateKeyPair();
        PqCertificate root =
                bcCert("CN=BC root", "CN=BC root", spki(ca.getPublic()), true, ca.getPrivate(), "XMSSMT", BC);
        assertEquals(XmssParameterSet.XMSSMT_SHA2_20_4_256, root.publicKey().parameterSet());

        HaetaeKeyPair ours = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_5, new SecureRandom());
        PqCertificate leaf = bcCert(
                "CN=BC root",
                "CN=our sensor",
                PublicKeys.toSubjectPublicKeyInfo(PqPublicKey.of(ours.publicKey())),
                false,
                ca.getPrivate(),
                "XMSSMT",
                BC);
        ChainVerificationResult r = CertificateChainVerifier.verify(leaf, root, Instant.now());
        assertTrue(r.isValid(), r.toString());
        assertEquals(ours.publicKey(), leaf.publicKey().haetae().orElseThrow());
        assertEquals(1L, leaf.signatureIndex().orElseThrow(), "BouncyCastle's second signature uses index 1");
    }

    @Test
    void bouncyCastleXmssRoot_verifies() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("XMSS", BC);
        g.initialize(new XMSSParameterSpec(10, XMSSParameterSpec.SHA256), new SecureRandom());
        KeyPair ca = g.generateKeyPair();
        PqCertificate root =
                bcCert("CN=BC XMSS root", "CN=BC XMSS root", spki(ca.getPublic()), true, ca.getPrivate(), "XMSS", BC);
        assertEquals(XmssParameterSet.XMSS_SHA2_10_256, root.publicKey().parameterSet());
        assertEquals("1.3.6.1.5.5.7.6.34", root.signatureAlgorithmOid().getId());
        ChainVerificationResult r = CertificateChainVerifier.verify(root, root, Instant.now());
        assertTrue(r.isValid(), r.toString());
    }

    @Test
    void bouncyCastleHaetaeCa_verifies_andTamperedFails() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("HAETAE", BCPQC);
        g.initialize(HaetaeParameterSpec.haetae3, new SecureRandom());
        KeyPair ca = g.generateKeyPair();
        PqCertificate root =
                bcCert("CN=BC HAETAE", "CN=BC HAETAE", spki(ca.getPublic()), true, ca.getPrivate(), "HAETAE-3", BCPQC);
        HaetaeKeyPair ours = HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom());
        PqCertificate leaf = bcCert(
                "CN=BC HAETAE",
                "CN=leaf",
                PublicKeys.toSubjectPublicKeyInfo(PqPublicKey.of(ours.publicKey())),
                false,
                ca.getPrivate(),
                "HAETAE-3",
                BCPQC);
        ChainVerificationResult r = CertificateChainVerifier.verify(leaf, root, Instant.now());
        assertTrue(r.isValid(), r.toString());
        byte[] der = leaf.encoded();
        der[der.length - 200] ^= 0x10;
        assertEquals(
                Reason.BAD_SIGNATURE,
                CertificateChainVerifier.verify(PqCertificate.fromDer(der), root, Instant.now())
                        .reason());
    }
}
