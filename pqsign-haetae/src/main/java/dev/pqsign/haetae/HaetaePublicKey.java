package dev.pqsign.haetae;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import java.util.Arrays;

/**
 * A HAETAE verification key in the reference encoding {@code vk = rho (32) || b}: for HAETAE-2/3
 * b is k polynomials of 15-bit coefficients (480 bytes each); for HAETAE-5 it is NTT(-2b), k
 * polynomials of 16-bit little-endian coefficients in [0, q) (512 bytes each). Immutable.
 */
public final class HaetaePublicKey {
    private final HaetaeParameterSet params;
    private final byte[] encoded;

    private HaetaePublicKey(HaetaeParameterSet params, byte[] encoded) {
        this.params = params;
        this.encoded = encoded;
    }

    /**
     * Parses a public key of the given set.
     *
     * @param params the set the key belongs to
     * @param encoded the reference encoding {@code rho || b}; copied
     * @return the public key
     * @throws KeyFormatException if the length is wrong or a HAETAE-5 coefficient is not below q
     */
    public static HaetaePublicKey fromEncoded(HaetaeParameterSet params, byte[] encoded) {
        if (encoded.length != params.pkBytes) {
            throw new KeyFormatException(
                    params.setName() + " public key must be " + params.pkBytes + " bytes, got " + encoded.length);
        }
        byte[] copy = encoded.clone();
        check(params, copy, 0);
        return new HaetaePublicKey(params, copy);
    }

    /**
     * Parses a public key, identifying the set by the length (992, 1472 or 2080 bytes).
     *
     * @param encoded the reference encoding {@code rho || b}; copied
     * @return the public key
     * @throws KeyFormatException if no set has keys of that length or a HAETAE-5 coefficient is not below q
     */
    public static HaetaePublicKey fromEncoded(byte[] encoded) {
        HaetaeParameterSet p = HaetaeParameterSet.byPublicKeyLength(encoded.length);
        if (p == null) {
            throw new KeyFormatException(
                    "no HAETAE parameter set has " + encoded.length + "-byte public keys (expected 992, 1472 or 2080)");
        }
        return fromEncoded(p, encoded);
    }

    /** Range checks shared with private key parsing (the public key is a prefix of sk). */
    static void check(HaetaeParameterSet p, byte[] b, int off) {
        if (!p.roundedKey()) {
            for (int i = 0; i < p.k * HaetaeParameterSet.N; i++) {
                int o = off + HaetaeParameterSet.SEEDBYTES + 2 * i;
                int v = (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
                if (v >= HaetaeParameterSet.Q) {
                    throw new KeyFormatException(p.setName() + " public key coefficient " + i + " is " + v
                            + ", expected below q = " + HaetaeParameterSet.Q);
                }
            }
        }
    }

    static HaetaePublicKey trusted(HaetaeParameterSet p, byte[] encoded) {
        return new HaetaePublicKey(p, encoded);
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
     * The reference encoding.
     *
     * @return a fresh copy of {@code rho || b}
     */
    public byte[] getEncoded() {
        return encoded.clone();
    }

    byte[] encodedRef() {
        return encoded;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HaetaePublicKey
                && ((HaetaePublicKey) o).params == params
                && Arrays.equals(((HaetaePublicKey) o).encoded, encoded);
    }

    @Override
    public int hashCode() {
        return params.hashCode() * 31 + Arrays.hashCode(encoded);
    }

    /** Set name and the first 8 bytes of rho, e.g. {@code HaetaePublicKey[HAETAE-2, rho=1c0ee111...]}. */
    @Override
    public String toString() {
        return "HaetaePublicKey[" + params.setName() + ", rho=" + Hex.encode(encoded, 0, 8) + "...]";
    }
}
