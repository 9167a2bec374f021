package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.Hex;
import dev.pqsign.x509.CertificateChainVerifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.ChainVerificationResult;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PEM and DER certificates, chains and public keys (pqsign-x509), verified against the fixed root of
 * {@link FuzzCertificates}.
 *
 * <p>Input: a mode byte, then the bytes. Mode mod 4: 0 one certificate, DER or PEM
 * ({@link PqCertificate#read}); 1 a PEM chain, leaf first ({@link Pem#readCertificates}); 2 a DER
 * SubjectPublicKeyInfo ({@link PublicKeys#decode}); 3 a PEM public key. (mode / 4) mod 4 picks the
 * time the chain is checked at: before, inside, after the leaves' and after the root's validity.
 *
 * <p>Asserts: parsing throws nothing but {@link CertificateFormatException} or
 * {@link UnsupportedAlgorithmException}; the accessors of a parsed certificate throw nothing else;
 * the chain verifier never throws; a chain found valid consists only of certificates that were
 * really issued (same tbsCertificate and signature as one of {@link FuzzCertificates#all()}), each
 * valid at the checked time — anything else is a false accept. A decoded public key re-encodes to
 * its input (strict DER).
 */
class CertificateFuzzTest {
    private static final Instant[] TIMES = {
        Instant.parse("2025-06-01T00:00:00Z"),
        Instant.parse("2030-01-01T00:00:00Z"),
        Instant.parse("2038-01-01T00:00:00Z"),
        Instant.parse("2050-01-01T00:00:00Z")
    };
    private static Map<String, PqCertificate> issued;

    private static synchronized Map<String, PqCertificate> issued() {
        if (issued == null) {
            issued = new HashMap<>();
            for (PqCertificate c : FuzzCertificates.committed()) {
                issued.put(fingerprint(c), c);
            }
        }
        return issued;
    }

    private static String fingerprint(PqCertificate c) {
        return Hex.encode(c.tbsCertificate()) + "/" + Hex.encode(c.signature());
    }

    @FuzzTest
    void fuzz(byte[] data) {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        Instant now = TIMES[(mode / 4) % TIMES.length];
        byte[] b = Arrays.copyOfRange(data, 1, data.length);
        try {
            switch (mode % 4) {
                case 0:
                    chain(List.of(PqCertificate.read(b)), now);
                    break;
                case 1:
                    List<PqCertificate> chain = Pem.readCertificates(new String(b, StandardCharsets.UTF_8));
                    if (!chain.isEmpty()) {
                        chain(chain, now);
                    }
                    break;
                case 2:
                    PqPublicKey key = PublicKeys.decode(b);
                    assertArrayEquals(b, PublicKeys.encode(key), "a decoded public key re-encodes to its input");
                    break;
                default:
                    assertNotNull(Pem.readPublicKey(new String(b, StandardCharsets.UTF_8)));
                    break;
            }
        } catch (CertificateFormatException | UnsupportedAlgorithmException expected) {
            // documented
        }
    }

    private static void chain(List<PqCertificate> chain, Instant now) {
        for (PqCertificate c : chain) {
            accessors(c);
        }
        ChainVerificationResult r = CertificateChainVerifier.verify(chain, FuzzCertificates.root(), now);
        assertNotNull(r.message());
        if (!r.isValid()) {
            return;
        }
        for (PqCertificate c : chain) {
            PqCertificate original = issued().get(fingerprint(c));
            if (original == null) {
                fail("false accept: a chain with a certificate that was never issued is valid: " + c.subject());
            }
            assertTrue(
                    !now.isBefore(original.notBefore()) && !now.isAfter(original.notAfter()),
                    "false accept: " + c.subject() + " is not valid at " + now);
        }
    }

    /** Every accessor of a parsed certificate; only the key accessors document exceptions ({@code describe} says it never fails). */
    private static void accessors(PqCertificate c) {
        c.subject();
        c.issuer();
        c.serialNumber();
        c.notBefore();
        c.notAfter();
        c.signatureAlgorithmOid();
        c.signature();
        c.tbsCertificate();
        c.signatureIndex();
        c.encoded();
        c.isCa();
        c.pathLengthConstraint();
        c.keyUsage();
        c.subjectKeyIdentifier();
        c.authorityKeyIdentifier();
        c.isSelfIssued();
        assertNotNull(PublicKeys.describe(c));
        try {
            c.publicKey();
            PublicKeys.verifierFor(c);
        } catch (CertificateFormatException | UnsupportedAlgorithmException expected) {
            // documented
        }
    }
}
