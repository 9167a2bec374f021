package dev.pqsign.core;

/** A key, state or signature encoding is malformed: wrong magic, version, length or field value. */
public class KeyFormatException extends PqSignException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which field is malformed and how, without secret material
     */
    public KeyFormatException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message which field is malformed and how, without secret material
     * @param cause the underlying failure
     */
    public KeyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
