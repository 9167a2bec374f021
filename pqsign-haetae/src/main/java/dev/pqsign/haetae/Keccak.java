package dev.pqsign.haetae;

import java.util.Arrays;

/**
 * Incremental SHAKE128 / SHAKE256 (FIPS 202) over a reusable state.
 *
 * <p>HAETAE needs many short XOF instances per signature (one per polynomial); a private
 * implementation lets the engines reset and reuse one object instead of allocating digests, which is
 * what makes steady-state signing allocation-free. Not thread-safe.
 */
final class Keccak {
    /** Rate in bytes of SHAKE128. */
    static final int SHAKE128_RATE = 168;
    /** Rate in bytes of SHAKE256. */
    static final int SHAKE256_RATE = 136;

    private static final long[] RC = {
        0x0000000000000001L, 0x0000000000008082L, 0x800000000000808aL, 0x8000000080008000L,
        0x000000000000808bL, 0x0000000080000001L, 0x8000000080008081L, 0x8000000000008009L,
        0x000000000000008aL, 0x0000000000000088L, 0x0000000080008009L, 0x000000008000000aL,
        0x000000008000808bL, 0x800000000000008bL, 0x8000000000008089L, 0x8000000000008003L,
        0x8000000000008002L, 0x8000000000000080L, 0x000000000000800aL, 0x800000008000000aL,
        0x8000000080008081L, 0x8000000000008080L, 0x0000000080000001L, 0x8000000080008008L
    };

    private final long[] s = new long[25];
    private final byte[] block = new byte[SHAKE128_RATE];
    private int rate;
    /** Absorb: bytes buffered in {@code block}. Squeeze: next unread byte of {@code block}. */
    private int pos;
    private boolean squeezing;

    /** Starts a fresh SHAKE128 instance. */
    Keccak initShake128() {
        return init(SHAKE128_RATE);
    }

    /** Starts a fresh SHAKE256 instance. */
    Keccak initShake256() {
        return init(SHAKE256_RATE);
    }

    private Keccak init(int r) {
        Arrays.fill(s, 0L);
        Arrays.fill(block, (byte) 0);
        rate = r;
        pos = 0;
        squeezing = false;
        return this;
    }

    Keccak absorb(byte[] in) {
        return absorb(in, 0, in.length);
    }

    Keccak absorb(byte[] in, int off, int len) {
        if (squeezing) {
            throw new IllegalStateException("absorb after squeeze");
        }
        while (len > 0) {
            int n = Math.min(len, rate - pos);
            System.arraycopy(in, off, block, pos, n);
            pos += n;
            off += n;
            len -= n;
            if (pos == rate) {
                xorBlock();
                permute();
                pos = 0;
            }
        }
        return this;
    }

    Keccak absorbByte(int b) {
        if (squeezing) {
            throw new IllegalStateException("absorb after squeeze");
        }
        block[pos++] = (byte) b;
        if (pos == rate) {
            xorBlock();
            permute();
            pos = 0;
        }
        return this;
    }

    /** Absorbs a 16-bit little-endian nonce, as HAETAE's stream initialisers do. */
    Keccak absorbU16(int v) {
        absorbByte(v & 0xff);
        return absorbByte((v >>> 8) & 0xff);
    }

    private void finish() {
        Arrays.fill(block, pos, rate, (byte) 0);
        block[pos] ^= 0x1f;
        block[rate - 1] ^= (byte) 0x80;
        xorBlock();
        permute();
        extract();
        pos = 0;
        squeezing = true;
    }

    /** Next output byte (0..255). */
    int squeezeByte() {
        if (!squeezing) {
            finish();
        }
        if (pos == rate) {
            permute();
            extract();
            pos = 0;
        }
        return block[pos++] & 0xff;
    }

