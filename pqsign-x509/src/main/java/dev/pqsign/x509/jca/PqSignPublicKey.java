package dev.pqsign.x509.jca;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.ObjectStreamException;
import java.security.KeyRep;
import java.security.PublicKey;
import java.util.Objects;

/**
 * A JCA {@link PublicKey} for XMSS, XMSS^MT, HSS / LMS or HAETAE. {@link #getEncoded()} is the X.509
 * SubjectPublicKeyInfo (RFC 9802 for XMSS; BouncyCastle's form for HAETAE).
 */
public final class PqSignPublicKey implements PublicKey {
    private static final long serialVersionUID = 1L;

    private final transient PqPublicKey key;

    /**
     * Wraps a pqsign public key.
     *
     * @param key the public key
     */
    public PqSignPublicKey(PqPublicKey key) {
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * The pqsign key inside.
     *
     * @return the wrapped public key
     */
    public PqPublicKey pqPublicKey() {
        return key;
    }

    /** {@code XMSS}, {@code XMSSMT}, {@code HSS/LMS}, or the HAETAE set name ({@code HAETAE-2}, ...). */
    @Override
    public String getAlgorithm() {
        return algorithmName(key);
    }

    static String algorithmName(PqPublicKey key) {
        if (key.isXmss()) {
            return key.xmss().orElseThrow().parameterSet().family() == XmssParameterSet.Family.XMSS ? "XMSS" : "XMSSMT";
        }
        if (key.isHss()) {
            return Algorithms.HSS_LMS;
        }
        return ((HaetaeParameterSet) key.parameterSet()).setName();
    }

    @Override
    public String getFormat() {
        return "X.509";
    }

    @Override
    public byte[] getEncoded() {
        return PublicKeys.encode(key);
    }

    /** Serialised as a {@link KeyRep} (X.509 encoding); reading it back needs the PQSign provider installed. */
    private Object writeReplace() throws ObjectStreamException {
        return new KeyRep(KeyRep.Type.PUBLIC, getAlgorithm(), getFormat(), getEncoded());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PqSignPublicKey && ((PqSignPublicKey) o).key.equals(key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return "PqSignPublicKey[" + key + "]";
    }
}
