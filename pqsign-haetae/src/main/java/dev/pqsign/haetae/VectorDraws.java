package dev.pqsign.haetae;

import static jdk.incubator.vector.VectorOperators.ADD;
import static jdk.incubator.vector.VectorOperators.AND;
import static jdk.incubator.vector.VectorOperators.ASHR;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.MUL;
import static jdk.incubator.vector.VectorOperators.OR;
import static jdk.incubator.vector.VectorOperators.SUB;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link #W} consecutive Gaussian draws of one stream at once (the incubating Vector API), v1.1.2
 * ({@link #drawV112}) or v1.2.0 ({@link #drawV120}): the same arithmetic as
 * {@code HyperballSampler.drawV112} and {@code drawV120}, with every 64 x 64-bit high product rebuilt
 * from 24-bit limbs, which is exact for the operand ranges of the sampler. Those ranges are checked
 * per batch; a batch outside them is left to the scalar code.
 *
 * <p>Loaded only through {@link VectorSupport#drawLanes()}, after the module check.
 */
final class VectorDraws {
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    /** Draws per batch. */
    static final int W = S.length();

    private static final long M24 = (1L << 24) - 1;
    private static final long MASK48 = FixedPoint.MASK48;
    private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private VectorDraws() {}

    /**
     * Evaluates the draws at {@code rand[o + 17 t]}, t &lt; W (bytes up to {@code o + 17 W} are read).
     * Writes, per draw t: the rounded sample to {@code out[t]}, the acceptance bit to
     * {@code out[W + t]}, the square's limbs to {@code out[2W + t]} (low 48 bits) and
     * {@code out[3W + t]}; {@code out} has 6W entries (the last 2W are scratch). Returns false, with
     * {@code out} unspecified, if an operand of a high product left the range in which the limb
     * products are exact (the caller then draws this batch with the scalar code); for the sampler's
     * inputs that does not happen.
     *
     * <p>The work is split into three methods that pass their vectors through {@code out}: C2 stops
     * inlining the Vector API calls of one large method (node count limit), and a vector that is not
     * inlined is boxed, i.e. allocated.
     */
    static boolean drawV112(byte[] rand, int o, long[] out) {
        for (int t = 0; t < W; t++) {
            int at = o + 17 * t;
            out[t] = (long) LE64.get(rand, at);
            out[W + t] = (long) LE64.get(rand, at + 8);
            out[2 * W + t] = rand[at + 16] & 0xffL;
        }
        front16(out);
        squareAndExponent(out);
        return accept(out, EXP112, SHIFT112);
    }

    /**
     * {@link #W} consecutive v1.2.0 draws of one stream at {@code rand[o + 26 t]}, with the same
     * output as {@link #drawV112} (bytes up to {@code o + 26 W + 5} are read, as the scalar draws do):
     * the CDT indices by {@link #cdt83}, the rounding and field extraction in scalar code, then the
     * square and the degree-10 {@code approx_exp} in vectors. Returns false, with {@code out}
     * unspecified, if an operand of a high product left the range in which the limb products are
     * exact.
     */
    static boolean drawV120(byte[] rand, int o, long[] out) {
        cdt83(rand, o, out);
        for (int t = 0; t < W; t++) {
            int at = o + 26 * t;
            long x = out[t];
            long ylo = (long) LE64.get(rand, at + 17) & MASK48;
            long yhi = ((long) LE64.get(rand, at + 23) & 0xffffff) | (x << 24);
            out[t] = HyperballSampler.roundV120(ylo, yhi);
            out[W + t] = (long) LE64.get(rand, at + 11) & MASK48; // randRej
            out[2 * W + t] = ylo;
            out[3 * W + t] = yhi;
            out[4 * W + t] = x;
        }
        squareAndExponent(out);
        return accept(out, EXP120, SHIFT120);
    }

    /**
     * The CDT index x (count of table entries below the 83-bit random value) of the {@link #W}
     * v1.2.0 draws at {@code rand[o + 26 t]}, t &lt; W, into {@code out[t]}; {@code out[W .. 2W)} is
     * scratch. Bytes up to {@code o + 26 (W - 1) + 16} are read. The same constant-time two-limb
     * comparison as {@code HyperballSampler.cdt83}, one table entry against W random values per step
     * instead of a whole table scan per draw, which takes about half the time per draw
     * (docs/measurements/haetae.md).
     */
    static void cdt83(byte[] rand, int o, long[] out) {
        for (int t = 0; t < W; t++) {
            int at = o + 26 * t;
            long lo = (long) LE64.get(rand, at);
            long hi = (long) LE64.get(rand, at + 8) & 0x7ffff;
            out[t] = ((hi << 23) | (lo >>> 41)) << 1;
            out[W + t] = lo & Cdt83.MASK41;
        }
        LongVector top2 = LongVector.fromArray(S, out, 0);
        LongVector low = LongVector.fromArray(S, out, W);
        long[] tableTop2 = Cdt83.TOP42X2;
        long[] tableLow = Cdt83.LOW41_PADDED;
        LongVector x = LongVector.zero(S);
        for (int i = 0; i < tableTop2.length; i++) {
            LongVector borrow =
                    LongVector.broadcast(S, tableLow[i]).lanewise(SUB, low).lanewise(LSHR, 63);
            x = x.lanewise(
                    ADD,
                    LongVector.broadcast(S, tableTop2[i])
                            .lanewise(SUB, top2)
                            .lanewise(SUB, borrow)
                            .lanewise(LSHR, 63));
        }
        x.intoArray(out, 0);
    }

    /**
     * From out = (w0, w1, byte 16) per draw, v1.1.2: the CDT value and the rounded sample. Leaves
     * out = (r, randRej, ylo, yhi, x).
     */
    private static void front16(long[] out) {
        LongVector w0 = LongVector.fromArray(S, out, 0);
        LongVector w1 = LongVector.fromArray(S, out, W);
        LongVector b16 = LongVector.fromArray(S, out, 2 * W);

        // CDT: three 21-bit fields per table word (see HyperballSampler.cdt16)
        LongVector v = w0.lanewise(AND, 0xffffL).lanewise(ADD, 1L << 16);
        LongVector rr = v.lanewise(OR, v.lanewise(LSHL, 21)).lanewise(OR, v.lanewise(LSHL, 42));
        long[] table = HyperballSampler.CDT16_SWAR;
        long bit16 = HyperballSampler.SWAR_BIT16;
        LongVector acc = LongVector.zero(S);
        for (int i = 0; i < table.length; i++) {
            acc = acc.lanewise(ADD, rr.lanewise(SUB, table[i]).lanewise(AND, bit16));
        }
        LongVector x = acc.lanewise(LSHR, 16)
                .lanewise(AND, 0x1fL)
                .lanewise(ADD, acc.lanewise(LSHR, 37).lanewise(AND, 0x1fL))
                .lanewise(ADD, acc.lanewise(LSHR, 58));

        LongVector ylo = w1.lanewise(AND, MASK48);
        LongVector yhi =
                w1.lanewise(LSHR, 48).lanewise(OR, b16.lanewise(LSHL, 16)).lanewise(OR, x.lanewise(LSHL, 24));
        // roundV112
        LongVector r = ylo.lanewise(LSHR, 15)
                .lanewise(XOR, yhi.lanewise(LSHL, 33))
                .lanewise(ADD, 1L)
                .lanewise(LSHR, 1);
        r.intoArray(out, 0);
        w0.lanewise(LSHR, 16).intoArray(out, W); // randRej
        ylo.intoArray(out, 2 * W);
        yhi.intoArray(out, 3 * W);
        x.intoArray(out, 4 * W);
    }

    /**
     * From out = (r, randRej, ylo, yhi, x): the truncated square of y = yhi 2^48 + ylo and the
     * exponent input of approx_exp. Leaves out = (r, randRej, sq lo, sq hi, expIn).
     */
    private static void squareAndExponent(long[] out) {
        LongVector ylo = LongVector.fromArray(S, out, 2 * W);
        LongVector yhi = LongVector.fromArray(S, out, 3 * W);
        LongVector x = LongVector.fromArray(S, out, 4 * W);
        // square: ylo < 2^48 = a 2^24 + b, yhi < 2^32 (x <= 166); yhi^2 wraps, read unsigned below
        LongVector a = ylo.lanewise(LSHR, 24);
        LongVector b = ylo.lanewise(AND, M24);
        // floor(ylo^2 / 2^48) = a^2 + floor((2ab + floor(b^2 / 2^24)) / 2^24)
        LongVector s0 = a.lanewise(MUL, a)
                .lanewise(
                        ADD,
                        a.lanewise(MUL, b)
                                .lanewise(LSHL, 1)
                                .lanewise(ADD, b.lanewise(MUL, b).lanewise(LSHR, 24))
                                .lanewise(LSHR, 24));
        // P = ylo yhi < 2^79: P mod 2^48 from the wrapping product, floor(P / 2^48) from the limbs
        s0 = s0.lanewise(ADD, ylo.lanewise(MUL, yhi).lanewise(AND, MASK48).lanewise(LSHL, 1));
        LongVector s1 = a.lanewise(MUL, yhi)
                .lanewise(ADD, b.lanewise(MUL, yhi).lanewise(LSHR, 24))
                .lanewise(LSHR, 24)
                .lanewise(LSHL, 1);
        s0 = s0.lanewise(LSHR, 28);
        s0 = s0.lanewise(ADD, s1.lanewise(LSHL, 20).lanewise(AND, MASK48));
        s1 = s1.lanewise(LSHR, 28);
        LongVector p0 = yhi.lanewise(MUL, yhi);
        s0 = s0.lanewise(ADD, p0.lanewise(LSHL, 20).lanewise(AND, MASK48));
        s1 = s1.lanewise(ADD, p0.lanewise(LSHR, 28));
        s1 = s1.lanewise(ADD, s0.lanewise(LSHR, 48));
        s0 = s0.lanewise(AND, MASK48);

        LongVector expIn = s1.lanewise(SUB, x.lanewise(MUL, x).lanewise(LSHL, 20))
                .lanewise(LSHL, 20)
                .lanewise(OR, s0.lanewise(LSHR, 28))
                .lanewise(ADD, 1L)
                .lanewise(LSHR, 1);
        s0.intoArray(out, 2 * W);
        s1.intoArray(out, 3 * W);
        expIn.intoArray(out, 4 * W);
    }

    /**
     * The approx_exp polynomials in Horner order, step k: r = ((mulh48(r, x) + 2^(s-1)) >> s) + c_k
     * with s = SHIFT[k] (no rounding term when s = 0); as {@code HyperballSampler.approxExp112} and
     * {@code approxExp120}.
     */
    private static final long[] EXP112 = {
        -0x0000B6C6340925AEL, 0x0000B4BD4DF85227L, -0x0000887F727491E2L, 0x0000AAAA643C7E8DL,
        -0x0000AAAAA98179E6L, 0x0000FFFFFFFB2E7AL, -0x0000FFFFFFFFF85FL, 0x0000FFFFFFFFFFFCL,
    };

    private static final int[] SHIFT112 = {0, 3, 3, 2, 2, 1, 1, 0};
    private static final long[] EXP120 = {
        55868746L,
        -743564434L,
        6953427278L,
        -55833338892L,
        390932311155L,
        -2345623661771L,
        11728123872951L,
        -46912496106200L,
        140737488354861L,
        -281474976710650L,
        281474976710657L,
    };
    private static final int[] SHIFT120 = new int[EXP120.length];

    /**
     * approx_exp of expIn (out[4W..5W)) with one of the polynomials above, then the acceptance bit,
     * which replaces randRej in out. Each product is floor((e b + 2^47) / 2^48) (the scalar
     * {@code mulh48}) from 24-bit limbs e = ah 2^24 + al (al in [0, 2^24)) and b = bh 2^24 + bl, exact
     * while e is in [-2^48, 2^48) and b in [0, 2^48): then every limb product is below 2^49 in
     * magnitude. {@code bad} collects the lanes outside those ranges; the method returns false if
     * there are any. One loop over the steps keeps the method small enough for C2 to compile every
     * Vector API call in it to registers (written out, the steps had to be split over two methods).
     */
    private static boolean accept(long[] out, long[] coefficients, int[] shifts) {
        LongVector expIn = LongVector.fromArray(S, out, 4 * W);
        LongVector bad = expIn.lanewise(LSHR, 48);
        LongVector bh = expIn.lanewise(ASHR, 24);
        LongVector bl = expIn.lanewise(AND, M24);
        LongVector e = LongVector.broadcast(S, coefficients[0]);
        for (int k = 1; k < coefficients.length; k++) {
            bad = bad.lanewise(OR, e.lanewise(ADD, 1L << 48).lanewise(LSHR, 49));
            LongVector ah = e.lanewise(ASHR, 24);
            LongVector al = e.lanewise(AND, M24);
            LongVector m = ah.lanewise(MUL, bh)
                    .lanewise(
                            ADD,
                            ah.lanewise(MUL, bl)
                                    .lanewise(ADD, al.lanewise(MUL, bh))
                                    .lanewise(
                                            ADD,
                                            al.lanewise(MUL, bl)
                                                    .lanewise(LSHR, 24)
                                                    .lanewise(ADD, 1L << 23))
                                    .lanewise(ASHR, 24));
            int shift = shifts[k];
            long round = shift == 0 ? 0 : 1L << (shift - 1);
            e = m.lanewise(ADD, round).lanewise(ASHR, shift).lanewise(ADD, coefficients[k]);
        }
        if (bad.reduceLanes(OR) != 0) {
            return false;
        }
        LongVector r = LongVector.fromArray(S, out, 0);
        LongVector randRej = LongVector.fromArray(S, out, W);
        LongVector below = randRej.lanewise(XOR, randRej.lanewise(AND, 1L))
                .lanewise(SUB, e)
                .lanewise(ASHR, 63);
        // r != 0 (NEG is not intrinsified for longs in Java 17: 0 - r)
        LongVector nonzero = r.lanewise(OR, LongVector.zero(S).lanewise(SUB, r)).lanewise(LSHR, 63);
        below.lanewise(AND, nonzero.lanewise(OR, randRej)).lanewise(AND, 1L).intoArray(out, W);
        return true;
    }

    /**
     * The hyperball scaling of one polynomial, W coefficients at a time: {@code out[j] =
     * FixedPoint.mulRound13(samples[sOff + j], rlo, rhi, sign bit sBit + j of signs)} for j &lt; n (n a
     * multiple of W), returning the sum of the squares of the out[j] (wrapping, as the scalar loop).
     * The caller guarantees rlo &lt; 2^48 and rhi &lt; 2^32; a batch with a sample outside [0, 2^63)
     * is done by the scalar code. With x = xhi 2^32 + xlo', xlo = xlo' 2^16 &lt; 2^48 and xhi &lt; 2^31,
     * each 48 x 48 and 48 x 32-bit product is rebuilt from 24-bit limbs (all partial products below
     * 2^63), and xhi * rhi &lt; 2^63 has no high word.
     */
    static long scalePoly(
            long[] samples, int sOff, byte[] signs, int sBit, long rlo, long rhi, int[] out, int n, long[] tmp) {
        LongVector ylo = LongVector.broadcast(S, rlo);
        LongVector yhi = LongVector.broadcast(S, rhi);
        LongVector yh24 = ylo.lanewise(LSHR, 24);
        LongVector yl24 = ylo.lanewise(AND, M24);
        long sq = 0;
        for (int j = 0; j < n; j += W) {
            LongVector x = LongVector.fromArray(S, samples, sOff + j);
            if (x.reduceLanes(OR) < 0) { // a sample with bit 63 set: not in the range above
                for (int t = 0; t < W; t++) {
                    int bit = sBit + j + t;
                    int v = FixedPoint.mulRound13(samples[sOff + j + t], rlo, rhi, (signs[bit >>> 3] >> (bit & 7)) & 1);
                    out[j + t] = v;
                    sq += (long) v * v;
                }
                continue;
            }
            LongVector xhi = x.lanewise(LSHR, 32);
            LongVector xlo = x.lanewise(AND, 0xffffffffL).lanewise(LSHL, 16);
            LongVector xh24 = xlo.lanewise(LSHR, 24);
            LongVector xl24 = xlo.lanewise(AND, M24);
            // floor((xlo rlo + 2^47) / 2^48)
            LongVector zlo = xh24.lanewise(MUL, yh24)
                    .lanewise(
                            ADD,
                            xh24.lanewise(MUL, yl24)
                                    .lanewise(ADD, xl24.lanewise(MUL, yh24))
                                    .lanewise(
                                            ADD,
                                            xl24.lanewise(MUL, yl24)
                                                    .lanewise(LSHR, 24)
                                                    .lanewise(ADD, 1L << 23))
                                    .lanewise(LSHR, 24));
            // xlo rhi: low 48 bits and floor(/ 2^48)
            zlo = zlo.lanewise(ADD, xlo.lanewise(MUL, yhi).lanewise(AND, MASK48));
            LongVector zhi = xh24.lanewise(MUL, yhi)
                    .lanewise(ADD, xl24.lanewise(MUL, yhi).lanewise(LSHR, 24))
                    .lanewise(LSHR, 24);
            // xhi rlo
            zlo = zlo.lanewise(ADD, xhi.lanewise(MUL, ylo).lanewise(AND, MASK48));
            zhi = zhi.lanewise(
                    ADD,
                    xhi.lanewise(MUL, yh24)
                            .lanewise(ADD, xhi.lanewise(MUL, yl24).lanewise(LSHR, 24))
                            .lanewise(LSHR, 24));
            zlo = zlo.lanewise(ADD, 1L << 27).lanewise(LSHR, 28);
            zlo = zlo.lanewise(ADD, zhi.lanewise(LSHL, 20).lanewise(AND, MASK48));
            zhi = zhi.lanewise(LSHR, 28);
            // xhi rhi < 2^63
            LongVector p0 = xhi.lanewise(MUL, yhi);
            zlo = zlo.lanewise(ADD, p0.lanewise(LSHL, 20).lanewise(AND, MASK48));
            zhi = zhi.lanewise(ADD, p0.lanewise(LSHR, 28));
            zhi = zhi.lanewise(ADD, zlo.lanewise(LSHR, 48));
            zhi.lanewise(ADD, 1L << 14).lanewise(LSHR, 15).intoArray(tmp, 0);
            for (int t = 0; t < W; t++) {
                int bit = sBit + j + t;
                long sign = (signs[bit >>> 3] >> (bit & 7)) & 1;
                int v = (int) ((tmp[t] ^ -sign) + sign);
                out[j + t] = v;
                sq += (long) v * v;
            }
        }
        return sq;
    }
}
