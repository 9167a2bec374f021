package dev.pqsign.keys;

import dev.pqsign.x509.PqPublicKey;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a private key file holds, without its secret ({@link PrivateKeys#summary}).
 *
 * @param format the file's format
 * @param parameterSetName the key's parameter set (for HSS the whole hierarchy, which the public key
 *     does not name)
 * @param publicKey the key's public key
 * @param remaining the signatures a key state has left; empty for a HAETAE key (stateless)
 */
public record PrivateKeySummary(
        PrivateKeyFormat format, String parameterSetName, PqPublicKey publicKey, OptionalLong remaining) {
    /**
     * Checks that every part is given.
     *
     * @param format the file's format
     * @param parameterSetName the key's parameter set
     * @param publicKey the key's public key
     * @param remaining the signatures a key state has left; empty for a HAETAE key
     */
    public PrivateKeySummary {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(parameterSetName, "parameterSetName");
        Objects.requireNonNull(publicKey, "publicKey");
        Objects.requireNonNull(remaining, "remaining");
    }
}
