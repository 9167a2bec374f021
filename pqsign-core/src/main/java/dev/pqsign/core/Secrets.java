package dev.pqsign.core;

import java.security.MessageDigest;
import java.util.Arrays;

/** Helpers for secret byte arrays: constant-time comparison and wiping. */
public final class Secrets {
    private Secrets() {}

    /**
     * Compares two arrays in time that depends only on their lengths, not on where they differ
     * ({@link MessageDigest#isEqual} is constant-time since JDK 6u17). Used for roots and challenges.
     *
     * @param a one array; {@code null} equals only {@code null}
     * @param b the other array
     * @return whether both have the same length and content
     */
    public static boolean constantTimeEquals(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    /**
     * Compares {@code a[aOff..aOff+len)} with {@code b[bOff..bOff+len)} without early exit.
     *
     * @param a the first array
     * @param aOff the start of the range in {@code a}
     * @param b the second array
     * @param bOff the start of the range in {@code b}
     * @param len the number of bytes to compare
     * @return whether the two ranges hold the same bytes ({@code true} for {@code len == 0})
     * @throws ArrayIndexOutOfBoundsException if a range lies outside its array
     */
    public static boolean constantTimeEquals(byte[] a, int aOff, byte[] b, int bOff, int len) {
        int diff = 0;
        for (int i = 0; i < len; i++) {
            diff |= a[aOff + i] ^ b[bOff + i];
        }
        return diff == 0;
    }

    /**
     * Overwrites each array with zeros; {@code null} entries are skipped.
     *
     * @param arrays the secret arrays to wipe
     */
    public static void wipe(byte[]... arrays) {
        for (byte[] a : arrays) {
            if (a != null) {
                Arrays.fill(a, (byte) 0);
            }
        }
    }

    /**
     * Overwrites each array with zeros; {@code null} entries are skipped.
     *
     * @param arrays the secret arrays to wipe
     */
    public static void wipe(int[]... arrays) {
        for (int[] a : arrays) {
            if (a != null) {
                Arrays.fill(a, 0);
            }
        }
    }
}
