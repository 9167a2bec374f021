package dev.pqsign.telemetry.operator;

import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.telemetry.CertificateEnrolment;
import dev.pqsign.x509.CertificateChainVerifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.ChainVerificationResult;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What an operator in certificate mode (it trusts only the plant root) requires of a sensor key's
 * certificate chain: the chain validates to the root now, the key's certificate is an end entity,
 * and it was issued by the same CA that certified the sensor's first key — its device CA, a CA
 * certificate with path length 0 directly under the root. A certificate from another device CA,
 * even one under the same root, is refused. The rules, numbered, are in docs/certificates.md
 * ("Following a sensor's keys by certificate").
 *
 * <p>Immutable. The device CA is identified by its public key: a device CA whose certificate the
 * root renews for the same key stays the same device CA.
 */
public final class DeviceCaTrust {
    private final PqCertificate root;
    private final PqCertificate issuer;
    private final int chainLength;

    private DeviceCaTrust(PqCertificate root, PqCertificate issuer, int chainLength) {
        this.root = root;
        this.issuer = issuer;
        this.chainLength = chainLength;
    }

    /**
     * Binds a sensor to the CA that issued its first key's certificate, after checking that chain
     * (the key's certificate, then its device CA's; or the key's certificate alone if the root
     * issued it directly) with the same rules as every later key.
     *
     * @param firstChain the sensor's first key's certificate, then its device CA's if it has one
     * @param root the trusted plant root
     * @param now the time the certificates must be valid at
     * @return the sensor's trust anchor
     * @throws IllegalArgumentException naming the failed rule if the first chain is not acceptable
     */
    public static DeviceCaTrust of(List<PqCertificate> firstChain, PqCertificate root, Instant now) {
        Objects.requireNonNull(root, "root");
        if (firstChain.isEmpty() || firstChain.size() > 2) {
            throw new IllegalArgumentException("the sensor's certificate file must hold its certificate and at most"
                    + " its device CA's certificate, found " + firstChain.size() + " certificates");
        }
        PqCertificate issuer = firstChain.size() == 2 ? firstChain.get(1) : root;
        DeviceCaTrust t = new DeviceCaTrust(root, issuer, firstChain.size());
        PqPublicKey key;
        try {
            key = firstChain.get(0).publicKey();
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Optional<String> refusal = t.refusal(firstChain, key, now);
        if (refusal.isPresent()) {
            throw new IllegalArgumentException(refusal.get());
        }
        return t;
    }

    /**
     * Binds a sensor again when an operator restarts on a data directory that enrolled it: the first
     * chain must be the one {@code enrolment} records, and it is checked with every rule of
     * {@link #of} — signatures, CA constraints, path length, names and key identifiers, the same
     * root — at the time the enrolment found it valid, not now. Certificate validity is checked when
     * a key is followed, and the first key was followed at enrolment: an operator that keeps running
     * past the first certificate's notAfter keeps its trust, and so does one that restarts.
     *
     * @param firstChain the sensor's first key's certificate, then its device CA's if it has one
     * @param root the trusted plant root
     * @param enrolment the operator's record of its first check of this chain
     * @return the sensor's trust anchor
     * @throws IllegalArgumentException if the record is of another chain, or naming the failed rule
     */
    public static DeviceCaTrust resumed(
            List<PqCertificate> firstChain, PqCertificate root, CertificateEnrolment enrolment) {
        if (!enrolment.isOf(firstChain)) {
            throw new IllegalArgumentException("the certificate enrolment record is of another first chain");
        }
        return of(firstChain, root, enrolment.validatedAt());
    }

    /**
     * The CA that must issue every key's certificate (the device CA, or the root if it certified the first key
     *     directly).
     *
     * @return the issuing CA's certificate
     */
    public PqCertificate issuer() {
        return issuer;
    }

    /**
     * The trusted plant root.
     *
     * @return the root certificate
     */
    public PqCertificate root() {
        return root;
    }

    /**
     * Why {@code chain} does not certify {@code key} for this sensor now, or empty if it does.
     *
     * @param chain the new key's certificate chain
     * @param key the key the chain must certify
     * @param now the time the certificates must be valid at
     * @return a one-line reason, or empty if the chain is acceptable
     */
    public Optional<String> refusal(KeyCertificateChain chain, PqPublicKey key, Instant now) {
        return refusal(chain.certificates(), key, now);
    }

    private Optional<String> refusal(List<PqCertificate> chain, PqPublicKey key, Instant now) {
        if (chain.size() != chainLength) {
            return Optional.of("certificate chain of " + chain.size() + " certificates; this sensor's keys are"
                    + " certified by " + describeIssuer() + ", a chain of " + chainLength);
        }
        ChainVerificationResult r = CertificateChainVerifier.verify(chain, root, now);
        if (!r.isValid()) {
            return Optional.of("certificate chain not valid under the root " + root.subject() + ": "
                    + r.reason().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": " + r.message());
        }
        PqCertificate leaf = chain.get(0);
        if (leaf.isCa()) {
            return Optional.of("certificate " + leaf.subject() + " is a CA certificate, not a sensor key's");
        }
        if (chainLength == 2) {
            PqCertificate ca = chain.get(1);
            if (!ca.isCa() || !ca.pathLengthConstraint().equals(Optional.of(0))) {
                return Optional.of("issuer " + ca.subject() + " is not a device CA: its basic constraints must be"
                        + " cA TRUE with path length 0, found "
                        + (ca.isCa()
                                ? "path length "
                                        + ca.pathLengthConstraint()
                                                .map(String::valueOf)
                                                .orElse("absent")
                                : "cA FALSE"));
            }
            if (!sameKey(ca, issuer)) {
                return Optional.of("certificate issued by " + ca.subject() + ", another device CA than this sensor's "
                        + issuer.subject());
            }
        }
        try {
            if (!leaf.publicKey().equals(key)) {
                return Optional.of("certificate " + leaf.subject() + " certifies another key than the new one");
            }
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            return Optional.of("certificate " + leaf.subject() + ": " + e.getMessage());
        }
        return Optional.empty();
    }

    private static boolean sameKey(PqCertificate a, PqCertificate b) {
        try {
            return a.publicKey().equals(b.publicKey()) && a.subject().equals(b.subject());
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            return false;
        }
    }

    private String describeIssuer() {
        return chainLength == 2 ? "the device CA " + issuer.subject() : "the root " + root.subject();
    }

    @Override
    public String toString() {
        return "DeviceCaTrust[" + describeIssuer() + "]";
    }
}
