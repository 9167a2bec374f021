package dev.pqsign.xmss;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An XMSS or XMSS^MT public key: parameter set, root and PUB_SEED. Immutable; the accessors return
 * copies.
 *
 * <p>Encoding (RFC 8391 appendices B.3 / C.3): {@code typeCode (4 bytes, big-endian) || root || PUB_SEED}.
 * The type code alone does not tell XMSS from XMSS^MT (both registries start at 1), so decoding
 * takes the family, or lists the {@linkplain #candidates candidates}.
 */
public final class XmssPublicKey {
    private final XmssParameterSet params;
    private final byte[] root;
    private final byte[] pubSeed;

    /** Use {@link #decodeRaw} (root || PUB_SEED) or {@link #decode} from outside this package. */
    XmssPublicKey(XmssParameterSet params, byte[] root, byte[] pubSeed) {
        this.params = params;
        int n = params.n();
        if (root.length != n || pubSeed.length != n) {
            throw new KeyFormatException(params.setName() + " public key needs a " + n + "-byte root and PUB_SEED, got "
                    + root.length + " and " + pubSeed.length + " bytes");
        }
        this.root = root.clone();
        this.pubSeed = pubSeed.clone();
    }

    /**
     * Decodes the RFC 8391 encoding for a known family; the type code must name a set of that family.
     *
     * @param family XMSS or XMSS^MT, known from the context (e.g. the certificate's algorithm OID)
     * @param encoded {@code typeCode || root || PUB_SEED}
     * @return the public key
     * @throws KeyFormatException if the type code is unknown in {@code family} or the length is wrong
     */
    public static XmssPublicKey decode(XmssParameterSet.Family family, byte[] encoded) {
        if (encoded.length < 4) {
            throw new KeyFormatException("public key too short: " + encoded.length + " bytes, need at least 4");
        }
        int code = readInt(encoded, 0);
        XmssParameterSet p = XmssParameterSet.byTypeCode(family, code)
                .orElseThrow(() ->
                        new KeyFormatException("unknown " + family + " type code 0x" + String.format("%08x", code)));
        return decode(p, encoded);
    }

    /**
     * Decodes the RFC 8391 encoding and checks that its type code is that of {@code params}.
     *
     * @param params the expected parameter set
     * @param encoded {@code typeCode || root || PUB_SEED}
     * @return the public key
     * @throws KeyFormatException if the length or the type code does not match {@code params}
     */
    public static XmssPublicKey decode(XmssParameterSet params, byte[] encoded) {
        if (encoded.length != params.publicKeyBytes()) {
            throw new KeyFormatException(params.setName() + " public key must be " + params.publicKeyBytes()
                    + " bytes, got " + encoded.length);
        }
        int code = readInt(encoded, 0);
        if (code != params.typeCode()) {
            throw new KeyFormatException("public key has type code 0x" + String.format("%08x", code) + ", but "
                    + params.setName() + " is 0x" + String.format("%08x", params.typeCode()));
        }
        int n = params.n();
        return new XmssPublicKey(
                params, Arrays.copyOfRange(encoded, 4, 4 + n), Arrays.copyOfRange(encoded, 4 + n, 4 + 2 * n));
    }

    /**
     * Decodes {@code root || PUB_SEED} without a type code, for a set given out of band.
     *
     * @param params the parameter set
     * @param raw {@code root || PUB_SEED}, 2n bytes
     * @return the public key
     * @throws KeyFormatException if {@code raw} is not 2n bytes long
     */
    public static XmssPublicKey decodeRaw(XmssParameterSet params, byte[] raw) {
        int n = params.n();
        if (raw.length != 2 * n) {
            throw new KeyFormatException("raw " + params.setName() + " public key (root || PUB_SEED) must be " + 2 * n
                    + " bytes, got " + raw.length);
        }
        return new XmssPublicKey(params, Arrays.copyOfRange(raw, 0, n), Arrays.copyOfRange(raw, n, 2 * n));
    }

    /**
     * Every parameter set (of either family) whose type code and length match {@code encoded}.
     *
     * @param encoded a candidate RFC 8391 public key encoding
     * @return the matching sets in registry order; empty if none match, two if both families fit
     */
    public static List<XmssParameterSet> candidates(byte[] encoded) {
        List<XmssParameterSet> out = new ArrayList<>();
        if (encoded.length < 4) {
            return out;
        }
        int code = readInt(encoded, 0);
        for (XmssParameterSet p : XmssParameterSet.values()) {
            if (p.typeCode() == code && p.publicKeyBytes() == encoded.length) {
                out.add(p);
            }
        }
        return out;
    }

    static int readInt(byte[] b, int off) {
        return ((b[off] & 0xff) << 24) | ((b[off + 1] & 0xff) << 16) | ((b[off + 2] & 0xff) << 8) | (b[off + 3] & 0xff);
    }

    /**
     * The key's parameter set.
     *
     * @return the parameter set
     */
    public XmssParameterSet parameterSet() {
        return params;
    }

    /**
     * The root of the top-layer tree.
     *
     * @return a copy of the n-byte root
     */
    public byte[] root() {
        return root.clone();
    }

    /**
     * The public seed that keys every hash of the scheme.
     *
     * @return a copy of the n-byte PUB_SEED
     */
    public byte[] pubSeed() {
        return pubSeed.clone();
    }

    byte[] rootRef() {
        return root;
    }

    byte[] pubSeedRef() {
        return pubSeed;
    }

    /**
     * The RFC 8391 encoding.
     *
     * @return a new array: type code || root || PUB_SEED
     */
    public byte[] encoded() {
        int n = params.n();
        byte[] out = new byte[4 + 2 * n];
        int code = params.typeCode();
        out[0] = (byte) (code >>> 24);
        out[1] = (byte) (code >>> 16);
        out[2] = (byte) (code >>> 8);
        out[3] = (byte) code;
        System.arraycopy(root, 0, out, 4, n);
        System.arraycopy(pubSeed, 0, out, 4 + n, n);
        return out;
    }

    /**
     * The key without its type code (the "pk" of the reference implementation).
     *
     * @return a new array: root || PUB_SEED
     */
    public byte[] encodedRaw() {
        byte[] out = new byte[2 * params.n()];
        System.arraycopy(root, 0, out, 0, root.length);
        System.arraycopy(pubSeed, 0, out, root.length, pubSeed.length);
        return out;
    }

    /**
     * Key identity: SHA-256 of the family name and the RFC 8391 encoding (unambiguous across families).
     *
     * @return the 32-byte key identifier
     */
    public byte[] keyId() {
        MessageDigest md = dev.pqsign.core.Digests.sha256();
        md.update(params.family().name().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        md.update((byte) 0);
        return md.digest(encoded());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof XmssPublicKey)) {
            return false;
        }
        XmssPublicKey k = (XmssPublicKey) o;
        return k.params == params
                && Secrets.constantTimeEquals(k.root, root)
                && Secrets.constantTimeEquals(k.pubSeed, pubSeed);
    }

    @Override
    public int hashCode() {
        return params.hashCode() * 31 + Arrays.hashCode(root);
    }

    @Override
    public String toString() {
        return "XmssPublicKey[" + params.setName() + ", root=" + dev.pqsign.core.Hex.encode(root, 0, 8) + "...]";
    }
}
