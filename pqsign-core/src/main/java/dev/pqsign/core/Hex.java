package dev.pqsign.core;

/** Lower-case hexadecimal encoding; decoding rejects odd lengths and non-hex characters. */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    /**
     * Encodes all of {@code bytes}.
     *
     * @param bytes the bytes to encode
     * @return two lower-case hex digits per byte
     */
    public static String encode(byte[] bytes) {
        return encode(bytes, 0, bytes.length);
    }

    /**
     * Encodes {@code bytes[off..off+len)}.
     *
     * @param bytes the array holding the bytes to encode
     * @param off the index of the first byte to encode
     * @param len the number of bytes to encode
     * @return two lower-case hex digits per byte
     * @throws ArrayIndexOutOfBoundsException if the range lies outside {@code bytes}
     */
    public static String encode(byte[] bytes, int off, int len) {
        char[] out = new char[2 * len];
        for (int i = 0; i < len; i++) {
            int b = bytes[off + i] & 0xff;
            out[2 * i] = DIGITS[b >>> 4];
            out[2 * i + 1] = DIGITS[b & 0xf];
        }
        return new String(out);
    }

    /**
     * Decodes hex, ignoring surrounding whitespace. Upper- and lower-case digits are accepted.
     *
     * @param hex the hex digits, two per byte
     * @return the decoded bytes (empty for an empty or blank string)
     * @throws IllegalArgumentException on odd length or a non-hex character (the message gives its position)
     */
    public static byte[] decode(CharSequence hex) {
        String s = hex.toString().strip();
        if ((s.length() & 1) != 0) {
            throw new IllegalArgumentException("hex string has odd length " + s.length());
        }
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = digit(s.charAt(2 * i));
            int lo = digit(s.charAt(2 * i + 1));
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("not a hex digit at position " + (hi < 0 ? 2 * i : 2 * i + 1));
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    /** The value of an ASCII hex digit, or -1 ({@link Character#digit} would also accept other scripts' digits). */
    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
