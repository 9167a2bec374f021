package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.lms.HssPublicKey;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The content of a public key file ({@code key.pub}) and what set it belongs to: an RFC 8391 XMSS /
 * XMSS^MT key (type code || root || PUB_SEED), a raw {@code root || PUB_SEED} when the set is named,
 * an RFC 8554 HSS public key (L || LMS type || LM-OTS type || I || root), or a HAETAE key in the
 * reference encoding, recognised by its length.
 */
public final class PublicKeyFile {
    private PublicKeyFile() {}

    /**
     * The key of the named set: for XMSS / XMSS^MT the RFC 8391 encoding or, when the content is
     * exactly {@code 2n} bytes, the raw {@code root || PUB_SEED}; for LMS / HSS the RFC 8554 HSS
     * public key, whose L and top tree must be the set's; for HAETAE the reference encoding.
     *
     * @param scheme the set the key belongs to
     * @param content the file's content
     * @return the public key
     * @throws KeyFormatException if the content does not fit the set
     */
    public static PqPublicKey decode(SignatureScheme scheme, byte[] content) {
        if (scheme instanceof XmssScheme x) {
            XmssParameterSet p = x.parameterSet();
            return PqPublicKey.of(
                    content.length == 2 * p.n()
                            ? XmssPublicKey.decodeRaw(p, content)
                            : XmssPublicKey.decode(p, content));
        }
        if (scheme instanceof HssScheme h) {
            return PqPublicKey.of(HssPublicKey.decode(h.parameterSet(), content));
        }
        return PqPublicKey.of(HaetaePublicKey.fromEncoded(((HaetaeScheme) scheme).parameterSet(), content));
    }

    /**
     * The key, its set found from the content alone.
     *
     * @param content the file's content
     * @return the public key
     * @throws AmbiguousPublicKeyException if its type code is shared by more than one XMSS / XMSS^MT set
     * @throws KeyFormatException if no set fits
     */
    public static PqPublicKey detect(byte[] content) {
        List<XmssParameterSet> candidates = XmssPublicKey.candidates(content);
        if (candidates.size() > 1) {
            throw new AmbiguousPublicKeyException(candidates);
        }
        return candidates.isEmpty()
                ? hssOrHaetae(content)
                : PqPublicKey.of(XmssPublicKey.decode(candidates.get(0), content));
    }

    /**
     * The key that is to verify a signature of {@code signatureLength} bytes, its set found from the
     * content: where an XMSS and an XMSS^MT set share the type code, the set whose signatures have
     * that length (the first candidate if none has).
     *
     * @param content the file's content
     * @param signatureLength the length in bytes of the signature to verify
     * @return the public key
     * @throws KeyFormatException if no set fits
     */
    public static PqPublicKey detectForSignature(byte[] content, int signatureLength) {
        List<XmssParameterSet> candidates = XmssPublicKey.candidates(content);
        if (candidates.isEmpty()) {
            return hssOrHaetae(content);
        }
        XmssParameterSet chosen = null;
        for (XmssParameterSet c : candidates) {
            if (c.signatureBytes() == signatureLength) {
                chosen = c;
            }
        }
        return PqPublicKey.of(XmssPublicKey.decode(chosen == null ? candidates.get(0) : chosen, content));
    }

    /**
     * An HSS public key if the content is exactly one (28 + m bytes with valid L and type codes; no
     * HAETAE key is that short), else a HAETAE key by its length.
     */
    private static PqPublicKey hssOrHaetae(byte[] content) {
        try {
            return PqPublicKey.of(HssPublicKey.decode(content));
        } catch (KeyFormatException e) {
            return haetae(content);
        }
    }

    private static PqPublicKey haetae(byte[] content) {
        for (HaetaeParameterSet h : HaetaeParameterSet.values()) {
            if (h.publicKeyBytes() == content.length) {
                return PqPublicKey.of(HaetaePublicKey.fromEncoded(h, content));
            }
        }
        throw new KeyFormatException("not a recognised public key (" + content.length
                + " bytes, no known XMSS type code, HSS key or HAETAE key length); give --params for a raw key");
    }

    /**
     * {@code true} if {@code content} starts like a PEM file ({@code -----BEGIN}), such as a certificate.
     *
     * @param content the file's content
     * @return whether its first 64 bytes, leading blanks skipped, start with {@code -----BEGIN}
     */
    public static boolean looksLikePem(byte[] content) {
        String head = new String(content, 0, Math.min(content.length, 64), StandardCharsets.US_ASCII);
        return head.stripLeading().startsWith("-----BEGIN");
    }
}
