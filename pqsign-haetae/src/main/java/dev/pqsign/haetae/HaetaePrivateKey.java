package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYETA_PACKEDBYTES;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import java.util.Arrays;
import javax.security.auth.Destroyable;

/**
 * A HAETAE signing key in the reference encoding {@code sk = vk || s1 || s2 || K}: the public key,
 * m = l - 1 polynomials of 2-bit coefficients (1 - s), k polynomials of 3-bit (2 - s, HAETAE-2/3) or
 * 2-bit (HAETAE-5) coefficients, and the 32-byte signing seed K. {@link #toString()} never shows
 * secret bytes; {@link #destroy()} wipes the copy held here.
 */
public final class HaetaePrivateKey implements Destroyable {
    private final HaetaeParameterSet params;
    private final byte[] encoded;
    private final HaetaePublicKey publicKey;
    private volatile boolean destroyed;

    private HaetaePrivateKey(HaetaeParameterSet params, byte[] encoded) {
        this.params = params;
        this.encoded = encoded;
        this.publicKey = HaetaePublicKey.trusted(params, Arrays.copyOf(encoded, params.pkBytes));
    }

    /**
     * Parses a private key of the given set. The input is copied; wipe your array afterwards if it
     * should not linger.
     *
     * @param params the set the key belongs to
     * @param encoded the reference encoding {@code vk || s1 || s2 || K}
     * @return the private key
     * @throws KeyFormatException on a wrong length or an out-of-range secret coefficient
     */
    public static HaetaePrivateKey fromEncoded(HaetaeParameterSet params, byte[] encoded) {
        if (encoded.length != params.skBytes) {
            throw new KeyFormatException(
                    params.setName() + " private key must be " + params.skBytes + " bytes, got " + encoded.length);
        }
        HaetaePublicKey.check(params, encoded, 0);
        int o = params.pkBytes;
        for (int i = 0; i < params.m * POLYETA_PACKEDBYTES * 4; i++) {
            int v = (encoded[o + i / 4] >>> (2 * (i % 4))) & 3;
            if (v == 3) {
                throw new KeyFormatException(
                        params.setName() + " private key: s1 coefficient " + i + " is out of range");
            }
        }
        o += params.m * POLYETA_PACKEDBYTES;
        int perPolyBits = params.roundedKey() ? 3 : 2;
        int limit = params.roundedKey() ? 4 : 2;
        for (int i = 0; i < params.k * N; i++) {
            int bit = i * perPolyBits;
            int v = ((encoded[o + bit / 8] & 0xff)
                            | (bit / 8 + 1 < params.k * params.poly2EtaPackedBytes
                                    ? (encoded[o + bit / 8 + 1] & 0xff) << 8
                                    : 0))
                    >>> (bit % 8);
            v &= (1 << perPolyBits) - 1;
            if (v > limit) {
                throw new KeyFormatException(
                        params.setName() + " private key: s2 coefficient " + i + " is out of range");
            }
        }
        return new HaetaePrivateKey(params, encoded.clone());
    }

    static HaetaePrivateKey trusted(HaetaeParameterSet params, byte[] encoded) {
        return new HaetaePrivateKey(params, encoded);
    }

    /**
     * The parameter set this key belongs to.
     *
     * @return the parameter set
     */
    public HaetaeParameterSet parameterSet() {
        return params;
    }

    /**
     * The matching public key (the prefix of the encoding); still available after {@link #destroy()}.
     *
     * @return the public key
     */
    public HaetaePublicKey publicKey() {
        return publicKey;
    }

    /**
     * The reference encoding, a fresh copy the caller must wipe.
     *
     * @return {@code vk || s1 || s2 || K}
     * @throws IllegalStateException if the key was destroyed
     */
    public byte[] getEncoded() {
        ensureLive();
        return encoded.clone();
    }

    byte[] encodedRef() {
        ensureLive();
        return encoded;
    }

    /** Wipes the secret bytes; later use throws {@link IllegalStateException}. */
    @Override
    public void destroy() {
        destroyed = true;
        Secrets.wipe(encoded);
    }

    /** Whether {@link #destroy()} was called. */
    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    private void ensureLive() {
        if (destroyed) {
            throw new IllegalStateException("HAETAE private key has been destroyed");
        }
    }

    /** Names the set and the public key only. */
    @Override
    public String toString() {
        return "HaetaePrivateKey[" + params.setName() + ", public " + publicKey + (destroyed ? ", destroyed" : "")
                + "]";
    }
}
