package dev.pqsign.telemetry.operator;

import dev.pqsign.core.Verifier;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssVerifier;

/** Turns a public key the operator trusts into the verifier's {@link ReadingVerifier.TrustedKey}. */
public final class TrustedKeys {
    private TrustedKeys() {}

    /**
     * Pins {@code key}: id = SHA-256 of its raw encoding, index prefix for XMSS / XMSS^MT.
     *
     * @param key the sensor's public key
     * @return the trusted key, with {@link EmbeddedIndex#NONE} for HAETAE
     */
    public static ReadingVerifier.TrustedKey of(PqPublicKey key) {
        EmbeddedIndex idx = key.xmss()
                .map(x -> EmbeddedIndex.bigEndianPrefix(x.parameterSet().indexBytes()))
                .orElse(EmbeddedIndex.NONE);
        // An operator verifies a stream of one sensor's signatures: XMSS^MT upper layers once per bottom tree.
        Verifier verifier =
                key.xmss().<Verifier>map(XmssVerifier::withUpperLayerCache).orElseGet(key::verifier);
        return ReadingVerifier.TrustedKey.forPublicKey(key.rawEncoding(), verifier, idx);
    }
}
