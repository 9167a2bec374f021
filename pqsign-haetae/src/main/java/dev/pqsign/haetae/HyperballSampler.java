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

    private HyperballSampler() {}

    /** Slots per polynomial in {@code Work.samples}: n, plus one for the 257th draw of y1_0 and y1_1. */
    static final int SAMPLE_STRIDE = N + 1;
    /** Room before a stream's blocks in {@code Work.vbuf} for the head of a draw cut by a chunk end. */
    private static final int LEAD = 32;
    /** Most SHAKE256 blocks squeezed per stream and chunk on the vector path. */
    static final int CHUNK_BLOCKS = 8;
    /** Bytes per stream in {@code Work.vbuf}: the lead, a chunk, and 8 bytes for 8-byte reads past a draw. */
    static final int VSLOT = LEAD + CHUNK_BLOCKS * Keccak.SHAKE256_RATE + 8;

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
        /**
         * Vector path (see {@link VectorSupport}): states per vector permutation, or 0 for the scalar
         * path. With lanes &gt; 0, up to {@code lanes} Gaussian streams are squeezed in lock-step:
         * their interleaved Keccak states, each stream's output bytes of the current chunk, and each
         * stream's read position, end of data and accepted-draw count.
         */
        final int lanes;

        final long[] vstate;
        final byte[] vbuf;
        final int[] vpos;
        final int[] vend;
        final int[] vcount;
        /** Vector v1.1.2 draws per batch ({@link VectorDraws}), or 0; results of one batch. */
        final int drawLanes;

        final long[] vdraws;

        Work(HaetaeParameterSet p) {
            this(p, VectorSupport.LANES, VectorSupport.drawLanes());
        }

        Work(HaetaeParameterSet p, int lanes, int drawLanes) {
            samples = new long[(p.l + p.k) * SAMPLE_STRIDE];
            signs = new byte[(p.l + p.k) * N / 8];
            startValues(p, startCube, startThreeHalves);
            this.lanes = lanes;
            vstate = new long[2 * 25 * lanes]; // the states and VectorKeccak's scratch half
            vbuf = new byte[VSLOT * lanes];
            vpos = new int[lanes];
            vend = new int[lanes];
            vcount = new int[lanes];
            this.drawLanes = drawLanes;
            vdraws = new long[6 * drawLanes];
        }

        void wipe() {
            java.util.Arrays.fill(samples, 0L);
            java.util.Arrays.fill(signs, (byte) 0);
            java.util.Arrays.fill(draw, (byte) 0);
            java.util.Arrays.fill(bSeed, (byte) 0);
            java.util.Arrays.fill(vstate, 0L);
            java.util.Arrays.fill(vbuf, (byte) 0);
            java.util.Arrays.fill(vdraws, 0L);
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
    static void radius(
            HaetaeParameterSet p,
            Fp sqsum,
            Fp invsqrt,
            Fp radius,
            Fp startCube,
            Fp startThreeHalves,
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
    static int sample(
            HaetaeParameterSet p,
            HaetaeSampler version,
            Keccak xof,
            Work w,
            byte[] seed,
            int nonce,
            int[][] y1,
            int[][] y2) {
        int ni = nonce;
        long bound = p.b0sq * LN * LN;
        int dims = p.l + p.k;
        int minGroup = Math.max(2, w.lanes / 2 - 1);
        boolean vector = w.lanes > 0; // fixed per JVM: VectorSupport's opt-in
        while (true) {
            w.sqsum.set(0, 0);
            int done = 0;
            if (vector) {
                // groups of streams through the vector Keccak; a small remainder stays scalar, where
                // a few scalar permutations cost less than one of all lanes
                while (dims - done >= minGroup) {
                    int n = Math.min(w.lanes, dims - done);
                    gaussPolys(version, w, seed, ni + done, done, n);
                    done += n;
                }
            }
            for (int i = done; i < dims; i++) {
                gaussPoly(version, xof, w, seed, ni + i, i, i < 2 ? N + 1 : N);
            }
            ni += dims;
            radius(p, w.sqsum, w.invsqrt, w.radius, w.startCube, w.startThreeHalves, w.scratch);
            long sq = 0;
            long rlo = w.radius.lo;
            long rhi = w.radius.hi;
            boolean vectorScale = vector && w.drawLanes > 0 && (rlo >>> 48) == 0 && (rhi >>> 32) == 0;
            for (int i = 0; i < dims; i++) {
                int[] out = i < p.l ? y1[i] : y2[i - p.l];
                int base = i * N;
                int sBase = i * SAMPLE_STRIDE;
                if (vectorScale) {
                    sq += VectorDraws.scalePoly(w.samples, sBase, w.signs, base, rlo, rhi, out, N, w.vdraws);
                    continue;
                }
                for (int j = 0; j < N; j++) {
                    int idx = base + j;
                    int sign = (w.signs[idx >>> 3] >> (idx & 7)) & 1;
                    int v = FixedPoint.mulRound13(w.samples[sBase + j], rlo, rhi, sign);
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
    static void gaussPoly(HaetaeSampler version, Keccak xof, Work w, byte[] seed, int nonce, int poly, int len) {
        xof.initShake256().absorb(seed, 0, HaetaeParameterSet.CRHBYTES).absorbU16(nonce & 0xffff);
        xof.squeeze(w.signs, poly * (N / 8), len / 8);
        int base = poly * SAMPLE_STRIDE;
        int count = 0;
        int drawBytes = version.drawBytes;
        while (count < len) {
            int at = xof.viewOrCopy(drawBytes, w.draw); // -1: copied to w.draw
            byte[] src = at < 0 ? w.draw : xof.buffer();
            at = Math.max(at, 0);
            long r = version == HaetaeSampler.V1_2_0 ? drawV120(src, at, w.sqr, w.y) : drawV112(src, at, w.sqr, w.y);
            // Branch-free bookkeeping (as the reference): the sample is always stored at the current
            // slot and the slot only advances when accepted. Without an unpredictable branch the CPU
            // overlaps consecutive draws' multiplication chains. A rejected draw lands in the next
            // free slot (for len = 257 the stride's spare slot), where the next draw overwrites it.
            long accepted = r & 1;
            w.samples[base + count] = w.y.lo;
            w.sqsum.lo += w.sqr.lo & -accepted;
            w.sqsum.hi += w.sqr.hi & -accepted;
            count += (int) accepted;
        }
        FixedPoint.renormalize(w.sqsum);
    }

    /**
     * {@link #gaussPoly} for the {@code n <= w.lanes} polynomials {@code poly0 ..} (nonces
     * {@code nonce0 ..}) at once: their SHAKE256 streams are absorbed and squeezed in lock-step by
     * {@link VectorKeccak}, a chunk of blocks at a time, and each stream's bytes are consumed exactly
     * as the scalar path consumes them (sign bytes, then draws, a draw cut by a chunk end continued in
     * the next chunk). Only the order in which accepted squares are added to the exact integer sum
     * {@code w.sqsum} differs, which does not change it. Each chunk has as many blocks as the stream
     * furthest from completion certainly still needs (at most {@link #CHUNK_BLOCKS}), so no
     * permutation is computed that the scalar path would not also compute for that stream.
     */
    static void gaussPolys(HaetaeSampler version, Work w, byte[] seed, int nonce0, int poly0, int n) {
        final int lanes = w.lanes;
        final int rate = Keccak.SHAKE256_RATE;
        final int laneWords = rate / 8;
        long[] st = w.vstate;
        byte[] buf = w.vbuf;
        // absorb seed (64 bytes = lanes 0..7) || nonce (2 bytes) and the SHAKE padding: one block
        java.util.Arrays.fill(st, 0L);
        for (int i = 0; i < HaetaeParameterSet.CRHBYTES / 8; i++) {
            java.util.Arrays.fill(st, i * lanes, (i + 1) * lanes, (long) LE64.get(seed, 8 * i));
        }
        for (int j = 0; j < lanes; j++) {
            long nonce = j < n ? (nonce0 + j) & 0xffff : 0;
            st[8 * lanes + j] = nonce | 0x1fL << 16;
            st[(laneWords - 1) * lanes + j] = 0x80L << 56;
        }
        int drawBytes = version.drawBytes;
        boolean v120 = version == HaetaeSampler.V1_2_0;
        long[] samples = w.samples;
        int dw = w.drawLanes;
        long[] vd = w.vdraws;
        int active = 0;
        int blocks = 1;
        for (int j = 0; j < n; j++) {
            active |= 1 << j;
            w.vpos[j] = j * VSLOT + LEAD;
            w.vend[j] = j * VSLOT + LEAD;
            w.vcount[j] = 0;
            int len = poly0 + j < 2 ? N + 1 : N;
            blocks = Math.max(blocks, (len / 8 + len * drawBytes + rate - 1) / rate);
        }
        boolean first = true;
        while (active != 0) {
            blocks = Math.min(blocks, CHUNK_BLOCKS);
            // keep the unread head of a cut draw just before the new chunk
            for (int j = 0; j < n; j++) {
                if ((active >>> j & 1) != 0) {
                    int carry = w.vend[j] - w.vpos[j];
                    int start = j * VSLOT + LEAD;
                    System.arraycopy(buf, w.vpos[j], buf, start - carry, carry);
                    w.vpos[j] = start - carry;
                    w.vend[j] = start + blocks * rate;
                }
            }
            for (int c = 0; c < blocks; c++) {
                VectorKeccak.permute(st);
                for (int j = 0; j < n; j++) {
                    if ((active >>> j & 1) != 0) {
                        int o = j * VSLOT + LEAD + c * rate;
                        for (int i = 0; i < laneWords; i++) {
                            LE64.set(buf, o + 8 * i, st[i * lanes + j]);
                        }
                    }
                }
            }
            int need = 0;
            for (int j = 0; j < n; j++) {
                if ((active >>> j & 1) == 0) {
                    continue;
                }
                int poly = poly0 + j;
                int len = poly < 2 ? N + 1 : N;
                int pos = w.vpos[j];
                if (first) {
                    System.arraycopy(buf, pos, w.signs, poly * (N / 8), len / 8);
                    pos += len / 8;
                }
                int end = w.vend[j];
                int count = w.vcount[j];
                int base = poly * SAMPLE_STRIDE;
                while (count < len && pos + drawBytes <= end) {
                    if (dw > 0
                            && pos + dw * drawBytes <= end
                            && (v120 ? VectorDraws.drawV120(buf, pos, vd) : VectorDraws.drawV112(buf, pos, vd))) {
                        // consume the batch draw by draw, up to the len-th acceptance
                        for (int t = 0; t < dw && count < len; t++) {
                            long accepted = vd[dw + t];
                            samples[base + count] = vd[t];
                            w.sqsum.lo += vd[2 * dw + t] & -accepted;
                            w.sqsum.hi += vd[3 * dw + t] & -accepted;
                            count += (int) accepted;
                            pos += drawBytes;
                        }
                        continue;
                    }
                    long r = v120 ? drawV120(buf, pos, w.sqr, w.y) : drawV112(buf, pos, w.sqr, w.y);
                    pos += drawBytes;
                    long accepted = r & 1;
                    samples[base + count] = w.y.lo;
                    w.sqsum.lo += w.sqr.lo & -accepted;
                    w.sqsum.hi += w.sqr.hi & -accepted;
                    count += (int) accepted;
                }
                w.vpos[j] = pos;
                w.vcount[j] = count;
                if (count == len) {
                    active &= ~(1 << j);
                } else {
                    // bytes this stream certainly still needs: the remaining draws, none rejected
                    int missing = (len - count) * drawBytes - (end - pos);
                    need = Math.max(need, (missing + rate - 1) / rate);
                }
            }
            FixedPoint.renormalize(w.sqsum);
            blocks = need;
            first = false;
        }
    }

    private static final java.lang.invoke.VarHandle LE64 =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * The v1.1.2 CDT in SWAR form: three 21-bit fields per long, field f of word w holding
     * {@code CDT16[3w + f] + 1} (65536, which never counts, pads the last word). For a replicated
     * {@code 2^16 + rand16} the field difference {@code 2^16 + rand16 - (c + 1)} stays in [0, 2^17), so
     * fields never borrow from each other and bit 16 of a field is set exactly when c &lt; rand16.
     */
    static final long[] CDT16_SWAR = new long[(CDT16.length + 2) / 3];

    private static final long SWAR_ONES = 1L | 1L << 21 | 1L << 42;
    static final long SWAR_BIT16 = SWAR_ONES << 16;

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
    static long drawV112(byte[] rand, int o, Fp sqr, Fp y) {
        long w0 = (long) LE64.get(rand, o);
        long x = cdt16(w0 & 0xffff);
        long w1 = (long) LE64.get(rand, o + 8);
        long ylo = w1 & FixedPoint.MASK48;
        long yhi = (w1 >>> 48) | (rand[o + 16] & 0xffL) << 16 | (x << 24);
        return finishDraw(x, roundV112(ylo, yhi), w0 >>> 16, ylo, yhi, sqr, y, false);
    }

    /**
     * The sample of a v1.1.2 draw known to be accepted: what {@link #drawV112} leaves in {@code y.lo},
     * without the rejection step (the streaming engine replays draws whose fate it recorded).
     */
    static long acceptedValueV112(byte[] rand, int o) {
        long x = cdt16((long) LE64.get(rand, o) & 0xffff);
        long w1 = (long) LE64.get(rand, o + 8);
        return roundV112(w1 & FixedPoint.MASK48, (w1 >>> 48) | (rand[o + 16] & 0xffL) << 16 | (x << 24));
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

    private static long roundV112(long ylo, long yhi) {
        long r = (ylo >>> 15) ^ (yhi << 33);
        r += 1;
        return r >>> 1;
    }

    /** One v1.2.0 draw from 26 bytes (83-bit CDT), as {@link #drawV112}. */
    static long drawV120(byte[] rand, int o, Fp sqr, Fp y) {
        long x = cdt83((long) LE64.get(rand, o), (long) LE64.get(rand, o + 8) & 0x7ffff);
        long ylo = (long) LE64.get(rand, o + 17) & FixedPoint.MASK48;
        long yhi = ((long) LE64.get(rand, o + 23) & 0xffffff) | (x << 24);
        long randRej = (long) LE64.get(rand, o + 11) & FixedPoint.MASK48;
        return finishDraw(x, roundV120(ylo, yhi), randRej, ylo, yhi, sqr, y, true);
    }

    /** The sample of a v1.2.0 draw known to be accepted, as {@link #acceptedValueV112}. */
    static long acceptedValueV120(byte[] rand, int o) {
        long x = cdt83((long) LE64.get(rand, o), (long) LE64.get(rand, o + 8) & 0x7ffff);
        long ylo = (long) LE64.get(rand, o + 17) & FixedPoint.MASK48;
        return roundV120(ylo, ((long) LE64.get(rand, o + 23) & 0xffffff) | (x << 24));
    }

    /**
     * Constant-time count of table entries below the 83-bit random value. With both split into
     * 42 + 41 bit limbs, t = 2 (top_c - top_r) - [low_c < low_r] is negative exactly when
     * cdt < rnd (|low difference| < 2^41 cannot outweigh a nonzero top difference).
     */
    static long cdt83(long randLo, long randHi) {
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

    static long roundV120(long ylo, long yhi) {
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
