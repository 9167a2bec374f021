package dev.pqsign.telemetry;

import dev.pqsign.core.IndexedSigner;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a sensor signs with: the indexed signer, the id of its public key, and (optionally) the DER
 * certificate it publishes so operators can identify it.
 *
 * @param signer reserves indices durably and signs
 * @param keyId SHA-256 of the public key encoding
 * @param certificateDer the sensor certificate, or an empty array if there is none yet
 */
public record SensorKey(IndexedSigner signer, KeyId keyId, byte[] certificateDer) {
    /**
     * Copies the certificate; a null certificate becomes an empty array.
     *
     * @param signer reserves indices durably and signs
     * @param keyId SHA-256 of the public key encoding
     * @param certificateDer the sensor certificate, or an empty array if there is none yet
     */
    public SensorKey {
        Objects.requireNonNull(signer, "signer");
        Objects.requireNonNull(keyId, "keyId");
        certificateDer = certificateDer == null ? new byte[0] : certificateDer.clone();
    }

    /**
     * A key without certificate.
     *
     * @param signer reserves indices durably and signs
     * @param keyId SHA-256 of the public key encoding
     */
    public SensorKey(IndexedSigner signer, KeyId keyId) {
        this(signer, keyId, new byte[0]);
    }

    /**
     * The sensor certificate's DER (a copy), or an empty array.
     *
     * @return the DER bytes, empty if the key has no certificate
     */
    @Override
    public byte[] certificateDer() {
        return certificateDer.clone();
    }

    /** Equal when the signer is the same object and key id and certificate bytes are equal. */
    @Override
    public boolean equals(Object o) {
        return o instanceof SensorKey k
                && k.signer == signer
                && k.keyId.equals(keyId)
                && Arrays.equals(k.certificateDer, certificateDer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(System.identityHashCode(signer), keyId, Arrays.hashCode(certificateDer));
    }

    @Override
    public String toString() {
        return "SensorKey[" + parameterSetName() + ", keyId=" + keyId + ", certificate=" + certificateDer.length
                + " bytes]";
    }

    /**
     * The parameter-set name of the signer.
     *
     * @return the canonical set name
     */
    public String parameterSetName() {
        return signer.parameterSet().setName();
    }
}
