package dev.pqsign.core;

/** A named, immutable parameter set of some signature scheme, e.g. {@code XMSSMT-SHA2_20/4_256}. */
public interface ParameterSet {

    /**
     * The canonical name, as used on the command line and in documentation (e.g.
     * {@code XMSSMT-SHA2_20/4_256}, {@code HAETAE-2}). Named {@code setName} rather than {@code name}
     * so that enums can implement this interface ({@link Enum#name()} is final).
     *
     * @return the set's name
     */
    String setName();

    /**
     * Length in bytes of every signature of this set.
     *
     * @return the signature length in bytes
     */
    int signatureBytes();

    /**
     * Length in bytes of the standard public key encoding.
     *
     * @return the public key length in bytes
     */
    int publicKeyBytes();

    /**
     * Whether the scheme's private key is stateful (hash-based one-time indices).
     *
     * @return {@code true} for XMSS and XMSS^MT, {@code false} for stateless schemes such as HAETAE
     */
    boolean isStateful();
}
