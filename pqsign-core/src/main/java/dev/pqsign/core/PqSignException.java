package dev.pqsign.core;

/** Base class of pqsign's unchecked exceptions. Messages never contain secret material. */
public class PqSignException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PqSignException(String message) {
        super(message);
    }

    public PqSignException(String message, Throwable cause) {
        super(message, cause);
    }
}
