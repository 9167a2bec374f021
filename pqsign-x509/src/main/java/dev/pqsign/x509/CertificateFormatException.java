package dev.pqsign.x509;

import dev.pqsign.core.PqSignException;

/**
 * Input that cannot be read as a certificate, key or PEM block at all: truncated or trailing bytes,
 * non-DER encodings, bad Base64, wrong PEM label, a key of the wrong length. Outcomes of checking a
 * readable certificate (expired, bad signature, ...) are never thrown; see
 * {@link CertificateChainVerifier}.
 */
public class CertificateFormatException extends PqSignException {
    private static final long serialVersionUID = 1L;

    /**
     * An input that cannot be read, with no underlying exception.
     *
     * @param message what is wrong, never secret material
     */
    public CertificateFormatException(String message) {
        super(message);
    }

    /**
     * An input that cannot be read, with the parser's exception that found it.
     *
     * @param message what is wrong, never secret material
     * @param cause the parser's exception
     */
    public CertificateFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
