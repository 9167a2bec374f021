package dev.pqsign.lms;

import dev.pqsign.core.KeyFormatException;
import java.util.Arrays;
import java.util.Optional;

/**
 * The public key of one LMS tree (RFC 8554 section 5.3): its parameter set, the 16-byte identifier
 * I and the root T[1]. Immutable; the accessors return copies.
 *
 * <p>Encoding: {@code u32(LMS type) || u32(LM-OTS type) || I || T[1]}, 24 + m bytes.
 */
public final class LmsPublicKey {
    /** Length of the identifier I. */
    public static final int ID_BYTES = 16;

    private final LmsParameterSet params;
    private final byte[] id;
    private final byte[] root;

    LmsPublicKey(LmsParameterSet params, byte[] id, byte[] root) {
        if (id.length != ID_BYTES || root.length != params.n()) {
            throw new IllegalArgumentException(params.setName() + " public key needs a 16-byte I and a " + params.n()
                    + "-byte root, got " + id.length + " and " + root.length);
        }
        this.params = params;
        this.id = id.clone();
        this.root = root.clone();
    }

    /**
     * Decodes the encoding at {@code b[off..off+len)} strictly: known type codes whose hash functions
     * match, and exactly 24 + m bytes.
     *
     * @param b the bytes
     * @param off where the key starts
     * @param len how many bytes belong to it
     * @return the public key
     * @throws KeyFormatException if the bytes are not an LMS public key pqsign knows
     */
    static LmsPublicKey decode(byte[] b, int off, int len) {
        LmsParameterSet p = parseTypes(b, off, len).orElseThrow(() -> new KeyFormatException(typeError(b, off, len)));
        if (len != p.publicKeyBytes()) {
            throw new KeyFormatException(
                    p.setName() + " public key must be " + p.publicKeyBytes() + " bytes, got " + len);
        }
        return new LmsPublicKey(
                p,
                Arrays.copyOfRange(b, off + 8, off + 8 + ID_BYTES),
                Arrays.copyOfRange(b, off + 8 + ID_BYTES, off + len));
    }

    /**
     * Decodes an LMS public key.
     *
     * @param encoded {@code u32(LMS type) || u32(LM-OTS type) || I || T[1]}
     * @return the public key
     * @throws KeyFormatException if the bytes are not an LMS public key pqsign knows
     */
    public static LmsPublicKey decode(byte[] encoded) {
        return decode(encoded, 0, encoded.length);
    }

    /** The parameter set named by the two type codes at {@code b[off..]}, if both are known and match. */
    static Optional<LmsParameterSet> parseTypes(byte[] b, int off, int len) {
        if (len < 8) {
            return Optional.empty();
        }
        Optional<LmsType> lms = LmsType.byTypeCode(Bytes.getInt(b, off));
        Optional<LmOtsType> ots = LmOtsType.byTypeCode(Bytes.getInt(b, off + 4));
        if (lms.isEmpty() || ots.isEmpty()) {
            return Optional.empty();
        }
        return LmsParameterSet.find(lms.get(), ots.get());
    }

    private static String typeError(byte[] b, int off, int len) {
        if (len < 8) {
            return "LMS public key too short: " + len + " bytes, need at least 8 for its type codes";
        }
        int lmsCode = Bytes.getInt(b, off);
        int otsCode = Bytes.getInt(b, off + 4);
        Optional<LmsType> lms = LmsType.byTypeCode(lmsCode);
        Optional<LmOtsType> ots = LmOtsType.byTypeCode(otsCode);
        if (lms.isEmpty()) {
            return "unknown LMS type code 0x" + String.format("%08x", lmsCode);
        }
        if (ots.isEmpty()) {
            return "unknown LM-OTS type code 0x" + String.format("%08x", otsCode);
        }
        return lms.get().name() + " and " + ots.get().name() + " use different hash functions ("
                + lms.get().hash().displayName() + ", " + ots.get().hash().displayName() + ")";
    }

    /**
     * The tree's parameter set.
     *
     * @return the LMS and LM-OTS types
     */
    public LmsParameterSet parameterSet() {
        return params;
    }

    /**
     * The identifier I.
     *
     * @return a copy of the 16 bytes
     */
    public byte[] identifier() {
        return id.clone();
    }

    /**
     * The root T[1].
     *
     * @return a copy of the m bytes
     */
    public byte[] root() {
        return root.clone();
    }

    byte[] idRef() {
        return id;
    }

    byte[] rootRef() {
        return root;
    }

    /**
     * The RFC 8554 encoding.
     *
     * @return a new array of 24 + m bytes
     */
    public byte[] encoded() {
        byte[] out = new byte[params.publicKeyBytes()];
        encodeInto(out, 0);
        return out;
    }

    void encodeInto(byte[] out, int off) {
        Bytes.putInt(out, off, params.lmsType().typeCode());
        Bytes.putInt(out, off + 4, params.otsType().typeCode());
        System.arraycopy(id, 0, out, off + 8, ID_BYTES);
        System.arraycopy(root, 0, out, off + 8 + ID_BYTES, root.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LmsPublicKey k
                && k.params == params
                && Arrays.equals(k.id, id)
                && Arrays.equals(k.root, root);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * params.hashCode() + Arrays.hashCode(id)) + Arrays.hashCode(root);
    }

    @Override
    public String toString() {
        return "LmsPublicKey[" + params.setName() + ", I=" + dev.pqsign.core.Hex.encode(id) + "]";
    }
}
