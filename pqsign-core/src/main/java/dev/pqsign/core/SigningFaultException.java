package dev.pqsign.core;

/**
 * A stateful signer found that one of its own computations went wrong: a signature it made does not
 * verify, or a recomputed value disagrees with the one computed before. That is what a hardware or
 * software fault looks like, and a faulty hash-based signature can give away one-time secrets, so
 * the signer releases nothing and is unusable from then on. The index in question stays burned.
 */
public class SigningFaultException extends PqSignException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which check failed, without secret material
     */
    public SigningFaultException(String message) {
        super(message);
    }
}
