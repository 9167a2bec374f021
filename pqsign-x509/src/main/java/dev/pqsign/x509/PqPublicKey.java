package dev.pqsign.x509;

import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.Verifier;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.lms.HssPublicKey;
import dev.pqsign.lms.HssVerifier;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssVerifier;
import java.util.Objects;
import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;

/**
 * A public key pqsign can carry in a certificate: XMSS / XMSS^MT, HSS / LMS or HAETAE. A closed
 * union of the module key types, so certificate code needs no {@code instanceof} chains on
 * {@code Object}.
 */
public final class PqPublicKey {
    private final XmssPublicKey xmss;
    private final HssPublicKey hss;
    private final HaetaePublicKey haetae;

    private PqPublicKey(XmssPublicKey xmss, HssPublicKey hss, HaetaePublicKey haetae) {
        this.xmss = xmss;
        this.hss = hss;
        this.haetae = haetae;
    }

    /**
     * Wraps an XMSS / XMSS^MT key.
     *
     * @param key the key
     * @return the wrapped key
     */
    public static PqPublicKey of(XmssPublicKey key) {
        return new PqPublicKey(Objects.requireNonNull(key, "key"), null, null);
    }

    /**
     * Wraps an HSS / LMS key.
     *
     * @param key the key
     * @return the wrapped key
     */
    public static PqPublicKey of(HssPublicKey key) {
        return new PqPublicKey(null, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Wraps a HAETAE key.
     *
     * @param key the key
     * @return the wrapped key
     */
    public static PqPublicKey of(HaetaePublicKey key) {
        return new PqPublicKey(null, null, Objects.requireNonNull(key, "key"));
    }

    /**
     * The XMSS key, if this is one.
     *
     * @return the XMSS / XMSS^MT key, or empty for another key
     */
    public Optional<XmssPublicKey> xmss() {
        return Optional.ofNullable(xmss);
    }

    /**
     * The HSS key, if this is one.
     *
     * @return the HSS / LMS key, or empty for another key
     */
    public Optional<HssPublicKey> hss() {
        return Optional.ofNullable(hss);
    }

    /**
     * The HAETAE key, if this is one.
     *
     * @return the HAETAE key, or empty for another key
     */
    public Optional<HaetaePublicKey> haetae() {
        return Optional.ofNullable(haetae);
    }

    /**
     * {@code true} for XMSS / XMSS^MT keys.
     *
     * @return whether this is an XMSS / XMSS^MT key
     */
    public boolean isXmss() {
        return xmss != null;
    }

    /**
     * {@code true} for HSS / LMS keys.
     *
     * @return whether this is an HSS / LMS key
     */
    public boolean isHss() {
        return hss != null;
    }

    /**
     * {@code true} for stateful hash-based keys (XMSS / XMSS^MT and HSS / LMS).
     *
     * @return whether the key's signatures use one-time indices
     */
    public boolean isStateful() {
        return xmss != null || hss != null;
    }

    /**
     * The key's parameter set ({@code XmssParameterSet}, {@code HssParameterSet} or
     * {@code HaetaeParameterSet}). An HSS public key names only its top tree: for more than one
     * level this is the nominal hierarchy of the verifier {@link HssVerifier#anyLowerLevels}, and
     * the signatures name their own lower trees.
     *
     * @return the parameter set
     */
    public ParameterSet parameterSet() {
        if (xmss != null) {
            return xmss.parameterSet();
        }
        if (hss != null) {
            return HssVerifier.anyLowerLevels(hss).parameterSet();
        }
        return haetae.parameterSet();
    }

    /**
     * The algorithm OID of the SubjectPublicKeyInfo (and of signatures made with this key).
     *
     * @return one of the OIDs in {@link Oids}
     */
    public ASN1ObjectIdentifier algorithmOid() {
        if (xmss != null) {
            return Oids.of(xmss.parameterSet().family());
        }
        return hss != null ? Oids.ID_ALG_HSS_LMS_HASHSIG : Oids.of(haetae.parameterSet());
    }

    /**
     * The raw key: RFC 8391 encoding for XMSS, RFC 8554 HSS public key, reference {@code vk} for
     * HAETAE.
     *
     * @return a new array with the raw key
     */
    public byte[] rawEncoding() {
        if (xmss != null) {
            return xmss.encoded();
        }
        return hss != null ? hss.encoded() : haetae.getEncoded();
    }

    /**
     * A verifier for plain messages under this key: {@link XmssVerifier}, an {@link HssVerifier}
     * with RFC 8554's rule (any lower trees), or {@link HaetaeVerifier} with the empty context
     * (pqsign's convention for telemetry). Certificate signatures are checked by
     * {@link CertificateChainVerifier}, which applies the X.509 convention instead.
     *
     * @return a new verifier
     */
    public Verifier verifier() {
        if (xmss != null) {
            return new XmssVerifier(xmss);
        }
        return hss != null ? HssVerifier.anyLowerLevels(hss) : new HaetaeVerifier(haetae);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PqPublicKey
                && Objects.equals(((PqPublicKey) o).xmss, xmss)
                && Objects.equals(((PqPublicKey) o).hss, hss)
                && Objects.equals(((PqPublicKey) o).haetae, haetae);
    }

    @Override
    public int hashCode() {
        return Objects.hash(xmss, hss, haetae);
    }

    @Override
    public String toString() {
        if (xmss != null) {
            return xmss.toString();
        }
        return hss != null ? hss.toString() : haetae.toString();
    }
}
