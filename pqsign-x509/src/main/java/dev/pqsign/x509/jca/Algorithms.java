package dev.pqsign.x509.jca;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.PqSignException;
import dev.pqsign.core.Secrets;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.x509.Oids;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.IOException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.InvalidKeySpecException;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1InputStream;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;

/**
 * Which keys a KeyFactory or Signature instance accepts: one XMSS family, HSS / LMS, one HAETAE set,
 * or any HAETAE set. Also the shared key conversion code.
 */
final class Algorithms {
    /** XMSS family, or null. */
    final XmssParameterSet.Family family;
    /** Required HAETAE set; null with {@link #anyHaetae} for "any set". */
    final HaetaeParameterSet haetae;

    final boolean anyHaetae;
    /** HSS / LMS keys. */
    final boolean hss;

    final String name;

    private Algorithms(
            String name, XmssParameterSet.Family family, HaetaeParameterSet haetae, boolean anyHaetae, boolean hss) {
        this.name = name;
        this.family = family;
        this.haetae = haetae;
        this.anyHaetae = anyHaetae;
        this.hss = hss;
    }

    /** The JDK's name for HSS / LMS (SUN provider, Java 21+), also pqsign's. */
    static final String HSS_LMS = "HSS/LMS";

    static Algorithms hssLms() {
        return new Algorithms(HSS_LMS, null, null, false, true);
    }

    static Algorithms xmss(XmssParameterSet.Family f) {
        return new Algorithms(f == XmssParameterSet.Family.XMSS ? "XMSS" : "XMSSMT", f, null, false, false);
    }

    static Algorithms haetae(HaetaeParameterSet set) {
        return new Algorithms(set.setName(), null, set, false, false);
    }

    static Algorithms anyHaetae() {
        return new Algorithms("HAETAE", null, null, true, false);
    }

    boolean isXmss() {
        return family != null;
    }

    /** XMSS or HSS: private keys are never imported or exported (SP 800-208). */
    boolean isStateful() {
        return family != null || hss;
    }

    /** {@code true} if this instance handles keys of {@code key}'s algorithm. */
    boolean accepts(PqPublicKey key) {
        if (family != null) {
            return key.isXmss() && key.xmss().orElseThrow().parameterSet().family() == family;
        }
        if (hss) {
            return key.isHss();
        }
        return key.haetae().isPresent() && (anyHaetae || key.parameterSet() == haetae);
    }

    boolean accepts(HaetaeParameterSet set) {
        return family == null && !hss && (anyHaetae || set == haetae);
    }

    /** Decodes an X.509 SubjectPublicKeyInfo into a key this instance accepts. */
    PqSignPublicKey publicFromX509(byte[] der) throws InvalidKeySpecException {
        PqPublicKey k;
        try {
            k = PublicKeys.decode(withoutNullParameters(der));
        } catch (PqSignException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        }
        if (!accepts(k)) {
            throw new InvalidKeySpecException(
                    "a " + PqSignPublicKey.algorithmName(k) + " key is not a " + name + " key");
        }
        return new PqSignPublicKey(k);
    }

    /**
     * Decodes PKCS#8. XMSS private keys are refused: they are never exported (SP 800-208). HAETAE
     * accepts BouncyCastle's form (OCTET STRING inside the privateKey OCTET STRING) and the bare key.
     */
    PqSignHaetaePrivateKey privateFromPkcs8(byte[] der) throws InvalidKeySpecException {
        if (family != null) {
            throw new InvalidKeySpecException(name + " private keys are not imported or exported (NIST SP 800-208: a "
                    + "copy could reuse one-time keys); open the key's state file with XmssStatefulSigner and use "
                    + "new XmssStatefulPrivateKey(signer)");
        }
        if (hss) {
            throw new InvalidKeySpecException(name + " private keys are not imported or exported (NIST SP 800-208: a "
                    + "copy could reuse one-time keys); open the key's state file with HssStatefulSigner and use "
                    + "new HssStatefulPrivateKey(signer)");
        }
        PrivateKeyInfo info;
        try (ASN1InputStream in = new ASN1InputStream(der)) {
            ASN1Primitive p = in.readObject();
            if (p == null || in.available() != 0) {
                throw new InvalidKeySpecException("PKCS#8 data must be exactly one DER structure");
            }
            info = PrivateKeyInfo.getInstance(p);
        } catch (IOException | RuntimeException e) {
            throw new InvalidKeySpecException("not a PKCS#8 PrivateKeyInfo: " + e.getMessage(), e);
        }
        HaetaeParameterSet set =
                haetaeSet(info.getPrivateKeyAlgorithm().getAlgorithm().getId());
        if (set == null) {
            throw new InvalidKeySpecException("PKCS#8 algorithm "
                    + Oids.describe(info.getPrivateKeyAlgorithm().getAlgorithm()) + " is not HAETAE");
        }
        if (!accepts(set)) {
            throw new InvalidKeySpecException("a " + set.setName() + " key is not a " + name + " key");
        }
        ASN1Encodable params = info.getPrivateKeyAlgorithm().getParameters();
        if (params != null) {
            throw new InvalidKeySpecException(set.setName() + " PKCS#8 algorithm parameters must be absent");
        }
        byte[] octets = info.getPrivateKey().getOctets();
        byte[] sk = null;
        try {
            sk = unwrap(octets, set.privateKeyBytes());
            if (sk == null) {
                throw new InvalidKeySpecException(set.setName() + " private key must be " + set.privateKeyBytes()
                        + " bytes (optionally in a DER OCTET STRING), got " + octets.length + " bytes");
            }
            return new PqSignHaetaePrivateKey(HaetaePrivateKey.fromEncoded(set, sk));
        } catch (KeyFormatException e) {
            throw new InvalidKeySpecException(e.getMessage(), e);
        } finally {
            Secrets.wipe(octets, sk);
        }
    }

