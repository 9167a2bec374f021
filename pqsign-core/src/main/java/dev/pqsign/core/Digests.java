package dev.pqsign.core;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/** SHA-256 helpers shared by pqsign's file formats (check values, key identities). */
public final class Digests {
    private Digests() {}

    /**
     * A fresh SHA-256 digest (every Java platform has one).
     *
     * @return a new, unshared SHA-256 instance
     */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /**
     * The first {@code outLen} bytes of SHA-256 over {@code b[0..len)}: the check value that pqsign's
     * self-defined binary formats append to detect corruption.
     *
     * @param b the encoded bytes
     * @param len how many bytes of {@code b}, from its start, the check value covers
     * @param outLen the check value's length in bytes, 0 to 32
     * @return a new array of {@code outLen} bytes
     */
    public static byte[] checkValue(byte[] b, int len, int outLen) {
        MessageDigest md = sha256();
        md.update(b, 0, len);
        return Arrays.copyOf(md.digest(), outLen);
    }
}
