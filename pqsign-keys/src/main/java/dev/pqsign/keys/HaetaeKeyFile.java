package dev.pqsign.keys;

import dev.pqsign.core.Digests;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePrivateKey;
import java.util.Arrays;

/**
 * pqsign's file format for HAETAE private keys (docs/formats/haetae-private-key.md):
 * <pre>
 * 0   4  magic "PQHS"
 * 4   1  format version (1)
 * 5   1  mode: 2, 3 or 5
 * 6   2  zero
 * 8   L  private key in the reference encoding (L = the set's private key length)
 * 8+L 16 check: first 16 bytes of SHA-256 over bytes [0, 8+L)
 * </pre>
 * The reference encoding alone does not say which set it is and has no integrity check; this
 * wrapper adds both so a wrong or damaged file is refused with a clear message.
 */
public final class HaetaeKeyFile {
    private static final byte[] MAGIC = {'P', 'Q', 'H', 'S'};
    private static final int VERSION = 1;
    private static final int HEADER = 8;
    private static final int CHECK = 16;

    private HaetaeKeyFile() {}

    /**
     * {@code true} if {@code b} starts with this format's magic {@code "PQHS"}.
     *
     * @param b the file's first bytes
     * @return false also for fewer than four bytes
     */
    public static boolean hasMagic(byte[] b) {
        return b.length >= 4 && Arrays.equals(b, 0, 4, MAGIC, 0, 4);
    }

    private static int mode(HaetaeParameterSet p) {
        return Integer.parseInt(p.setName().substring("HAETAE-".length()));
    }

    /**
     * The key file holding {@code key}; the caller wipes it once written.
     *
     * @param key the private key, not destroyed
     * @return magic, version, mode, reserved bytes, the reference encoding and a check value
     * @throws IllegalStateException if {@code key} has been destroyed
     */
    public static byte[] encode(HaetaePrivateKey key) {
        byte[] sk = key.getEncoded();
        try {
            byte[] out = new byte[HEADER + sk.length + CHECK];
            System.arraycopy(MAGIC, 0, out, 0, 4);
            out[4] = VERSION;
            out[5] = (byte) mode(key.parameterSet());
            System.arraycopy(sk, 0, out, HEADER, sk.length);
            System.arraycopy(check(out, HEADER + sk.length), 0, out, HEADER + sk.length, CHECK);
            return out;
        } finally {
            Secrets.wipe(sk);
        }
    }

    /**
     * The private key in a key file.
     *
     * @param b the whole key file; the caller wipes it
     * @return the private key, of the set the file names
     * @throws KeyFormatException if {@code b} is not a complete, intact key file of a supported version
     */
    public static HaetaePrivateKey decode(byte[] b) {
        if (b.length < HEADER || !hasMagic(b)) {
            throw new KeyFormatException("not a pqsign HAETAE private key (bad magic; expected \"PQHS\")");
        }
        if (b[4] != VERSION) {
            throw new KeyFormatException("unsupported HAETAE key file version " + (b[4] & 0xff));
        }
        HaetaeParameterSet p;
        try {
            p = HaetaeParameterSet.fromName("HAETAE-" + (b[5] & 0xff));
        } catch (IllegalArgumentException e) {
            throw new KeyFormatException("unknown HAETAE mode " + (b[5] & 0xff) + " (expected 2, 3 or 5)");
        }
        int len = p.privateKeyBytes();
        if (b.length != HEADER + len + CHECK) {
            throw new KeyFormatException(
                    p.setName() + " key file must be " + (HEADER + len + CHECK) + " bytes, got " + b.length);
        }
        if (b[6] != 0 || b[7] != 0) {
            throw new KeyFormatException("reserved bytes of the HAETAE key file are not zero");
        }
        if (!Secrets.constantTimeEquals(check(b, HEADER + len), 0, b, HEADER + len, CHECK)) {
            throw new KeyFormatException("HAETAE key file is corrupt (check value mismatch)");
        }
        byte[] sk = Arrays.copyOfRange(b, HEADER, HEADER + len);
        try {
            return HaetaePrivateKey.fromEncoded(p, sk);
        } finally {
            Secrets.wipe(sk);
        }
    }

    private static byte[] check(byte[] b, int len) {
        return Digests.checkValue(b, len, CHECK);
    }
}
