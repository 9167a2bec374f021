package dev.pqsign.x509;

import dev.pqsign.core.ParameterSet;
import dev.pqsign.core.Signer;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssVerifier;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssVerifier;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;

/**
 * Signatures over X.509 "to be signed" structures (tbsCertificate, and in future tbsCertList).
 *
 * <p><b>XMSS / XMSS^MT</b> (RFC 9802 section 5): the whole DER structure is the message, no pre-hash.
 *
 * <p><b>HSS / LMS</b> (RFC 9708 section 5, RFC 9802): likewise the whole DER structure, no pre-hash;
 * the issuer's lower trees are whatever its signature names (RFC 8554's verification).
 *
 * <p><b>HAETAE</b> has no standard. pqsign follows BouncyCastle 1.87, the only other implementation
 * that puts HAETAE into certificates: mu = SHAKE256(vk || tbs), with no context-length byte. (pqsign's
 * own {@link HaetaeSigner} implements the reference context API, mu = SHAKE256(vk || len(ctx) || ctx
 * || M).) The HAETAE module exposes only the context API, so the BouncyCastle form is reached
 * through it exactly: a DER tbs starts with a SEQUENCE tag 0x30 = 48 and is longer than 49 bytes, so
 * passing ctx = tbs[1..49) and M = tbs[49..) makes the hashed input {@code vk || 48 || tbs[1..49) ||
 * tbs[49..)} = {@code vk || tbs}. A dedicated "no context byte" entry point in pqsign-haetae would be
 * cleaner; this needs none.
 */
public final class X509Signatures {
    private X509Signatures() {}

    /**
     * The signature algorithm OID for keys of {@code set}; refuses private-use XMSS sets.
     *
     * @param set the signing key's parameter set
     * @return the RFC 9802 family OID for XMSS / XMSS^MT, BouncyCastle's OID for HAETAE
     * @throws UnsupportedAlgorithmException for a private-use XMSS set or another scheme
     */
    public static ASN1ObjectIdentifier algorithmFor(ParameterSet set) {
        if (set instanceof XmssParameterSet) {
            XmssParameterSet x = (XmssParameterSet) set;
            PublicKeys.requireRegistered(x);
            return Oids.of(x.family());
        }
        if (set instanceof HaetaeParameterSet) {
            return Oids.of((HaetaeParameterSet) set);
        }
        if (set instanceof HssParameterSet) {
            return Oids.ID_ALG_HSS_LMS_HASHSIG;
        }
        throw new UnsupportedAlgorithmException("no X.509 signature algorithm for parameter set " + set.setName());
    }

    /**
     * Signs a DER tbs structure. For XMSS this consumes one index of the signer's durable state.
     *
     * @param signer an XMSS / XMSS^MT signer or a {@link HaetaeSigner}
     * @param tbs the DER tbsCertificate (or other tbs structure) to sign
     * @return the signature value
     * @throws IllegalArgumentException for HAETAE, if {@code tbs} is not a DER SEQUENCE long enough to
     *         be a tbs structure
     * @throws UnsupportedAlgorithmException if the signer is neither XMSS nor a {@link HaetaeSigner}
     */
    public static byte[] sign(Signer signer, byte[] tbs) {
        ParameterSet set = signer.parameterSet();
        algorithmFor(set);
        if (set instanceof XmssParameterSet || set instanceof HssParameterSet) {
            return signer.sign(tbs);
        }
        if (signer instanceof HaetaeSigner) {
            int split = haetaeSplit(tbs);
            if (split < 0) {
                throw new IllegalArgumentException("not a DER SEQUENCE long enough to be a tbs structure");
            }
            HaetaeSigner hs = (HaetaeSigner) signer;
            byte[] sig = new byte[set.signatureBytes()];
            hs.sign(tbs, split, tbs.length - split, java.util.Arrays.copyOfRange(tbs, 1, split), sig, 0);
            return sig;
        }
        throw new UnsupportedAlgorithmException(
                "cannot sign certificates with " + signer.getClass().getSimpleName() + " (" + set.setName()
                        + "); pqsign signs them with XMSS / XMSS^MT signers or HaetaeSigner");
    }

    /**
     * Verifies an X.509 signature over {@code tbs} by {@code key}. Never throws for bad signatures.
     *
     * @param key the issuer's public key
     * @param tbs the DER tbs structure the signature covers
     * @param signature the signature value
     * @return whether the signature is valid
     */
    public static boolean verify(PqPublicKey key, byte[] tbs, byte[] signature) {
        if (key.isXmss()) {
            return new XmssVerifier(key.xmss().orElseThrow()).verify(tbs, signature);
        }
        if (key.isHss()) {
            return HssVerifier.verifyAnyLowerLevels(key.hss().orElseThrow(), tbs, signature);
        }
        int split = haetaeSplit(tbs);
        if (split < 0) {
            return false;
        }
        HaetaeVerifier v = new HaetaeVerifier(key.haetae().orElseThrow());
        return v.verify(
                tbs,
                split,
                tbs.length - split,
                java.util.Arrays.copyOfRange(tbs, 1, split),
                signature,
                0,
                signature.length);
    }

    /** 1 + tbs[0] (where the "context" ends), or -1 if {@code tbs} cannot be expressed that way. */
    private static int haetaeSplit(byte[] tbs) {
        if (tbs.length == 0) {
            return -1;
        }
        int split = 1 + (tbs[0] & 0xff);
        return split <= tbs.length ? split : -1;
    }
}
