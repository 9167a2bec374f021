package dev.pqsign.keys.internal;

import dev.pqsign.core.KeyFormatException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a self-defined binary format front to back, checking every length against the bytes that
 * are actually left before copying anything, so a hostile length never allocates.
 */
public final class StrictReader {
    private final byte[] in;
    private final String what;
    private int pos;

    /** @param what the format's name, for error messages */
    public StrictReader(byte[] in, String what) {
        this.in = in;
        this.what = what;
    }

    private void need(int n, String field) {
        if (n < 0 || in.length - pos < n) {
            throw new KeyFormatException(
                    what + " truncated in " + field + " (" + (in.length - pos) + " bytes left, need " + n + ")");
        }
    }

    /** Expects exactly these bytes next (a magic or domain tag). */
    public void expect(byte[] expected, String field) {
        need(expected.length, field);
        if (!Arrays.equals(in, pos, pos + expected.length, expected, 0, expected.length)) {
            throw new KeyFormatException("not a " + what + " (wrong " + field + ")");
        }
        pos += expected.length;
    }

    public int u8(String field) {
        need(1, field);
        return in[pos++] & 0xff;
    }

    public int u16(String field) {
        need(2, field);
        int v = ((in[pos] & 0xff) << 8) | (in[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    /** An unsigned 32-bit length, refused above {@code max}. */
    public int length32(String field, int max) {
        need(4, field);
        long v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (in[pos + i] & 0xff);
        }
        pos += 4;
        if (v > max) {
            throw new KeyFormatException(what + " " + field + " is " + v + " bytes, at most " + max + " allowed");
        }
        return (int) v;
    }

    /** An unsigned 64-bit value that must fit a non-negative long. */
    public long u63(String field) {
        need(8, field);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (in[pos + i] & 0xff);
        }
        pos += 8;
        if (v < 0) {
            throw new KeyFormatException(what + " " + field + " is 2^63 or more");
        }
        return v;
    }

    /** An unsigned 64-bit value that is a non-negative long, or all ones, read as -1 ("none"). */
    public long u63OrMinusOne(String field) {
        need(8, field);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (in[pos + i] & 0xff);
        }
        pos += 8;
        if (v < -1) {
            throw new KeyFormatException(what + " " + field + " is 2^63 or more");
        }
        return v;
    }

    public byte[] bytes(int n, String field) {
        need(n, field);
        byte[] out = Arrays.copyOfRange(in, pos, pos + n);
        pos += n;
        return out;
    }

    /** A name of 1..64 printable ASCII characters (0x21..0x7e) after a one-byte length. */
    public String name(String field) {
        int len = u8(field + " length");
        if (len < 1 || len > 64) {
            throw new KeyFormatException(what + " " + field + " length " + len + " is outside 1..64");
        }
        need(len, field);
        for (int i = pos; i < pos + len; i++) {
            if (in[i] < 0x21 || in[i] > 0x7e) {
                throw new KeyFormatException(what + " " + field + " has a byte outside printable ASCII");
            }
        }
        String s = new String(in, pos, len, StandardCharsets.US_ASCII);
        pos += len;
        return s;
    }

    /** Refuses trailing bytes. */
    public void end() {
        if (pos != in.length) {
            throw new KeyFormatException(what + " has " + (in.length - pos) + " trailing bytes");
        }
    }
}
