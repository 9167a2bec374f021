package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JDK's own HSS/LMS verifier (SUN provider, Java 21 and later; it knows the SHA-256 n = 32
 * types only) accepts pqsign's signatures, given the key as an X.509 SubjectPublicKeyInfo with
 * id-alg-hss-lms-hashsig (1.2.840.113549.1.9.16.3.17, RFC 9708), parameters absent, whose BIT
 * STRING is the HSS public key. Skipped on JDKs without the algorithm (the CI's Temurin 25 stage
 * runs it).
 */
class JdkVerifierTest {
    /** DER of OID 1.2.840.113549.1.9.16.3.17. */
    private static final byte[] OID = {
        0x06, 0x0b, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x09, 0x10, 0x03, 0x11
    };

    static byte[] subjectPublicKeyInfo(byte[] hssPublicKey) {
        byte[] algorithm = der(0x30, OID);
        byte[] bits = new byte[hssPublicKey.length + 1];
        System.arraycopy(hssPublicKey, 0, bits, 1, hssPublicKey.length);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(algorithm);
        body.writeBytes(der(0x03, bits));
        return der(0x30, body.toByteArray());
    }

    private static byte[] der(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        if (content.length < 128) {
            out.write(content.length);
        } else {
            out.write(0x81);
            out.write(content.length);
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W8",
                "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4",
                "LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W2+LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4"
            })
    void pqsignSignatures_verifyWithTheJdksHssLmsVerifier(String name) throws Exception {
        KeyFactory kf;
        Signature jdk;
        try {
            kf = KeyFactory.getInstance("HSS/LMS");
            jdk = Signature.getInstance("HSS/LMS");
        } catch (NoSuchAlgorithmException e) {
            Assumptions.abort("this JDK (" + Runtime.version() + ") has no HSS/LMS verifier");
            return;
        }
        HssParameterSet params = HssTesting.set(name);
        HssPrivateKey key = HssTesting.key(params, 50);
        PublicKey pub = kf.generatePublic(
                new X509EncodedKeySpec(subjectPublicKeyInfo(key.publicKey().encoded())));
        long max = params.maxSignatures();
        try (HssStatefulSigner s = HssStatefulSigner.open(
                HssTesting.storeAt(key, max - 3, max),
                HssSignerOptions.defaults().withThreads(2))) {
            for (int i = 0; i < 3; i++) {
                byte[] msg = HssTesting.msg(i);
                byte[] sig = s.sign(msg);
                jdk.initVerify(pub);
                jdk.update(msg);
                assertTrue(jdk.verify(sig), name + " signature " + i);
                byte[] bad = sig.clone();
                bad[bad.length - 1] ^= 1;
                jdk.initVerify(pub);
                jdk.update(msg);
                assertFalse(jdk.verify(bad));
            }
        }
    }
}
