package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.LN;
import static dev.pqsign.haetae.HaetaeParameterSet.N;

import dev.pqsign.haetae.FixedPoint.Fp;

/**
 * Uniform sampling from the (l + k) * 256-dimensional hyperball of radius B0, in fixed point with 13
 * fractional bits: draw (l + k) * 256 + 2 discrete Gaussians of width 76 bits via a CDT base sampler
 * and an exponential rejection, then scale the first (l + k) * 256 by B0 / ||all||, with the norm's
 * inverse square root from Newton's method. Bit-exact with the reference for both sampler versions.
 */
final class HyperballSampler {
    /** v1.1.2 16-bit CDT of D_{Z,16} (specification data). */
    private static final int[] CDT16 = {
        3266, 6520, 9748, 12938, 16079, 19159, 22168, 25096, 27934, 30674, 33309,
        35833, 38241, 40531, 42698, 44742, 46663, 48460, 50135, 51690, 53128, 54454,
        55670, 56781, 57794, 58712, 59541, 60287, 60956, 61554, 62085, 62556, 62972,
        63337, 63657, 63936, 64178, 64388, 64569, 64724, 64857, 64970, 65066, 65148,
        65216, 65273, 65321, 65361, 65394, 65422, 65444, 65463, 65478, 65490, 65500,
        65508, 65514, 65519, 65523, 65527, 65529, 65531, 65533, 65534,
    };

    private HyperballSampler() {
    }

    /** Per-context buffers of the sampler. */
    static final class Work {
        final long[] samples;
        final byte[] signs;
        final byte[] draw = new byte[32];
        final Fp sqsum = new Fp();
        final Fp sqr = new Fp();
        final Fp y = new Fp();
        final Fp invsqrt = new Fp();
        final Fp radius = new Fp();
        final Fp startCube = new Fp();
        final Fp startThreeHalves = new Fp();
        final FixedPoint.Scratch scratch = new FixedPoint.Scratch();
        final byte[] bSeed = new byte[HaetaeParameterSet.CRHBYTES + 2];
        /** The output bit pair b of the last call (bit 0: sign, bit 1: rejection selector). */
        int b;

        Work(HaetaeParameterSet p) {
            samples = new long[(p.l + p.k) * N];
            signs = new byte[(p.l + p.k) * N / 8];
            startValues(p, startCube, startThreeHalves);
        }

        void wipe() {
            java.util.Arrays.fill(samples, 0L);
            java.util.Arrays.fill(signs, (byte) 0);
            java.util.Arrays.fill(draw, (byte) 0);
            java.util.Arrays.fill(bSeed, (byte) 0);
            sqsum.set(0, 0);
            sqr.set(0, 0);
            y.set(0, 0);
            invsqrt.set(0, 0);
            radius.set(0, 0);
            b = 0;
        }
    }

    /**
     * Newton start values: round(2^64 / sqrt((k+l) n + 2)^3) and round(2^64 * 2 / (3 sqrt((k+l) n + 2)))
     * as 48-bit limbs (specification constants).
     */
    static void startValues(HaetaeParameterSet p, Fp cube, Fp threeHalves) {
        switch (p) {
            case HAETAE_2:
                cube.set(0x770077e2e41aL, 0x1162L);
                threeHalves.set(0x693861ad937bL, 0x9caa56L);
                break;
            case HAETAE_3:
                cube.set(0x1a2935cfae68L, 0x978L);
                threeHalves.set(0x7ad215218533L, 0x7ff1c9L);
                break;
            default:
                cube.set(0x700ff3e8890dL, 0x702L);
                threeHalves.set(0x5768588eed31L, 0x73bd40L);
                break;
        }
    }

    /**
     * The scaling radius of a hyperball draw from the squared norm of its Gaussian vector:
     * {@code radius = (b0 + sqnm/2) / sqrt(sqsum / 2)} in fixed point. Halves {@code sqsum} in place
     * (rounding), as the reference does; shared by the fast and the compact engine so both compute
     * bit for bit the same value.
     */
    static void radius(HaetaeParameterSet p, Fp sqsum, Fp invsqrt, Fp radius, Fp startCube, Fp startThreeHalves,
            FixedPoint.Scratch scratch) {
        Fp s = sqsum;
        s.lo += 1;
        s.lo >>>= 1;
        s.lo += (s.hi & 1) << 47;
        s.hi >>>= 1;
        s.hi += s.lo >>> 48;
        s.lo &= FixedPoint.MASK48;
        FixedPoint.newtonInvSqrt(invsqrt, s, startCube, startThreeHalves, scratch);
        long scale = ((long) (p.b0 * LN + p.sqnm / 2)) << (28 - 13);
        FixedPoint.mulHigh(radius, invsqrt, scale);
    }

