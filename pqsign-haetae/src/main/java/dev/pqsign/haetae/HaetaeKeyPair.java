package dev.pqsign.haetae;

import java.util.Objects;

/** A matching HAETAE public and private key. */
public final class HaetaeKeyPair {
    private final HaetaePublicKey publicKey;
    private final HaetaePrivateKey privateKey;

    HaetaeKeyPair(HaetaePublicKey publicKey, HaetaePrivateKey privateKey) {
        this.publicKey = Objects.requireNonNull(publicKey);
        this.privateKey = Objects.requireNonNull(privateKey);
    }

    /**
     * The verification key.
     *
     * @return the public key
     */
    public HaetaePublicKey publicKey() {
        return publicKey;
    }

    /**
     * The signing key (its {@code toString()} shows no secret bytes).
     *
     * @return the private key
     */
    public HaetaePrivateKey privateKey() {
        return privateKey;
    }

    @Override
    public String toString() {
        return "HaetaeKeyPair[" + publicKey + "]";
    }
}
