package dev.pqsign.core;

/**
 * Checks signatures against one public key.
 *
 * <p>Implementations never throw on attacker-controlled input: a signature of the wrong length, with
 * out-of-range fields, or with any flipped bit makes {@link #verify} return {@code false}.
 */
public interface Verifier {

    /**
     * Returns {@code true} only if {@code signature} is a valid signature on {@code message} under this
     * verifier's public key. Never throws for malformed signatures or messages; {@code null} arguments
     * are rejected with {@link NullPointerException} because they are programming errors, not input.
     *
     * @param message the signed message
     * @param signature the signature in the scheme's standard encoding
     * @return whether the signature is valid
     */
    boolean verify(byte[] message, byte[] signature);

    /**
     * The parameter set of the public key.
     *
     * @return the public key's parameter set
     */
    ParameterSet parameterSet();
}
