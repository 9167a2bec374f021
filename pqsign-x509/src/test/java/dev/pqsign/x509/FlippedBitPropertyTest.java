package dev.pqsign.x509;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.xmss.XmssParameterSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Any single flipped bit anywhere in a certificate (tbsCertificate, algorithm identifiers or
 * signature) makes it unreadable or makes chain verification fail.
 */
class FlippedBitPropertyTest {
    static Path dir;
    static TestCa root;
    static PqCertificate rootCert;
    static PqCertificate leaf;

    @BeforeContainer
    static void setUp() throws Exception {
        dir = Files.createTempDirectory("pqsign-x509-flip");
        root = TestCa.create(dir, "root", XmssParameterSet.XMSSMT_SHA2_20_4_256);
        rootCert = Certificates.selfSigned(root.signer, "CN=flip root", 30);
        leaf = Certificates.issue(
                root.signer,
                rootCert,
                HaetaeKeyPairGenerator.generate(HaetaeParameterSet.HAETAE_2, new SecureRandom())
                        .publicKey(),
                "CN=flip leaf",
                10,
                false);
        assertTrue(
                CertificateChainVerifier.verify(leaf, rootCert, Instant.now()).isValid());
    }

    @AfterContainer
    static void tearDown() throws Exception {
        root.close();
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(p);
            }
        }
        Files.deleteIfExists(dir);
    }

    static boolean acceptedAfterFlip(PqCertificate original, PqCertificate anchor, int bit, boolean flipRoot) {
        byte[] der = original.encoded();
        int pos = Math.floorMod(bit, der.length * 8);
        der[pos / 8] ^= (byte) (1 << (pos % 8));
        PqCertificate altered;
        try {
            altered = PqCertificate.fromDer(der);
        } catch (CertificateFormatException e) {
            return false;
        }
        ChainVerificationResult r = flipRoot
                ? CertificateChainVerifier.verify(altered, altered, Instant.now())
                : CertificateChainVerifier.verify(altered, anchor, Instant.now());
        return r.isValid();
    }

    @Property(tries = 250)
    void leafWithFlippedBit_rejected(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int bit) {
        assertFalse(acceptedAfterFlip(leaf, rootCert, bit, false));
    }

    @Property(tries = 150)
    void selfSignedRootWithFlippedBit_rejected(@ForAll @IntRange(min = 0, max = Integer.MAX_VALUE) int bit) {
        assertFalse(acceptedAfterFlip(rootCert, rootCert, bit, true));
    }
}
