package dev.pqsign.haetae;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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

    /** Round constants of Keccak-f[1600] (also used by {@code VectorKeccak}). */
    static final long[] RC = {
        0x0000000000000001L, 0x0000000000008082L, 0x800000000000808aL, 0x8000000080008000L,
        0x000000000000808bL, 0x0000000080000001L, 0x8000000080008081L, 0x8000000000008009L,
        0x000000000000008aL, 0x0000000000000088L, 0x0000000080008009L, 0x000000008000000aL,
        0x000000008000808bL, 0x800000000000008bL, 0x8000000000008089L, 0x8000000000008003L,
        0x8000000000008002L, 0x8000000000000080L, 0x000000000000800aL, 0x800000008000000aL,
        0x8000000080008081L, 0x8000000000008080L, 0x0000000080000001L, 0x8000000080008008L
    };

    /** Little-endian 64-bit view of byte arrays (JIT intrinsic; no allocation). */
    private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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

    /** Next two output bytes as a little-endian 16-bit value (0..65535). */
    int squeezeU16() {
        if (!squeezing) {
            finish();
        }
        if (pos + 2 > rate) {
            return squeezeByte() | squeezeByte() << 8;
        }
        int v = (block[pos] & 0xff) | (block[pos + 1] & 0xff) << 8;
        pos += 2;
        return v;
    }

    /**
     * Zero-copy squeeze for SHAKE256: if the next {@code n} output bytes lie in the current block,
     * consumes them and returns their offset in {@link #buffer()}; otherwise consumes nothing and
     * returns -1 (use {@link #squeeze}). The buffer has at least 32 bytes of slack after a SHAKE256
     * block, so 8-byte reads that start inside the view stay in bounds.
     */
    int view(int n) {
        if (!squeezing) {
            finish();
        }
        if (pos == rate) {
            permute();
            extract();
            pos = 0;
        }
        if (pos + n > rate) {
            return -1;
        }
        int at = pos;
        pos += n;
        return at;
    }

    /** The internal output block that {@link #view} offsets refer to. */
    byte[] buffer() {
        return block;
    }

    /**
     * The next {@code n} output bytes, copied only when they straddle two blocks: returns their
     * offset in {@link #buffer()}, or -1 after copying them to {@code spare[0..n)} (so the samplers'
     * draws never allocate and rarely copy).
     */
    int viewOrCopy(int n, byte[] spare) {
        int at = view(n);
        if (at < 0) {
            squeeze(spare, 0, n);
        }
        return at;
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

    /** Makes this instance an exact copy of {@code o} (resuming a cached absorb of a public prefix). */
    Keccak copyFrom(Keccak o) {
        System.arraycopy(o.s, 0, s, 0, 25);
        System.arraycopy(o.block, 0, block, 0, block.length);
        rate = o.rate;
        pos = o.pos;
        squeezing = o.squeezing;
        return this;
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
            s[i] ^= (long) LE64.get(block, 8 * i);
        }
    }

    private void extract() {
        for (int i = 0; i < rate / 8; i++) {
            LE64.set(block, 8 * i, s[i]);
        }
    }

    /**
     * Keccak-f[1600]. Lanes are named by row (b, g, k, m, s) and column (a, e, i, o, u); each round
     * computes theta, then rho + pi + chi one output row at a time from five rotated input lanes,
     * which keeps far fewer values live than a separate rho-pi pass (fewer register spills in C2).
     */
    private void permute() {
        permuteLanes(s);
    }

    /** Keccak-f[1600] on the 25 lanes of {@code s} (also the reference for {@link VectorKeccak}). */
    static void permuteLanes(long[] s) {
        long aba = s[0], abe = s[1], abi = s[2], abo = s[3], abu = s[4];
        long aga = s[5], age = s[6], agi = s[7], ago = s[8], agu = s[9];
        long aka = s[10], ake = s[11], aki = s[12], ako = s[13], aku = s[14];
        long ama = s[15], ame = s[16], ami = s[17], amo = s[18], amu = s[19];
        long asa = s[20], ase = s[21], asi = s[22], aso = s[23], asu = s[24];
        for (int round = 0; round < 24; round++) {
            long ca = aba ^ aga ^ aka ^ ama ^ asa;
            long ce = abe ^ age ^ ake ^ ame ^ ase;
            long ci = abi ^ agi ^ aki ^ ami ^ asi;
            long co = abo ^ ago ^ ako ^ amo ^ aso;
            long cu = abu ^ agu ^ aku ^ amu ^ asu;
            long da = cu ^ Long.rotateLeft(ce, 1);
            long de = ca ^ Long.rotateLeft(ci, 1);
            long di = ce ^ Long.rotateLeft(co, 1);
            long dO = ci ^ Long.rotateLeft(cu, 1);
            long du = co ^ Long.rotateLeft(ca, 1);

            long b0 = aba ^ da;
            long b1 = Long.rotateLeft(age ^ de, 44);
            long b2 = Long.rotateLeft(aki ^ di, 43);
            long b3 = Long.rotateLeft(amo ^ dO, 21);
            long b4 = Long.rotateLeft(asu ^ du, 14);
            long eba = b0 ^ (~b1 & b2) ^ RC[round];
            long ebe = b1 ^ (~b2 & b3);
            long ebi = b2 ^ (~b3 & b4);
            long ebo = b3 ^ (~b4 & b0);
            long ebu = b4 ^ (~b0 & b1);

            b0 = Long.rotateLeft(abo ^ dO, 28);
            b1 = Long.rotateLeft(agu ^ du, 20);
            b2 = Long.rotateLeft(aka ^ da, 3);
            b3 = Long.rotateLeft(ame ^ de, 45);
            b4 = Long.rotateLeft(asi ^ di, 61);
            long ega = b0 ^ (~b1 & b2);
            long ege = b1 ^ (~b2 & b3);
            long egi = b2 ^ (~b3 & b4);
            long ego = b3 ^ (~b4 & b0);
            long egu = b4 ^ (~b0 & b1);

            b0 = Long.rotateLeft(abe ^ de, 1);
            b1 = Long.rotateLeft(agi ^ di, 6);
            b2 = Long.rotateLeft(ako ^ dO, 25);
            b3 = Long.rotateLeft(amu ^ du, 8);
            b4 = Long.rotateLeft(asa ^ da, 18);
            long eka = b0 ^ (~b1 & b2);
            long eke = b1 ^ (~b2 & b3);
            long eki = b2 ^ (~b3 & b4);
            long eko = b3 ^ (~b4 & b0);
            long eku = b4 ^ (~b0 & b1);

            b0 = Long.rotateLeft(abu ^ du, 27);
            b1 = Long.rotateLeft(aga ^ da, 36);
            b2 = Long.rotateLeft(ake ^ de, 10);
            b3 = Long.rotateLeft(ami ^ di, 15);
            b4 = Long.rotateLeft(aso ^ dO, 56);
            long ema = b0 ^ (~b1 & b2);
            long eme = b1 ^ (~b2 & b3);
            long emi = b2 ^ (~b3 & b4);
            long emo = b3 ^ (~b4 & b0);
            long emu = b4 ^ (~b0 & b1);

            b0 = Long.rotateLeft(abi ^ di, 62);
            b1 = Long.rotateLeft(ago ^ dO, 55);
            b2 = Long.rotateLeft(aku ^ du, 39);
            b3 = Long.rotateLeft(ama ^ da, 41);
            b4 = Long.rotateLeft(ase ^ de, 2);
            long esa = b0 ^ (~b1 & b2);
            long ese = b1 ^ (~b2 & b3);
            long esi = b2 ^ (~b3 & b4);
            long eso = b3 ^ (~b4 & b0);
            long esu = b4 ^ (~b0 & b1);

            aba = eba;
            abe = ebe;
            abi = ebi;
            abo = ebo;
            abu = ebu;
            aga = ega;
            age = ege;
            agi = egi;
            ago = ego;
            agu = egu;
            aka = eka;
            ake = eke;
            aki = eki;
            ako = eko;
            aku = eku;
            ama = ema;
            ame = eme;
            ami = emi;
            amo = emo;
            amu = emu;
            asa = esa;
            ase = ese;
            asi = esi;
            aso = eso;
            asu = esu;
        }
        s[0] = aba;
        s[1] = abe;
        s[2] = abi;
        s[3] = abo;
        s[4] = abu;
        s[5] = aga;
        s[6] = age;
        s[7] = agi;
        s[8] = ago;
        s[9] = agu;
        s[10] = aka;
        s[11] = ake;
        s[12] = aki;
        s[13] = ako;
        s[14] = aku;
        s[15] = ama;
        s[16] = ame;
        s[17] = ami;
        s[18] = amo;
        s[19] = amu;
        s[20] = asa;
        s[21] = ase;
        s[22] = asi;
        s[23] = aso;
        s[24] = asu;
    }
}
