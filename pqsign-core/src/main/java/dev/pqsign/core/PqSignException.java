package dev.pqsign.core;

/** Base class of pqsign's unchecked exceptions. Messages never contain secret material. */
public class PqSignException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, without secret material
     */
    public PqSignException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, without secret material
     * @param cause the underlying failure
     */
    public PqSignException(String message, Throwable cause) {
        super(message, cause);
    }
}
