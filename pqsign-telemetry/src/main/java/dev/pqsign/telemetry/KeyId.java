package dev.pqsign.telemetry;

import dev.pqsign.core.Hex;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;

/** Identifies a sensor key: SHA-256 of the public key's standard encoding (32 bytes). */
public final class KeyId {

    /** Length of a key id in bytes. */
    public static final int BYTES = 32;

    private final byte[] id;

    private KeyId(byte[] id) {
        this.id = id;
    }

    /**
     * The key id of a public key encoding.
     *
     * @param publicKeyEncoding the public key's standard encoding
     * @return its SHA-256
     */
    public static KeyId ofPublicKey(byte[] publicKeyEncoding) {
        Objects.requireNonNull(publicKeyEncoding, "publicKeyEncoding");
        try {
            return new KeyId(MessageDigest.getInstance("SHA-256").digest(publicKeyEncoding));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /**
     * Wraps 32 id bytes (copied).
     *
     * @param idBytes the {@value #BYTES} id bytes
     * @return the key id
     * @throws IllegalArgumentException if {@code idBytes} is null or not {@value #BYTES} bytes
     */
    public static KeyId of(byte[] idBytes) {
        if (idBytes == null || idBytes.length != BYTES) {
            throw new IllegalArgumentException(
                    "key id must have " + BYTES + " bytes, got " + (idBytes == null ? "null" : idBytes.length));
        }
        return new KeyId(idBytes.clone());
    }

    /**
     * The id bytes (a copy).
     *
     * @return the {@value #BYTES} bytes
     */
    public byte[] bytes() {
        return id.clone();
    }

    /**
     * Lower-case hex, 64 characters; used as file name of the key's replay state.
     *
     * @return the id in hex
     */
    public String hex() {
        return Hex.encode(id);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyId k && Arrays.equals(k.id, id);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(id);
    }

    @Override
    public String toString() {
        return "KeyId[" + hex().substring(0, 16) + "…]";
    }
}
