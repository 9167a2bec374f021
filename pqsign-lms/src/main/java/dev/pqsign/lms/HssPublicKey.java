package dev.pqsign.lms;

import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import java.util.Arrays;
import java.util.Objects;

/**
 * An HSS public key (RFC 8554 section 6.1): the number of levels L and the top tree's LMS public
 * key. It names only the top tree; each signature carries the public keys of the levels below.
 * Immutable.
 *
 * <p>Encoding: {@code u32(L) || u32(LMS type) || u32(LM-OTS type) || I || T[1]}, 28 + m bytes; the
 * same bytes are the BIT STRING of an X.509 SubjectPublicKeyInfo with id-alg-hss-lms-hashsig
 * (RFC 9708).
 */
public final class HssPublicKey {
    private final int levels;
    private final LmsPublicKey top;

    HssPublicKey(int levels, LmsPublicKey top) {
        if (levels < 1 || levels > HssParameterSet.MAX_LEVELS) {
            throw new IllegalArgumentException("an HSS key has 1 to 8 levels, got " + levels);
        }
        this.levels = levels;
        this.top = Objects.requireNonNull(top, "top");
    }

    /**
     * Decodes the RFC 8554 encoding strictly: L in 1 … 8, known type codes whose hash functions
     * match, exactly 28 + m bytes. The length is checked before anything is copied.
     *
     * @param encoded the HSS public key
     * @return the public key
     * @throws KeyFormatException if the bytes are not an HSS public key pqsign knows; the message
     *     says which field is wrong
     */
    public static HssPublicKey decode(byte[] encoded) {
        Objects.requireNonNull(encoded, "encoded");
        if (encoded.length < 4) {
            throw new KeyFormatException(
                    "HSS public key too short: " + encoded.length + " bytes, need at least 4 for L");
        }
        long l = Bytes.getInt(encoded, 0) & 0xffffffffL;
        if (l < 1 || l > HssParameterSet.MAX_LEVELS) {
            throw new KeyFormatException("HSS public key has L = " + l + " levels; RFC 8554 allows 1 to 8");
        }
        try {
            return new HssPublicKey((int) l, LmsPublicKey.decode(encoded, 4, encoded.length - 4));
        } catch (KeyFormatException e) {
            throw new KeyFormatException("HSS public key: " + e.getMessage(), e);
        }
    }

    /**
     * Decodes and checks that the key belongs to {@code params}: the same number of levels and the
     * same top tree.
     *
     * @param params the expected hierarchy
     * @param encoded the HSS public key
     * @return the public key
     * @throws KeyFormatException if the bytes are malformed or describe another hierarchy
     */
    public static HssPublicKey decode(HssParameterSet params, byte[] encoded) {
        HssPublicKey k = decode(encoded);
        if (!k.matches(params)) {
            throw new KeyFormatException("HSS public key is for L = " + k.levels + " with top tree "
                    + k.top.parameterSet().setName() + ", not for " + params.setName());
        }
        return k;
    }

    /**
     * Whether {@code params} has this key's number of levels and top tree.
     *
     * @param params a hierarchy
     * @return {@code true} if the key can be a key of {@code params}
     */
    public boolean matches(HssParameterSet params) {
        return params.levels() == levels && params.top() == top.parameterSet();
    }

    /**
     * Number of levels L.
     *
     * @return 1 … 8
     */
    public int levels() {
        return levels;
    }

    /**
     * The top tree's public key.
     *
     * @return the LMS public key of level 0
     */
    public LmsPublicKey top() {
        return top;
    }

    /**
     * The RFC 8554 encoding.
     *
     * @return a new array of 28 + m bytes
     */
    public byte[] encoded() {
        byte[] out = new byte[4 + top.parameterSet().publicKeyBytes()];
        Bytes.putInt(out, 0, levels);
        top.encodeInto(out, 4);
        return out;
    }

    /**
     * A short identity of the key: the first 16 bytes of SHA-256 over its encoding. Used to check
     * that a state file still holds this key.
     *
     * @return 16 bytes
     */
    public byte[] keyId() {
        return Arrays.copyOf(Digests.sha256().digest(encoded()), 16);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HssPublicKey k && k.levels == levels && k.top.equals(top);
    }

    @Override
    public int hashCode() {
        return 31 * levels + top.hashCode();
    }

    @Override
    public String toString() {
        return "HssPublicKey[L=" + levels + ", " + top.parameterSet().setName() + "]";
    }
}