    private static byte[] unwrap(byte[] octets, int expected) {
        if (octets.length == expected) {
            return octets.clone();
        }
        try (ASN1InputStream in = new ASN1InputStream(octets)) {
            ASN1Primitive p = in.readObject();
            if (p instanceof org.bouncycastle.asn1.ASN1OctetString && in.available() == 0) {
                byte[] inner = ((org.bouncycastle.asn1.ASN1OctetString) p).getOctets();
                if (inner.length == expected && java.util.Arrays.equals(p.getEncoded(ASN1Encoding.DER), octets)) {
                    return inner;
                }
                Secrets.wipe(inner);
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    static HaetaeParameterSet haetaeSet(String oid) {
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            if (p.oid().equals(oid)) {
                return p;
            }
        }
        return null;
    }

    /** Our public key for any JCA public key with an X.509 encoding (e.g. BouncyCastle's). */
    PqSignPublicKey translatePublic(PublicKey key) throws InvalidKeyException {
        if (key instanceof PqSignPublicKey) {
            PqSignPublicKey k = (PqSignPublicKey) key;
            if (!accepts(k.pqPublicKey())) {
                throw new InvalidKeyException("a " + k.getAlgorithm() + " key cannot be used with " + name);
            }
            return k;
        }
        if (key == null || !"X.509".equalsIgnoreCase(key.getFormat()) || key.getEncoded() == null) {
            throw new InvalidKeyException(name + " needs a public key with an X.509 encoding, got "
                    + (key == null ? "null" : key.getClass().getName()));
        }
        try {
            return publicFromX509(key.getEncoded());
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        }
    }

    /**
     * Drops a NULL AlgorithmIdentifier parameter. The JDK's CertificateFactory re-encodes the
     * certificate's key with NULL parameters before handing it to the installed KeyFactory for the OID
     * (and its generic {@code X509Key} keeps the NULL); refusing it would make the JDK unable to parse
     * RFC 9802 certificates once this provider is installed. Certificates and
     * {@link PublicKeys#decode} stay strict.
     */
    private static byte[] withoutNullParameters(byte[] spki) {
        try {
            org.bouncycastle.asn1.x509.SubjectPublicKeyInfo info =
                    org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(spki);
            if (org.bouncycastle.asn1.DERNull.INSTANCE.equals(
                    info.getAlgorithm().getParameters())) {
                return new org.bouncycastle.asn1.x509.SubjectPublicKeyInfo(
                                new org.bouncycastle.asn1.x509.AlgorithmIdentifier(
                                        info.getAlgorithm().getAlgorithm()),
                                info.getPublicKeyData())
                        .getEncoded(ASN1Encoding.DER);
            }
        } catch (IOException | RuntimeException e) {
            // Not parseable here: let the strict decoder report what is wrong.
        }
        return spki;
    }

    /** Our HAETAE private key for a PKCS#8-encoded HAETAE key from any provider. */
    PqSignHaetaePrivateKey translateHaetaePrivate(PrivateKey key) throws InvalidKeyException {
        if (key instanceof PqSignHaetaePrivateKey) {
            PqSignHaetaePrivateKey k = (PqSignHaetaePrivateKey) key;
            if (!accepts(k.haetaePrivateKey().parameterSet())) {
                throw new InvalidKeyException("a " + k.getAlgorithm() + " key cannot be used with " + name);
            }
            return k;
        }
        byte[] enc = key == null ? null : key.getEncoded();
        if (enc == null || !"PKCS#8".equalsIgnoreCase(key.getFormat())) {
            throw new InvalidKeyException(name + " needs a HAETAE private key in PKCS#8 form, got "
                    + (key == null ? "null" : key.getClass().getName()));
        }
        try {
            return privateFromPkcs8(enc);
        } catch (InvalidKeySpecException e) {
            throw new InvalidKeyException(e.getMessage(), e);
        } finally {
            Secrets.wipe(enc);
        }
    }

    static String describe(Key key) {
        return key == null ? "null" : key.getAlgorithm() + " (" + key.getClass().getSimpleName() + ")";
    }
}
