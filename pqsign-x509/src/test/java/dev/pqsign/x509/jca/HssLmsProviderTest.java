package dev.pqsign.x509.jca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import org.bouncycastle.crypto.params.LMOtsParameters;
import org.bouncycastle.crypto.params.LMSigParameters;
import org.bouncycastle.jcajce.spec.LMSKeyGenParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * "HSS/LMS" in the PQSign provider, named as the JDK names it: KeyFactory for X.509 public keys,
 * Signature that signs through an {@link HssStatefulPrivateKey} and verifies any HSS key; its
 * signatures verify with BouncyCastle's "LMS" and (Java 21+) the JDK's own "HSS/LMS".
 */
class HssLmsProviderTest {
    private static final byte[] MSG = "rpm=1480;t=2026-11-30T01:50:00Z".getBytes(StandardCharsets.UTF_8);
    private static final PqSignProvider PQ = new PqSignProvider();
    private static final BouncyCastleProvider BC = new BouncyCastleProvider();
    private static HssStatefulSigner signer;

    @BeforeAll
    static void key() {
        HssParameterSet set =
                HssParameterSet.byName("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8").orElseThrow();
        HssPrivateKey k = HssKeyGenerator.generate(set, new SecureRandom(), 2, null);
        signer = HssStatefulSigner.open(
                dev.pqsign.testing.MemoryStateStore.holding(HssKeyState.fresh(k).encode()));
    }

    @AfterAll
    static void close() {
        signer.close();
    }

    @Test
    void keyFactoryAndSignature_areRegisteredUnderTheJdkNameAndTheOid() throws Exception {
        byte[] spki = PublicKeys.encode(PqPublicKey.of(signer.publicKey()));
        for (String name : new String[] {"HSS/LMS", "1.2.840.113549.1.9.16.3.17", "OID.1.2.840.113549.1.9.16.3.17"}) {
            PublicKey pub = KeyFactory.getInstance(name, PQ).generatePublic(new X509EncodedKeySpec(spki));
            assertEquals("HSS/LMS", pub.getAlgorithm());
            assertEquals("X.509", pub.getFormat());
            assertArrayEquals(spki, pub.getEncoded());
            assertEquals(PQ, Signature.getInstance(name, PQ).getProvider());
        }
    }

    @Test
    void signThroughTheJca_verifiesWithPqsignBouncyCastleAndTheJdk() throws Exception {
        HssStatefulPrivateKey priv = new HssStatefulPrivateKey(signer);
        assertEquals("HSS/LMS", priv.getAlgorithm());
        assertNull(priv.getEncoded());
        Signature s = Signature.getInstance("HSS/LMS", PQ);
        s.initSign(priv);
        s.update(MSG);
        long before = signer.nextIndex();
        byte[] sig = s.sign();
        assertEquals(before + 1, signer.nextIndex(), "one index burned");

        Signature v = Signature.getInstance("HSS/LMS", PQ);
        v.initVerify(priv.publicKey());
        v.update(MSG);
        assertTrue(v.verify(sig));
        v.initVerify(priv.publicKey());
        v.update(MSG);
        byte[] bad = sig.clone();
        bad[20] ^= 1;
        assertFalse(v.verify(bad));

        byte[] spki = priv.publicKey().getEncoded();
        PublicKey bcPub = KeyFactory.getInstance("LMS", BC).generatePublic(new X509EncodedKeySpec(spki));
        Signature bc = Signature.getInstance("LMS", BC);
        bc.initVerify(bcPub);
        bc.update(MSG);
        assertTrue(bc.verify(sig), "BouncyCastle verifies the PQSign provider's signature");

        try {
            PublicKey jdkPub = KeyFactory.getInstance("HSS/LMS").generatePublic(new X509EncodedKeySpec(spki));
            // The PQSign provider is not installed here, so these are the JDK's own.
            Signature jdk = Signature.getInstance("HSS/LMS");
            jdk.initVerify(jdkPub);
            jdk.update(MSG);
            assertTrue(jdk.verify(sig), "the JDK's HSS/LMS verifies the PQSign provider's signature");
        } catch (NoSuchAlgorithmException e) {
            Assumptions.abort("this JDK (" + Runtime.version() + ") has no HSS/LMS; BouncyCastle was checked");
        }
    }

    @Test
    void bouncyCastleSignatures_verifyWithThePqSignProvider_andItsKeysAreAccepted() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("LMS", BC);
        g.initialize(new LMSKeyGenParameterSpec(LMSigParameters.lms_sha256_n24_h5, LMOtsParameters.sha256_n24_w4));
        KeyPair kp = g.generateKeyPair();
        Signature bc = Signature.getInstance("LMS", BC);
        bc.initSign(kp.getPrivate());
        bc.update(MSG);
        byte[] sig = bc.sign();
        Signature v = Signature.getInstance("HSS/LMS", PQ);
        v.initVerify(kp.getPublic());
        v.update(MSG);
        assertTrue(v.verify(sig));
        PublicKey ours = KeyFactory.getInstance("HSS/LMS", PQ)
                .generatePublic(new X509EncodedKeySpec(kp.getPublic().getEncoded()));
        assertTrue(((PqSignPublicKey) ours).pqPublicKey().isHss());
    }

    @Test
    void privateKeys_areNeverImportedOrExported() throws Exception {
        KeyFactory kf = KeyFactory.getInstance("HSS/LMS", PQ);
        InvalidKeySpecException e = assertThrows(
                InvalidKeySpecException.class, () -> kf.generatePrivate(new PKCS8EncodedKeySpec(new byte[8])));
        assertTrue(e.getMessage().contains("SP 800-208"), e.getMessage());
        HssStatefulPrivateKey priv = new HssStatefulPrivateKey(signer);
        assertThrows(InvalidKeySpecException.class, () -> kf.getKeySpec(priv, PKCS8EncodedKeySpec.class));
        try (ObjectOutputStream out = new ObjectOutputStream(new ByteArrayOutputStream())) {
            assertThrows(NotSerializableException.class, () -> out.writeObject(priv));
        }
        Signature xmss = Signature.getInstance("XMSSMT", PQ);
        assertThrows(java.security.InvalidKeyException.class, () -> xmss.initSign(priv));
    }
}
