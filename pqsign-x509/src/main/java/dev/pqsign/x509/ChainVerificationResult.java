package dev.pqsign.x509;

import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link CertificateChainVerifier#verify}: valid, or the first reason the chain was
 * rejected, with a message naming the certificate and what was expected.
 */
public final class ChainVerificationResult {
    /** Why a chain was rejected ({@link #VALID} if it was not). */
    public enum Reason {
        /** Every check passed. */
        VALID,
        /** now is after a certificate's notAfter. */
        EXPIRED,
        /** now is before a certificate's notBefore. */
        NOT_YET_VALID,
        /** A certificate's issuer name (or authority key id) does not match its issuer's subject (key id). */
        ISSUER_MISMATCH,
        /** A signature does not verify under the issuer's key. */
        BAD_SIGNATURE,
        /** A certificate used as an issuer is not a CA. */
        NOT_A_CA,
        /** Key usage forbids the use, or contains bits RFC 9802 forbids for signature keys. */
        KEY_USAGE,
        /** pathLenConstraint exceeded. */
        PATH_LENGTH,
        /** A signature or key algorithm pqsign does not support (RSA, ECDSA, private-use XMSS, ...). */
        UNKNOWN_ALGORITHM,
        /** signatureAlgorithm differs from tbsCertificate.signature, does not fit the issuer's key, or has parameters. */
        ALGORITHM_MISMATCH,
        /** A public key in the chain is malformed (wrong length, out-of-range values). */
        MALFORMED_KEY,
        /** A critical extension pqsign does not understand. */
        UNKNOWN_CRITICAL_EXTENSION,
        /** The trusted root is not self-signed (its issuer is not its subject, or its own key does not verify it). */
        ROOT_NOT_SELF_SIGNED,
        /** Not an X.509 v3 certificate. */
        UNSUPPORTED_VERSION,
        /** A field inside a DER-valid certificate cannot be interpreted (bad time, bit string padding, extension value). */
        MALFORMED_CERTIFICATE
    }

    private static final ChainVerificationResult OK = new ChainVerificationResult(Reason.VALID, "chain is valid", null);

    private final Reason reason;
    private final String message;
    private final PqCertificate failed;

    private ChainVerificationResult(Reason reason, String message, PqCertificate failed) {
        this.reason = reason;
        this.message = message;
        this.failed = failed;
    }

    static ChainVerificationResult valid() {
        return OK;
    }

    static ChainVerificationResult invalid(Reason reason, PqCertificate cert, String message) {
        Objects.requireNonNull(reason);
        return new ChainVerificationResult(reason, "certificate '" + cert.subject() + "': " + message, cert);
    }

    /**
     * Whether the chain is valid.
     *
     * @return {@code true} only if every check passed
     */
    public boolean isValid() {
        return reason == Reason.VALID;
    }

    /**
     * Why the chain was rejected.
     *
     * @return the first failed check, or {@link Reason#VALID}
     */
    public Reason reason() {
        return reason;
    }

    /**
     * A sentence for logs and the CLI.
     *
     * @return "chain is valid", or the failed certificate's subject and what was expected
     */
    public String message() {
        return message;
    }

    /**
     * The certificate that failed, if any.
     *
     * @return the failed certificate, or empty for a valid chain
     */
    public Optional<PqCertificate> failedCertificate() {
        return Optional.ofNullable(failed);
    }

    @Override
    public String toString() {
        return reason + ": " + message;
    }
}
