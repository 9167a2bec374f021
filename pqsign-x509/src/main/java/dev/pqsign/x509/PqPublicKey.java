package dev.pqsign.x509;

import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.Verifier;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssVerifier;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;

/**
 * A public key pqsign can carry in a certificate: XMSS / XMSS^MT or HAETAE. A closed union of the two
 * module key types, so certificate code needs no {@code instanceof} chains on {@code Object}.
 */
public final class PqPublicKey {
    private final XmssPublicKey xmss;
    private final HaetaePublicKey haetae;

    private PqPublicKey(XmssPublicKey xmss, HaetaePublicKey haetae) {
        this.xmss = xmss;
        this.haetae = haetae;
    }

    /**
     * Wraps an XMSS / XMSS^MT key.
     *
     * @param key the key
     * @return the wrapped key
     */
    public static PqPublicKey of(XmssPublicKey key) {
        return new PqPublicKey(Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Wraps a HAETAE key.
     *
     * @param key the key
     * @return the wrapped key
     */
    public static PqPublicKey of(HaetaePublicKey key) {
        return new PqPublicKey(null, Objects.requireNonNull(key, "key"));
    }

    /**
     * The XMSS key, if this is one.
     *
     * @return the XMSS / XMSS^MT key, or empty for a HAETAE key
     */
    public Optional<XmssPublicKey> xmss() {
        return Optional.ofNullable(xmss);
    }

    /**
     * The HAETAE key, if this is one.
     *
     * @return the HAETAE key, or empty for an XMSS / XMSS^MT key
     */
    public Optional<HaetaePublicKey> haetae() {
        return Optional.ofNullable(haetae);
    }

    /**
     * {@code true} for XMSS / XMSS^MT (stateful) keys.
     *
     * @return whether this is an XMSS / XMSS^MT key
     */
    public boolean isXmss() {
        return xmss != null;
    }

    /**
     * The key's parameter set ({@code XmssParameterSet} or {@code HaetaeParameterSet}).
     *
     * @return the parameter set
     */
    public ParameterSet parameterSet() {
        return xmss != null ? xmss.parameterSet() : haetae.parameterSet();
    }

    /**
     * The algorithm OID of the SubjectPublicKeyInfo (and of signatures made with this key).
     *
     * @return one of the OIDs in {@link Oids}
     */
    public ASN1ObjectIdentifier algorithmOid() {
        return xmss != null ? Oids.of(xmss.parameterSet().family()) : Oids.of(haetae.parameterSet());
    }

    /**
     * The raw key: RFC 8391 encoding for XMSS, reference {@code vk} for HAETAE.
     *
     * @return a new array with the raw key
     */
    public byte[] rawEncoding() {
        return xmss != null ? xmss.encoded() : haetae.getEncoded();
    }

    /**
     * A verifier for plain messages under this key: {@link XmssVerifier}, or {@link HaetaeVerifier}
     * with the empty context (pqsign's convention for telemetry). Certificate signatures are checked
     * by {@link CertificateChainVerifier}, which applies the X.509 convention instead.
     *
     * @return a new verifier
     */
    public Verifier verifier() {
        return xmss != null ? new XmssVerifier(xmss) : new HaetaeVerifier(haetae);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PqPublicKey
                && Objects.equals(((PqPublicKey) o).xmss, xmss)
                && Objects.equals(((PqPublicKey) o).haetae, haetae);
    }

    @Override
    public int hashCode() {
        return Objects.hash(xmss, haetae);
    }

    @Override
    public String toString() {
        return xmss != null ? xmss.toString() : haetae.toString();
    }
}
