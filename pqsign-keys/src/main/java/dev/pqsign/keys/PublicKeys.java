package dev.pqsign.keys;

import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import java.util.Objects;
import java.util.Optional;

/** Public keys named by their parameter set, as formats outside a certificate carry them. */
public final class PublicKeys {
    /** Length of a key id: SHA-256 of the public key's standard encoding. */
    public static final int KEY_ID_BYTES = 32;

    private PublicKeys() {}

    /**
     * Decodes the standard encoding of a public key of the named set: for XMSS / XMSS^MT the RFC 8391
     * encoding (type code || root || PUB_SEED), for HAETAE the reference encoding.
     *
     * <p>The name must be spelt exactly as the set's name (the formats that carry it have one
     * spelling, so every decoded value re-encodes to the same bytes); lookups that forgive case are
     * for names people type, not for this.
     *
     * @param parameterSetName the set's exact name
     * @param encoding the public key's standard encoding
     * @return the public key
     * @throws KeyFormatException if the name is not a supported set's exact name or the encoding does not fit it
     */
    public static PqPublicKey decode(String parameterSetName, byte[] encoding) {
        Objects.requireNonNull(parameterSetName, "parameterSetName");
        Objects.requireNonNull(encoding, "encoding");
        PqPublicKey key = decodeAnyCase(parameterSetName, encoding);
        if (!key.parameterSet().setName().equals(parameterSetName)) {
            throw new KeyFormatException("parameter set '" + parameterSetName + "' is not spelt "
                    + key.parameterSet().setName());
        }
        return key;
    }

    private static PqPublicKey decodeAnyCase(String parameterSetName, byte[] encoding) {
        Optional<XmssParameterSet> xmss = XmssParameterSet.byName(parameterSetName);
        if (xmss.isPresent()) {
            return PqPublicKey.of(XmssPublicKey.decode(xmss.get(), encoding));
        }
        HaetaeParameterSet haetae;
        try {
            haetae = HaetaeParameterSet.fromName(parameterSetName);
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("unknown parameter set '" + parameterSetName + "'");
        }
        return PqPublicKey.of(HaetaePublicKey.fromEncoded(haetae, encoding));
    }

    /**
     * The key id of a public key: SHA-256 of its standard encoding.
     *
     * @param key the public key
     * @return the {@link #KEY_ID_BYTES}-byte key id, a new array
     */
    public static byte[] keyId(PqPublicKey key) {
        return Digests.sha256().digest(key.rawEncoding());
    }

    /**
     * The one-time index an XMSS / XMSS^MT signature carries in its first bytes (4 for XMSS,
     * ceil(h/8) for XMSS^MT, big-endian), or -1 for keys whose signatures carry none (HAETAE) and for
     * signatures too short to hold one.
     *
     * @param key the key the signature is under
     * @param signature the signature
     * @return the index, or -1
     */
    public static long embeddedIndex(PqPublicKey key, byte[] signature) {
        Optional<XmssPublicKey> xmss = key.xmss();
        if (xmss.isEmpty()) {
            return -1;
        }
        int bytes = xmss.get().parameterSet().indexBytes();
        if (signature.length < bytes || bytes > 7) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = (v << 8) | (signature[i] & 0xff);
        }
        return v;
    }
}
