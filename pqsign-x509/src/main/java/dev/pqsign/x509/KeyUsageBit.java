package dev.pqsign.x509;

import org.bouncycastle.asn1.x509.KeyUsage;

/** The nine key usage bits of RFC 5280 section 4.2.1.3. */
public enum KeyUsageBit {
    /** digitalSignature (bit 0): signatures on data other than certificates and CRLs. */
    DIGITAL_SIGNATURE(KeyUsage.digitalSignature, true),
    /** nonRepudiation, also called contentCommitment (bit 1). */
    NON_REPUDIATION(KeyUsage.nonRepudiation, true),
    /** keyEncipherment (bit 2); not allowed for a signature-only key. */
    KEY_ENCIPHERMENT(KeyUsage.keyEncipherment, false),
    /** dataEncipherment (bit 3); not allowed for a signature-only key. */
    DATA_ENCIPHERMENT(KeyUsage.dataEncipherment, false),
    /** keyAgreement (bit 4); not allowed for a signature-only key. */
    KEY_AGREEMENT(KeyUsage.keyAgreement, false),
    /** keyCertSign (bit 5): signatures on certificates; CA certificates only. */
    KEY_CERT_SIGN(KeyUsage.keyCertSign, true),
    /** cRLSign (bit 6): signatures on revocation lists. */
    CRL_SIGN(KeyUsage.cRLSign, true),
    /** encipherOnly (bit 7); not allowed for a signature-only key. */
    ENCIPHER_ONLY(KeyUsage.encipherOnly, false),
    /** decipherOnly (bit 8); not allowed for a signature-only key. */
    DECIPHER_ONLY(KeyUsage.decipherOnly, false);

    private final int mask;
    private final boolean signing;

    KeyUsageBit(int mask, boolean signing) {
        this.mask = mask;
        this.signing = signing;
    }

    /**
     * The RFC 5280 name.
     *
     * @return e.g. {@code digitalSignature}, {@code keyCertSign}
     */
    public String rfcName() {
        String[] words = name().toLowerCase(java.util.Locale.ROOT).split("_");
        StringBuilder sb = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            sb.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return this == CRL_SIGN ? "cRLSign" : sb.toString();
    }

    /** BouncyCastle's bit mask for this usage. */
    int mask() {
        return mask;
    }

    /**
     * {@code true} for the four usages a signature-only key may carry (RFC 9802 section 4 for XMSS;
     * pqsign applies the same rule to HAETAE, which cannot encrypt or agree keys either).
     *
     * @return whether this usage is allowed for a signature-only key
     */
    public boolean isSigningUsage() {
        return signing;
    }
}
