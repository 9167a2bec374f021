package dev.pqsign.x509;

import java.io.IOException;
import java.util.Arrays;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1InputStream;
import org.bouncycastle.asn1.ASN1Primitive;

/** Strict DER parsing: exactly one object, no trailing bytes, and the canonical DER encoding. */
final class Der {
    private Der() {}

    /**
     * Parses {@code der} as exactly one DER object.
     *
     * @param what names the structure in error messages, e.g. "certificate"
     * @throws CertificateFormatException if the bytes are empty, truncated, followed by trailing
     *         bytes, or BER rather than DER (a signature covers the exact bytes, so a re-encoding that
     *         differs would silently verify something else)
     */
    static ASN1Primitive parse(byte[] der, String what) {
        if (der.length == 0) {
            throw new CertificateFormatException(what + ": no bytes");
        }
        ASN1Primitive obj;
        int trailing;
        try (ASN1InputStream in = new ASN1InputStream(der)) {
            obj = in.readObject();
            if (obj == null) {
                throw new CertificateFormatException(what + ": no ASN.1 object in " + der.length + " bytes");
            }
            trailing = in.available();
        } catch (IOException | RuntimeException e) {
            if (e instanceof CertificateFormatException) {
                throw (CertificateFormatException) e;
            }
            throw new CertificateFormatException(
                    what + " is not valid DER (truncated or corrupt): " + e.getMessage(), e);
        }
        if (trailing > 0) {
            throw new CertificateFormatException(
                    what + " has " + trailing + " trailing byte(s) after the ASN.1 object");
        }
        byte[] canonical;
        try {
            canonical = obj.getEncoded(ASN1Encoding.DER);
        } catch (IOException e) {
            throw new CertificateFormatException(what + " cannot be re-encoded as DER: " + e.getMessage(), e);
        }
        if (!Arrays.equals(canonical, der)) {
            throw new CertificateFormatException(what + " is BER, not DER (e.g. indefinite or non-minimal lengths); "
                    + "X.509 signatures cover the DER bytes, so pqsign only reads DER");
        }
        return obj;
    }
}