    /**
     * Samples y = (y1, y2) from the hyperball. Writes y1 (l polynomials) and y2 (k polynomials) in
     * fixed point, sets {@code w.b}, and returns the next nonce.
     */
    static int sample(HaetaeParameterSet p, HaetaeSampler version, Keccak xof, Work w, byte[] seed,
            int nonce, int[][] y1, int[][] y2) {
        int ni = nonce;
        long bound = p.b0sq * LN * LN;
        int dims = p.l + p.k;
        while (true) {
            w.sqsum.set(0, 0);
            gaussPoly(version, xof, w, seed, ni++, 0, N + 1);
            gaussPoly(version, xof, w, seed, ni++, 1, N + 1);
            for (int i = 2; i < dims; i++) {
                gaussPoly(version, xof, w, seed, ni++, i, N);
            }
            radius(p, w.sqsum, w.invsqrt, w.radius, w.startCube, w.startThreeHalves, w.scratch);
            long sq = 0;
            long rlo = w.radius.lo;
            long rhi = w.radius.hi;
            for (int i = 0; i < dims; i++) {
                int[] out = i < p.l ? y1[i] : y2[i - p.l];
                int base = i * N;
                for (int j = 0; j < N; j++) {
                    int idx = base + j;
                    int sign = (w.signs[idx >>> 3] >> (idx & 7)) & 1;
                    int v = FixedPoint.mulRound13(w.samples[idx], rlo, rhi, sign);
                    out[j] = v;
                    sq += (long) v * v;
                }
            }
            if (Long.compareUnsigned(sq, bound) <= 0) {
                break;
            }
        }
        System.arraycopy(seed, 0, w.bSeed, 0, HaetaeParameterSet.CRHBYTES);
        w.bSeed[HaetaeParameterSet.CRHBYTES] = (byte) ni;
        w.bSeed[HaetaeParameterSet.CRHBYTES + 1] = (byte) (ni >>> 8);
        xof.initShake256().absorb(w.bSeed, 0, w.bSeed.length);
        w.b = xof.squeezeByte();
        return ni & 0xffff;
    }

    /**
     * Draws {@code len} accepted Gaussians for polynomial {@code poly} from SHAKE256(seed || nonce):
     * len/8 sign bytes first, then fixed-size draws. With len = 257 the last accepted sample only
     * contributes to the norm (the two extra hyperball dimensions).
     */
    private static void gaussPoly(HaetaeSampler version, Keccak xof, Work w, byte[] seed, int nonce,
            int poly, int len) {
        xof.initShake256().absorb(seed, 0, HaetaeParameterSet.CRHBYTES).absorbU16(nonce & 0xffff);
        xof.squeeze(w.signs, poly * (N / 8), len / 8);
        int base = poly * N;
        int count = 0;
        int drawBytes = version.drawBytes;
        while (count < len) {
            byte[] src = xof.buffer();
            int at = xof.view(drawBytes);
            if (at < 0) {
                // the draw straddles two Keccak blocks: copy it out
                xof.squeeze(w.draw, 0, drawBytes);
                src = w.draw;
                at = 0;
            }
            long r = version == HaetaeSampler.V1_2_0 ? draw83(src, at, w.sqr, w.y) : draw16(src, at, w.sqr, w.y);
            // Branch-free bookkeeping (as the reference): the sample is always stored at the current
            // slot and the slot only advances when accepted. Without an unpredictable branch the CPU
            // overlaps consecutive draws' multiplication chains. For len = 257 the extra sample lands
            // in the next polynomial's first slot, which is overwritten when that polynomial is drawn.
            long accepted = r & 1;
            w.samples[base + count] = w.y.lo;
            w.sqsum.lo += w.sqr.lo & -accepted;
            w.sqsum.hi += w.sqr.hi & -accepted;
            count += (int) accepted;
        }
        FixedPoint.renormalize(w.sqsum);
    }

