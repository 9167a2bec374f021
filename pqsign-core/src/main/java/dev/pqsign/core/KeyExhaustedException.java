package dev.pqsign.core;

/** A stateful key has used every index it may use. */
public class KeyExhaustedException extends PqSignException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which key is exhausted, without secret material
     */
    public KeyExhaustedException(String message) {
        super(message);
    }
}
