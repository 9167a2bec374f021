package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.POLY_HIGHBITS_PACKEDBYTES;

/**
 * Bit packing of key and transcript polynomials, byte-identical to the reference encodings; the one
 * codec of both engines. Besides whole-polynomial packing it offers the single-coefficient and
 * single-byte accessors ({@link #polyQ15At}, {@link #highbitsSlotByte}) that let the compact engine
 * stream a polynomial through its fused loops without a buffer for it.
 */
final class Packing {
    private Packing() {}

    /** b (15-bit coefficients, modes 2/3) or NTT(-2b) (16-bit, mode 5). */
    static void packPolyQ(byte[] r, int off, int[] a, boolean fifteenBit) {
        if (fifteenBit) {
            long acc = 0;
            int bits = 0;
            int o = off;
            for (int i = 0; i < N; i++) {
                acc |= (long) (a[i] & 0x7fff) << bits;
                bits += 15;
                while (bits >= 8) {
                    r[o++] = (byte) acc;
                    acc >>>= 8;
                    bits -= 8;
                }
            }
        } else {
            for (int i = 0; i < N; i++) {
                r[off + 2 * i] = (byte) a[i];
                r[off + 2 * i + 1] = (byte) (a[i] >>> 8);
            }
        }
    }

    static void unpackPolyQ(int[] a, byte[] r, int off, boolean fifteenBit) {
        if (fifteenBit) {
            for (int i = 0; i < N; i++) {
                a[i] = polyQ15At(r, off, i);
            }
        } else {
            for (int i = 0; i < N; i++) {
                a[i] = (r[off + 2 * i] & 0xff) | (r[off + 2 * i + 1] & 0xff) << 8;
            }
        }
    }

    /**
     * Coefficient {@code i} of a 15-bit packed polynomial at {@code r[off..)}: bits [15 i, 15 i + 15),
     * least significant first. Reads a third byte only when the coefficient spans three, so the last
     * coefficient never reads past the polynomial's 480 bytes.
     */
    static int polyQ15At(byte[] r, int off, int i) {
        int bit = 15 * i;
        int o = off + (bit >>> 3);
        int shift = bit & 7;
        int v = (r[o] & 0xff) | (r[o + 1] & 0xff) << 8;
        if (shift > 1) {
            v |= (r[o + 2] & 0xff) << 16;
        }
        return (v >>> shift) & 0x7fff;
    }

    /** Coefficients in [-1, 1] as 2-bit values 1 - a. */
    static void packEta(byte[] r, int off, int[] a) {
        for (int i = 0; i < N / 4; i++) {
            int v = 0;
            for (int j = 0; j < 4; j++) {
                v |= ((1 - a[4 * i + j]) & 3) << (2 * j);
            }
            r[off + i] = (byte) v;
        }
    }

    static void unpackEta(int[] a, byte[] r, int off) {
        for (int i = 0; i < N / 4; i++) {
            int v = r[off + i] & 0xff;
            for (int j = 0; j < 4; j++) {
                a[4 * i + j] = 1 - ((v >>> (2 * j)) & 3);
            }
        }
    }

    /** Coefficients in [-2, 2] as 3-bit values 2 - a (s2 after rounding in modes 2/3). */
    static void pack2Eta(byte[] r, int off, int[] a) {
        for (int i = 0; i < N / 8; i++) {
            int v = 0;
            for (int j = 0; j < 8; j++) {
                v |= ((2 - a[8 * i + j]) & 7) << (3 * j);
            }
            r[off + 3 * i] = (byte) v;
            r[off + 3 * i + 1] = (byte) (v >>> 8);
            r[off + 3 * i + 2] = (byte) (v >>> 16);
        }
    }

    static void unpack2Eta(int[] a, byte[] r, int off) {
        for (int i = 0; i < N / 8; i++) {
            int v = (r[off + 3 * i] & 0xff) | (r[off + 3 * i + 1] & 0xff) << 8 | (r[off + 3 * i + 2] & 0xff) << 16;
            for (int j = 0; j < 8; j++) {
                a[8 * i + j] = 2 - ((v >>> (3 * j)) & 7);
            }
        }
    }

    /**
     * Writes one polynomial's HighBits into its 288-byte transcript slot: one byte per coefficient in
     * modes 2/3 (the last 32 bytes of the slot are zero), 9 bits per coefficient in mode 5.
     */
    static void packHighbits(byte[] buf, int off, int[] a, boolean nineBit) {
        for (int k = 0; k < POLY_HIGHBITS_PACKEDBYTES; k++) {
            buf[off + k] = (byte) highbitsSlotByte(a, k, nineBit);
        }
    }

    /**
     * Byte {@code k} (0 .. 287) of the HighBits slot of {@code a}, as {@link #packHighbits} writes it;
     * the compact engine absorbs the slot byte by byte into the transcript hash with it.
     */
    static int highbitsSlotByte(int[] a, int k, boolean nineBit) {
        if (!nineBit) {
            return k < N ? a[k] & 0xff : 0;
        }
        // byte k holds bits [8k, 8k + 8) of the 9-bit stream: the top of coefficient i, then the
        // bottom of coefficient i + 1 when fewer than 8 bits of i are left
        int bit = 8 * k;
        int i = bit / 9;
        int shift = bit - 9 * i;
        int v = (a[i] & 0x1ff) >>> shift;
        if (shift > 1 && i + 1 < N) {
            v |= (a[i + 1] & 0x1ff) << (9 - shift);
        }
        return v & 0xff;
    }

    /** Least significant bits of a polynomial, 32 bytes. */
    static void packLsb(byte[] buf, int off, int[] a) {
        for (int i = 0; i < N / 8; i++) {
            int v = 0;
            for (int j = 0; j < 8; j++) {
                v |= (a[8 * i + j] & 1) << j;
            }
            buf[off + i] = (byte) v;
        }
    }
}