    private static final java.lang.invoke.VarHandle LE64 = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(
            long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * The v1.1.2 CDT in SWAR form: three 21-bit fields per long, field f of word w holding
     * {@code CDT16[3w + f] + 1} (65536, which never counts, pads the last word). For a replicated
     * {@code 2^16 + rand16} the field difference {@code 2^16 + rand16 - (c + 1)} stays in [0, 2^17), so
     * fields never borrow from each other and bit 16 of a field is set exactly when c &lt; rand16.
     */
    private static final long[] CDT16_SWAR = new long[(CDT16.length + 2) / 3];
    private static final long SWAR_ONES = 1L | 1L << 21 | 1L << 42;
    private static final long SWAR_BIT16 = SWAR_ONES << 16;

    static {
        for (int w = 0; w < CDT16_SWAR.length; w++) {
            long v = 0;
            for (int f = 0; f < 3; f++) {
                int i = 3 * w + f;
                long c1 = i < CDT16.length ? CDT16[i] + 1 : 1 << 16;
                v |= c1 << (21 * f);
            }
            CDT16_SWAR[w] = v;
        }
    }

    /**
     * One v1.1.2 draw from 17 bytes. Returns the acceptance bit; the rounded sample is left in
     * {@code y.lo} (a reused scratch) and its square in {@code sqr}.
     */
    static long draw16(byte[] rand, int o, Fp sqr, Fp y) {
        long w0 = (long) LE64.get(rand, o);
        long x = cdt16(w0 & 0xffff);
        long w1 = (long) LE64.get(rand, o + 8);
        long ylo = w1 & FixedPoint.MASK48;
        long yhi = (w1 >>> 48) | (rand[o + 16] & 0xffL) << 16 | (x << 24);
        return finishDraw(x, round16(ylo, yhi), w0 >>> 16, ylo, yhi, sqr, y, false);
    }

    /**
     * The sample of a v1.1.2 draw known to be accepted: what {@link #draw16} leaves in {@code y.lo},
     * without the rejection step (the streaming engine replays draws whose fate it recorded).
     */
    static long value16(byte[] rand, int o) {
        long x = cdt16((long) LE64.get(rand, o) & 0xffff);
        long w1 = (long) LE64.get(rand, o + 8);
        return round16(w1 & FixedPoint.MASK48, (w1 >>> 48) | (rand[o + 16] & 0xffL) << 16 | (x << 24));
    }

    /**
     * Constant-time count of CDT16 entries below rand16, three entries per 64-bit subtraction; each
     * field sums at most 22 bit-16 flags, so the sums stay inside their 21-bit fields.
     */
    private static long cdt16(long rand16) {
        long rr = ((1L << 16) + rand16) * SWAR_ONES;
        long[] t = CDT16_SWAR;
        long acc = 0;
        for (int i = 0; i < t.length; i++) {
            acc += (rr - t[i]) & SWAR_BIT16;
        }
        return ((acc >>> 16) & 0x1f) + ((acc >>> 37) & 0x1f) + (acc >>> 58);
    }

    private static long round16(long ylo, long yhi) {
        long r = (ylo >>> 15) ^ (yhi << 33);
        r += 1;
        return r >>> 1;
    }

    /** One v1.2.0 draw from 26 bytes (83-bit CDT), as {@link #draw16}. */
    static long draw83(byte[] rand, int o, Fp sqr, Fp y) {
        long x = cdt83((long) LE64.get(rand, o), (long) LE64.get(rand, o + 8) & 0x7ffff);
        long ylo = (long) LE64.get(rand, o + 17) & FixedPoint.MASK48;
        long yhi = ((long) LE64.get(rand, o + 23) & 0xffffff) | (x << 24);
        long randRej = (long) LE64.get(rand, o + 11) & FixedPoint.MASK48;
        return finishDraw(x, round83(ylo, yhi), randRej, ylo, yhi, sqr, y, true);
    }

    /** The sample of a v1.2.0 draw known to be accepted, as {@link #value16}. */
    static long value83(byte[] rand, int o) {
        long x = cdt83((long) LE64.get(rand, o), (long) LE64.get(rand, o + 8) & 0x7ffff);
        long ylo = (long) LE64.get(rand, o + 17) & FixedPoint.MASK48;
        return round83(ylo, ((long) LE64.get(rand, o + 23) & 0xffffff) | (x << 24));
    }

    /**
     * Constant-time count of table entries below the 83-bit random value. With both split into
     * 42 + 41 bit limbs, t = 2 (top_c - top_r) - [low_c < low_r] is negative exactly when
     * cdt < rnd (|low difference| < 2^41 cannot outweigh a nonzero top difference).
     */
    private static long cdt83(long randLo, long randHi) {
        long rTop2 = ((randHi << 23) | (randLo >>> 41)) << 1;
        long rLow = randLo & Cdt83.MASK41;
        long[] top2 = Cdt83.TOP42X2;
        long[] low = Cdt83.LOW41_PADDED;
        long x = 0;
        for (int i = 0; i < top2.length; i++) {
            x += (top2[i] - rTop2 - ((low[i] - rLow) >>> 63)) >>> 63;
        }
        return x;
    }

    private static long round83(long ylo, long yhi) {
        long r = ((ylo >>> 15) + 1) >>> 1;
        return r + (yhi << 32);
    }

    /**
     * Rejection step shared by both draws. {@code ylo} &lt; 2^48 and {@code yhi} &lt; 2^32 (x &lt;= 166), so
     * the square needs no unsigned corrections, and the exponent input is y^2 - x^2 &gt;= 0, so the
     * signed-by-unsigned products in {@code approx_exp} need none either.
     */
    private static long finishDraw(long x, long r, long randRej, long ylo, long yhi, Fp sqr, Fp y, boolean v120) {
        // y^2 truncated as FixedPoint.square, specialised to non-negative limbs with yhi^2 < 2^64
        long p0 = ylo * ylo;
        long p1 = Math.multiplyHigh(ylo, ylo);
        long s0 = (p1 << 16) ^ (p0 >>> 48);
        p0 = ylo * yhi;
        p1 = Math.multiplyHigh(ylo, yhi);
        s0 += (p0 & FixedPoint.MASK48) << 1;
        long s1 = ((p1 << 16) ^ (p0 >>> 48)) << 1;
        s0 >>>= 28;
        s0 += (s1 << 20) & FixedPoint.MASK48;
        s1 >>>= 28;
        p0 = yhi * yhi;
        s0 += (p0 << 20) & FixedPoint.MASK48;
        s1 += p0 >>> 28;
        s1 += s0 >>> 48;
        s0 &= FixedPoint.MASK48;
        sqr.lo = s0;
        sqr.hi = s1;
        long expIn = s1 - ((x * x) << (68 - 48));
        expIn <<= 20;
        expIn |= s0 >>> 28;
        expIn += 1;
        expIn >>>= 1;
        long e = v120 ? approxExp120(expIn) : approxExp112(expIn);
        long below = ((randRej ^ (randRej & 1)) - e) >> 63;
        long nonzeroOrCoin = ((r | -r) >>> 63) | randRej;
        y.lo = r;
        return below & nonzeroOrCoin & 1;
    }

    /** {@link FixedPoint#smulh48} for b &gt;= 0 (no unsigned correction needed). */
    private static long mulh48(long a, long b) {
        long lo = a * b;
        return ((Math.multiplyHigh(a, b) << 16) | (lo >>> 48)) + ((lo >>> 47) & 1);
    }

    private static long approxExp112(long x) {
        long r = -0x0000B6C6340925AEL;
        r = ((mulh48(r, x) + (1L << 2)) >> 3) + 0x0000B4BD4DF85227L;
        r = ((mulh48(r, x) + (1L << 2)) >> 3) - 0x0000887F727491E2L;
        r = ((mulh48(r, x) + (1L << 1)) >> 2) + 0x0000AAAA643C7E8DL;
        r = ((mulh48(r, x) + (1L << 1)) >> 2) - 0x0000AAAAA98179E6L;
        r = ((mulh48(r, x) + 1L) >> 1) + 0x0000FFFFFFFB2E7AL;
        r = ((mulh48(r, x) + 1L) >> 1) - 0x0000FFFFFFFFF85FL;
        r = mulh48(r, x) + 0x0000FFFFFFFFFFFCL;
        return r;
    }

    /** Degree-10 polynomial for exp(-z), coefficients ceil(c_k * 2^48) (GALACTICS, v1.2.0). */
    private static long approxExp120(long x) {
        long r = 55868746L;
        r = mulh48(r, x) - 743564434L;
        r = mulh48(r, x) + 6953427278L;
        r = mulh48(r, x) - 55833338892L;
        r = mulh48(r, x) + 390932311155L;
        r = mulh48(r, x) - 2345623661771L;
        r = mulh48(r, x) + 11728123872951L;
        r = mulh48(r, x) - 46912496106200L;
        r = mulh48(r, x) + 140737488354861L;
        r = mulh48(r, x) - 281474976710650L;
        r = mulh48(r, x) + 281474976710657L;
        return r;
    }
}