    void squeeze(byte[] out, int off, int len) {
        if (!squeezing) {
            finish();
        }
        while (len > 0) {
            if (pos == rate) {
                permute();
                extract();
                pos = 0;
            }
            int n = Math.min(len, rate - pos);
            System.arraycopy(block, pos, out, off, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    /** Clears the state (it may have absorbed secrets). */
    void wipe() {
        Arrays.fill(s, 0L);
        Arrays.fill(block, (byte) 0);
        pos = 0;
        squeezing = false;
    }

    private void xorBlock() {
        for (int i = 0; i < rate / 8; i++) {
            int o = 8 * i;
            long v = (block[o] & 0xffL) | (block[o + 1] & 0xffL) << 8 | (block[o + 2] & 0xffL) << 16
                    | (block[o + 3] & 0xffL) << 24 | (block[o + 4] & 0xffL) << 32 | (block[o + 5] & 0xffL) << 40
                    | (block[o + 6] & 0xffL) << 48 | (block[o + 7] & 0xffL) << 56;
            s[i] ^= v;
        }
    }

    private void extract() {
        for (int i = 0; i < rate / 8; i++) {
            long v = s[i];
            int o = 8 * i;
            for (int j = 0; j < 8; j++) {
                block[o + j] = (byte) (v >>> (8 * j));
            }
        }
    }

    private void permute() {
        long a00 = s[0], a01 = s[1], a02 = s[2], a03 = s[3], a04 = s[4];
        long a05 = s[5], a06 = s[6], a07 = s[7], a08 = s[8], a09 = s[9];
        long a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14];
        long a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19];
        long a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
        for (int round = 0; round < 24; round++) {
            // theta
            long c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20;
            long c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21;
            long c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22;
            long c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23;
            long c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24;
            long d0 = c4 ^ Long.rotateLeft(c1, 1);
            long d1 = c0 ^ Long.rotateLeft(c2, 1);
            long d2 = c1 ^ Long.rotateLeft(c3, 1);
            long d3 = c2 ^ Long.rotateLeft(c4, 1);
            long d4 = c3 ^ Long.rotateLeft(c0, 1);
            a00 ^= d0; a05 ^= d0; a10 ^= d0; a15 ^= d0; a20 ^= d0;
            a01 ^= d1; a06 ^= d1; a11 ^= d1; a16 ^= d1; a21 ^= d1;
            a02 ^= d2; a07 ^= d2; a12 ^= d2; a17 ^= d2; a22 ^= d2;
            a03 ^= d3; a08 ^= d3; a13 ^= d3; a18 ^= d3; a23 ^= d3;
            a04 ^= d4; a09 ^= d4; a14 ^= d4; a19 ^= d4; a24 ^= d4;
            // rho and pi: b[y][2x+3y] = rot(a[x][y]); index = x + 5y
            long b00 = a00;
            long b10 = Long.rotateLeft(a01, 1);
            long b20 = Long.rotateLeft(a02, 62);
            long b05 = Long.rotateLeft(a03, 28);
            long b15 = Long.rotateLeft(a04, 27);
            long b16 = Long.rotateLeft(a05, 36);
            long b01 = Long.rotateLeft(a06, 44);
            long b11 = Long.rotateLeft(a07, 6);
            long b21 = Long.rotateLeft(a08, 55);
            long b06 = Long.rotateLeft(a09, 20);
            long b07 = Long.rotateLeft(a10, 3);
            long b17 = Long.rotateLeft(a11, 10);
            long b02 = Long.rotateLeft(a12, 43);
            long b12 = Long.rotateLeft(a13, 25);
            long b22 = Long.rotateLeft(a14, 39);
            long b23 = Long.rotateLeft(a15, 41);
            long b08 = Long.rotateLeft(a16, 45);
            long b18 = Long.rotateLeft(a17, 15);
            long b03 = Long.rotateLeft(a18, 21);
            long b13 = Long.rotateLeft(a19, 8);
            long b14 = Long.rotateLeft(a20, 18);
            long b24 = Long.rotateLeft(a21, 2);
            long b09 = Long.rotateLeft(a22, 61);
            long b19 = Long.rotateLeft(a23, 56);
            long b04 = Long.rotateLeft(a24, 14);
            // chi
            a00 = b00 ^ (~b01 & b02); a01 = b01 ^ (~b02 & b03); a02 = b02 ^ (~b03 & b04);
            a03 = b03 ^ (~b04 & b00); a04 = b04 ^ (~b00 & b01);
            a05 = b05 ^ (~b06 & b07); a06 = b06 ^ (~b07 & b08); a07 = b07 ^ (~b08 & b09);
            a08 = b08 ^ (~b09 & b05); a09 = b09 ^ (~b05 & b06);
            a10 = b10 ^ (~b11 & b12); a11 = b11 ^ (~b12 & b13); a12 = b12 ^ (~b13 & b14);
            a13 = b13 ^ (~b14 & b10); a14 = b14 ^ (~b10 & b11);
            a15 = b15 ^ (~b16 & b17); a16 = b16 ^ (~b17 & b18); a17 = b17 ^ (~b18 & b19);
            a18 = b18 ^ (~b19 & b15); a19 = b19 ^ (~b15 & b16);
            a20 = b20 ^ (~b21 & b22); a21 = b21 ^ (~b22 & b23); a22 = b22 ^ (~b23 & b24);
            a23 = b23 ^ (~b24 & b20); a24 = b24 ^ (~b20 & b21);
            // iota
            a00 ^= RC[round];
        }
        s[0] = a00; s[1] = a01; s[2] = a02; s[3] = a03; s[4] = a04;
        s[5] = a05; s[6] = a06; s[7] = a07; s[8] = a08; s[9] = a09;
        s[10] = a10; s[11] = a11; s[12] = a12; s[13] = a13; s[14] = a14;
        s[15] = a15; s[16] = a16; s[17] = a17; s[18] = a18; s[19] = a19;
        s[20] = a20; s[21] = a21; s[22] = a22; s[23] = a23; s[24] = a24;
    }
}
