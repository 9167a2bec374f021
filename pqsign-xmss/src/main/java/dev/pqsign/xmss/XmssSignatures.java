package dev.pqsign.xmss;

/** Reads fields of encoded XMSS / XMSS^MT signatures without verifying them. */
public final class XmssSignatures {
    private XmssSignatures() {}

    /**
     * The leaf index at the start of {@code signature} (big-endian, {@link XmssParameterSet#indexBytes()}
     * bytes).
     *
     * @param params the parameter set the signature claims to be of
     * @param signature an encoded signature; not verified
     * @return the index, or -1 if the signature has the wrong length or the index is 2^h or more
     */
    public static long index(XmssParameterSet params, byte[] signature) {
        if (signature.length != params.signatureBytes()) {
            return -1;
        }
        long idx = 0;
        for (int i = 0; i < params.indexBytes(); i++) {
            idx = (idx << 8) | (signature[i] & 0xff);
        }
        return idx < params.maxSignatures() ? idx : -1;
    }
}
