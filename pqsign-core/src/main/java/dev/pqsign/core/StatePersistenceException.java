package dev.pqsign.core;

/**
 * The state of a stateful key could not be made durable (or was found altered on disk). The signer
 * that raised it releases no signature and is unusable from then on.
 */
public class StatePersistenceException extends PqSignException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which store failed and how, without secret material
     */
    public StatePersistenceException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message which store failed and how, without secret material
     * @param cause the underlying failure
     */
    public StatePersistenceException(String message, Throwable cause) {
        super(message, cause);
    }
}
