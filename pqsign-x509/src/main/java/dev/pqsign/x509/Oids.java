package dev.pqsign.x509;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.xmss.XmssParameterSet;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;

/**
 * Object identifiers pqsign writes into certificates and keys.
 *
 * <ul>
 * <li>XMSS and XMSS^MT: RFC 9802 section 2, {@code id-alg-xmss-hashsig} (1.3.6.1.5.5.7.6.34) and
 * {@code id-alg-xmssmt-hashsig} (1.3.6.1.5.5.7.6.35). One OID per family: the parameter set is
 * named by the 4-byte type code at the start of the key (and implied by it for signatures).</li>
 * <li>HSS / LMS: RFC 9708 section 3 and RFC 9802 section 2, {@code id-alg-hss-lms-hashsig}
 * (1.2.840.113549.1.9.16.3.17); the key names its top tree's types and the signature the rest.</li>
 * <li>HAETAE: no registered OID exists; these are the private-arc OIDs BouncyCastle 1.87 uses, one
 * per parameter set ({@link HaetaeParameterSet#oid()}).</li>
 * </ul>
 * For every one of them the AlgorithmIdentifier parameters are absent (not NULL).
 */
public final class Oids {
    /** id-alg-xmss-hashsig, RFC 9802. */
    public static final ASN1ObjectIdentifier ID_ALG_XMSS_HASHSIG = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.6.34");
    /** id-alg-xmssmt-hashsig, RFC 9802. */
    public static final ASN1ObjectIdentifier ID_ALG_XMSSMT_HASHSIG = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.6.35");
    /** id-alg-hss-lms-hashsig, RFC 9708 (and RFC 9802 for certificates). */
    public static final ASN1ObjectIdentifier ID_ALG_HSS_LMS_HASHSIG =
            new ASN1ObjectIdentifier("1.2.840.113549.1.9.16.3.17");
    /** HAETAE-2 as BouncyCastle 1.87 names it. */
    public static final ASN1ObjectIdentifier HAETAE_2 = new ASN1ObjectIdentifier(HaetaeParameterSet.HAETAE_2.oid());
    /** HAETAE-3 as BouncyCastle 1.87 names it. */
    public static final ASN1ObjectIdentifier HAETAE_3 = new ASN1ObjectIdentifier(HaetaeParameterSet.HAETAE_3.oid());
    /** HAETAE-5 as BouncyCastle 1.87 names it. */
    public static final ASN1ObjectIdentifier HAETAE_5 = new ASN1ObjectIdentifier(HaetaeParameterSet.HAETAE_5.oid());

    private Oids() {}

    /**
     * The RFC 9802 OID of an XMSS family.
     *
     * @param family XMSS or XMSS^MT
     * @return {@link #ID_ALG_XMSS_HASHSIG} or {@link #ID_ALG_XMSSMT_HASHSIG}
     */
    public static ASN1ObjectIdentifier of(XmssParameterSet.Family family) {
        return family == XmssParameterSet.Family.XMSS ? ID_ALG_XMSS_HASHSIG : ID_ALG_XMSSMT_HASHSIG;
    }

    /**
     * The OID of a HAETAE parameter set.
     *
     * @param set HAETAE-2, -3 or -5
     * @return an OID equal to {@link #HAETAE_2}, {@link #HAETAE_3} or {@link #HAETAE_5}
     */
    public static ASN1ObjectIdentifier of(HaetaeParameterSet set) {
        return new ASN1ObjectIdentifier(set.oid());
    }

    /**
     * An AlgorithmIdentifier with absent parameters, as RFC 9802 requires (and BouncyCastle writes for HAETAE).
     *
     * @param oid the algorithm
     * @return the AlgorithmIdentifier without parameters
     */
    public static AlgorithmIdentifier algorithmIdentifier(ASN1ObjectIdentifier oid) {
        return new AlgorithmIdentifier(oid);
    }

    /** Whether {@code oid} is id-alg-hss-lms-hashsig. */
    static boolean isHss(ASN1ObjectIdentifier oid) {
        return ID_ALG_HSS_LMS_HASHSIG.equals(oid);
    }

    /** The HAETAE set with this OID, or {@code null}. */
    static HaetaeParameterSet haetaeSet(ASN1ObjectIdentifier oid) {
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            if (p.oid().equals(oid.getId())) {
                return p;
            }
        }
        return null;
    }

    /** The XMSS family with this OID, or {@code null}. */
    static XmssParameterSet.Family xmssFamily(ASN1ObjectIdentifier oid) {
        if (ID_ALG_XMSS_HASHSIG.equals(oid)) {
            return XmssParameterSet.Family.XMSS;
        }
        if (ID_ALG_XMSSMT_HASHSIG.equals(oid)) {
            return XmssParameterSet.Family.XMSSMT;
        }
        return null;
    }

    /**
     * A readable name for an OID pqsign knows, else the dotted form.
     *
     * @param oid any OID
     * @return e.g. {@code id-alg-xmss-hashsig (1.3.6.1.5.5.7.6.34)}
     */
    public static String describe(ASN1ObjectIdentifier oid) {
        if (ID_ALG_XMSS_HASHSIG.equals(oid)) {
            return "id-alg-xmss-hashsig (" + oid.getId() + ")";
        }
        if (ID_ALG_XMSSMT_HASHSIG.equals(oid)) {
            return "id-alg-xmssmt-hashsig (" + oid.getId() + ")";
        }
        if (ID_ALG_HSS_LMS_HASHSIG.equals(oid)) {
            return "id-alg-hss-lms-hashsig (" + oid.getId() + ")";
        }
        HaetaeParameterSet h = haetaeSet(oid);
        if (h != null) {
            return h.setName() + " (" + oid.getId() + ", BouncyCastle private arc)";
        }
        return oid.getId();
    }
}
