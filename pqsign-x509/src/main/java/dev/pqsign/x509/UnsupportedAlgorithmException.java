package dev.pqsign.x509;

import dev.pqsign.core.PqSignException;

/**
 * An algorithm pqsign cannot put into, or take out of, an X.509 structure: an OID it does not know
 * (RSA, ECDSA, ...), or an XMSS parameter set without a registered type code, which RFC 9802 cannot
 * express. The message names the algorithm and, where one exists, the registered alternative.
 */
public class UnsupportedAlgorithmException extends PqSignException {
    private static final long serialVersionUID = 1L;

    /**
     * An algorithm that cannot be expressed.
     *
     * @param message the algorithm, and the alternative where one exists
     */
    public UnsupportedAlgorithmException(String message) {
        super(message);
    }
}
