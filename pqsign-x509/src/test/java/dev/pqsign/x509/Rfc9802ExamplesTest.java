package dev.pqsign.x509;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.x509.ChainVerificationResult.Reason;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.InputStream;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The example certificates of RFC 9802 appendices B and C parse and verify (see resources/rfc9802/README.md). */
class Rfc9802ExamplesTest {
    static PqCertificate load(String name) throws Exception {
        try (InputStream in = Rfc9802ExamplesTest.class.getResourceAsStream("/rfc9802/" + name)) {
            return PqCertificate.read(in.readAllBytes());
        }
    }

    @ParameterizedTest
    @CsvSource({
        "appendix-b-xmss.pem, XMSS-SHA2_10_256, 1.3.6.1.5.5.7.6.34",
        "appendix-c-xmssmt.pem, XMSSMT-SHA2_20/2_256, 1.3.6.1.5.5.7.6.35"
    })
    void example_parsesAndVerifies(String file, String set, String oid) throws Exception {
        PqCertificate c = load(file);
        assertEquals(XmssParameterSet.byName(set).orElseThrow(), c.publicKey().parameterSet());
        assertEquals(oid, c.signatureAlgorithmOid().getId());
        assertTrue(c.isCa());
        ChainVerificationResult r = CertificateChainVerifier.verify(c, c, Instant.parse("2025-06-01T00:00:00Z"));
        assertTrue(r.isValid(), r.toString());
        assertEquals(
                Reason.EXPIRED,
                CertificateChainVerifier.verify(c, c, Instant.parse("2034-07-09T00:00:00Z"))
                        .reason());
        assertEquals(
                Reason.NOT_YET_VALID,
                CertificateChainVerifier.verify(c, c, Instant.parse("2024-07-01T00:00:00Z"))
                        .reason());
        assertTrue(X509Signatures.verify(c.publicKey(), c.tbsCertificate(), c.signature()));
    }

    @ParameterizedTest
    @CsvSource({"appendix-b-xmss.pem", "appendix-c-xmssmt.pem"})
    void example_alteredSignature_failsWithBadSignature(String file) throws Exception {
        byte[] der = load(file).encoded();
        der[der.length - 1] ^= 0x01;
        ChainVerificationResult r = CertificateChainVerifier.verify(
                PqCertificate.fromDer(der), PqCertificate.fromDer(der), Instant.parse("2025-06-01T00:00:00Z"));
        assertEquals(Reason.BAD_SIGNATURE, r.reason(), r.toString());
    }

    @ParameterizedTest
    @CsvSource({"appendix-b-xmss.pem", "appendix-c-xmssmt.pem"})
    void example_pemRoundTrip_isByteExact(String file) throws Exception {
        PqCertificate c = load(file);
        assertTrue(Arrays.equals(c.encoded(), Pem.readCertificate(Pem.write(c)).encoded()));
    }
}
