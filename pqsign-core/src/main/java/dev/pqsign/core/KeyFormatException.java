package dev.pqsign.core;

/** A key, state or signature encoding is malformed: wrong magic, version, length or field value. */
public class KeyFormatException extends PqSignException {
    private static final long serialVersionUID = 1L;

    public KeyFormatException(String message) {
        super(message);
    }

    public KeyFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
