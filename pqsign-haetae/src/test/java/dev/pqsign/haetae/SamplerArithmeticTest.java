package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pqsign.haetae.FixedPoint.Fp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The tuned sampler and NTT code against plain transcriptions of the reference: a linear CDT scan with
 * an 83-bit borrow chain, the generic unsigned 96-bit square and signed-by-unsigned products, and the
 * textbook NTT triple loops. Random inputs plus edge values (all-ones and all-zero draws, random values
 * next to table entries).
 */
class SamplerArithmeticTest {

    private static final int[] CDT16 = {
        3266, 6520, 9748, 12938, 16079, 19159, 22168, 25096, 27934, 30674, 33309,
        35833, 38241, 40531, 42698, 44742, 46663, 48460, 50135, 51690, 53128, 54454,
        55670, 56781, 57794, 58712, 59541, 60287, 60956, 61554, 62085, 62556, 62972,
        63337, 63657, 63936, 64178, 64388, 64569, 64724, 64857, 64970, 65066, 65148,
        65216, 65273, 65321, 65361, 65394, 65422, 65444, 65463, 65478, 65490, 65500,
        65508, 65514, 65519, 65523, 65527, 65529, 65531, 65533, 65534,
    };

    @Test
    void draws_matchThePlainReference() {
        SplittableRandom r = new SplittableRandom(0x5A3);
        byte[] b = new byte[64];
        Fp sqr = new Fp();
        Fp y = new Fp();
        Fp refSqr = new Fp();
        for (int i = 0; i < 400_000; i++) {
            for (int j = 0; j < b.length; j++) {
                b[j] = (byte) r.nextInt();
            }
            switch (i % 6) {
                case 1:
                    java.util.Arrays.fill(b, (byte) 0xff);
                    break;
                case 2:
                    java.util.Arrays.fill(b, (byte) 0);
                    break;
                case 3: { // rand16 next to a CDT16 entry
                    int v = CDT16[r.nextInt(CDT16.length)] + r.nextInt(3) - 1;
                    b[3] = (byte) v;
                    b[4] = (byte) (v >>> 8);
                    break;
                }
                case 4: { // 83-bit value next to a CDT83 entry (offset 5)
                    int k = r.nextInt(Cdt83.LEN);
                    long lo = Cdt83.LO[k] + r.nextInt(3) - 1;
                    long hi = k < Cdt83.HI_LEN ? Cdt83.HI[k] : Cdt83.HI_SATURATED;
                    for (int j = 0; j < 8; j++) {
                        b[5 + j] = (byte) (lo >>> (8 * j));
                    }
                    b[13] = (byte) hi;
                    b[14] = (byte) (hi >>> 8);
                    b[15] = (byte) ((b[15] & 0xf8) | (hi >>> 16));
                    break;
                }
                default:
                    break;
            }
            long[] ref = reference16(b, 3, refSqr);
            long acc = HyperballSampler.drawV112(b, 3, sqr, y);
            assertEquals(ref[0], acc, "drawV112 acceptance, case " + i);
            assertEquals(ref[1], y.lo, "drawV112 sample, case " + i);
            assertEquals(refSqr.lo, sqr.lo, "drawV112 square, case " + i);
            assertEquals(refSqr.hi, sqr.hi, "drawV112 square, case " + i);
            assertEquals(ref[1], HyperballSampler.acceptedValueV112(b, 3), "acceptedValueV112, case " + i);

            ref = reference83(b, 5, refSqr);
            acc = HyperballSampler.drawV120(b, 5, sqr, y);
            assertEquals(ref[0], acc, "drawV120 acceptance, case " + i);
            assertEquals(ref[1], y.lo, "drawV120 sample, case " + i);
            assertEquals(refSqr.lo, sqr.lo, "drawV120 square, case " + i);
            assertEquals(refSqr.hi, sqr.hi, "drawV120 square, case " + i);
            assertEquals(ref[1], HyperballSampler.acceptedValueV120(b, 5), "acceptedValueV120, case " + i);
        }
    }

    @Test
    void mulRound13_matchesGenericMultiplication() {
        SplittableRandom r = new SplittableRandom(0x13);
        Fp x = new Fp();
        Fp y = new Fp();
        Fp z = new Fp();
        for (int i = 0; i < 200_000; i++) {
            long v = r.nextLong() >>> 1;
            y.lo = r.nextLong() & FixedPoint.MASK48;
            y.hi = r.nextLong() >>> (1 + r.nextInt(50));
            int sign = r.nextInt(2);
            x.hi = v >>> 32;
            x.lo = (v & 0xffffffffL) << 16;
            mulGeneric(z, x, y);
            long res = (z.hi + (1L << 14)) >>> 15;
            assertEquals((int) ((1 - 2L * sign) * res), FixedPoint.mulRound13(v, y.lo, y.hi, sign), "case " + i);
        }
    }

    @Test
    void ntt_matchesTheTextbookLoops() {
        SplittableRandom r = new SplittableRandom(0x77);
        int[] a = new int[256];
        int[] b = new int[256];
        for (int it = 0; it < 2000; it++) {
            int bound = it % 2 == 0 ? HaetaeParameterSet.Q : 1 << 20;
            for (int i = 0; i < 256; i++) {
                a[i] = r.nextInt(-bound, bound);
            }
            System.arraycopy(a, 0, b, 0, 256);
            Ntt.forward(a);
            textbookForward(b);
            assertArrayEquals(b, a, "forward, case " + it);
            Ntt.inverseToMont(a);
            textbookInverse(b);
            assertArrayEquals(b, a, "inverse, case " + it);
        }
    }

    // ---------------------------------------------------------------- plain reference transcriptions

    private static long le(byte[] b, int off, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }

    /** {acceptance bit, sample}. */
    private static long[] reference16(byte[] rand, int o, Fp sqr) {
        int rand16 = (int) le(rand, o, 2);
        long randRej = le(rand, o + 2, 6);
        long x = 0;
        for (int c : CDT16) {
            x += c < rand16 ? 1 : 0;
        }
        Fp y = new Fp();
        y.lo = le(rand, o + 8, 6);
        y.hi = le(rand, o + 14, 3) | (x << 24);
        long r = (((y.lo >>> 15) ^ (y.hi << 33)) + 1) >>> 1;
        return new long[] {finish(x, r, randRej, y, sqr, false), r};
    }

    private static long[] reference83(byte[] rand, int o, Fp sqr) {
        long randLo = le(rand, o, 8);
        long randHi = le(rand, o + 8, 3) & 0x7ffff;
        long randRej = le(rand, o + 11, 6);
        long x = 0;
        for (int i = 0; i < Cdt83.LEN; i++) {
            long hi = i < Cdt83.HI_LEN ? Cdt83.HI[i] : Cdt83.HI_SATURATED;
            long borrow = Long.compareUnsigned(Cdt83.LO[i], randLo) < 0 ? 1 : 0;
            x += (hi - randHi - borrow) >>> 63; // 83-bit cdt - rnd borrows out: cdt < rnd
        }
        Fp y = new Fp();
        y.lo = le(rand, o + 17, 6);
        y.hi = le(rand, o + 23, 3) | (x << 24);
        long r = (((y.lo >>> 15) + 1) >>> 1) + (y.hi << 32);
        return new long[] {finish(x, r, randRej, y, sqr, true), r};
    }

    private static long finish(long x, long r, long randRej, Fp y, Fp sqr, boolean v120) {
        squareGeneric(sqr, y);
        long expIn = ((((sqr.hi - ((x * x) << 20)) << 20) | (sqr.lo >>> 28)) + 1) >>> 1;
        long e = v120 ? exp120(expIn) : exp112(expIn);
        long below = ((randRej ^ (randRej & 1)) - e) >> 63;
        long nonzeroOrCoin = ((r | -r) >>> 63) | randRej;
        return below & nonzeroOrCoin & 1;
    }

    private static long umulh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    private static long smulh48(long a, long b) {
        long lo = a * b;
        long hi = Math.multiplyHigh(a, b) + ((b >> 63) & a);
        return ((hi << 16) | (lo >>> 48)) + ((lo >>> 47) & 1);
    }

    private static void squareGeneric(Fp z, Fp x) {
        long m = FixedPoint.MASK48;
        long p0 = x.lo * x.lo;
        long p1 = umulh(x.lo, x.lo);
        long s1 = (p1 << 16) ^ (p0 >>> 48);
        long s0 = (p0 & m) >>> 48;
        s0 += s1;
        p0 = x.lo * x.hi;
        p1 = umulh(x.lo, x.hi);
        s0 += (p0 & m) << 1;
        s1 = ((p1 << 16) ^ (p0 >>> 48)) << 1;
        s0 >>>= 28;
        s0 += (s1 << 20) & m;
        s1 >>>= 28;
        p0 = x.hi * x.hi;
        p1 = umulh(x.hi, x.hi);
        s0 += (p0 << 20) & m;
        s1 += (p0 >>> 28) + (p1 << 36);
        z.hi = s1 + (s0 >>> 48);
        z.lo = s0 & m;
    }

    private static void mulGeneric(Fp z, Fp x, Fp y) {
        long m = FixedPoint.MASK48;
        long p0 = x.lo * y.lo;
        long p1 = umulh(x.lo, y.lo);
        long zlo = ((p1 << 16) ^ (p0 >>> 48)) + ((((p0 & m) >>> 47) + 1) >>> 1);
        p0 = x.lo * y.hi;
        p1 = umulh(x.lo, y.hi);
        zlo += p0 & m;
        long zhi = (p1 << 16) ^ (p0 >>> 48);
        p0 = x.hi * y.lo;
        p1 = umulh(x.hi, y.lo);
        zlo += p0 & m;
        zhi += (p1 << 16) ^ (p0 >>> 48);
        zlo = (zlo + (1L << 27)) >>> 28;
        zlo += (zhi << 20) & m;
        zhi >>>= 28;
        p0 = x.hi * y.hi;
        p1 = umulh(x.hi, y.hi);
        zlo += (p0 << 20) & m;
        zhi += (p0 >>> 28) + (p1 << 36);
        z.hi = zhi + (zlo >>> 48);
        z.lo = zlo & m;
    }

    private static long exp112(long x) {
        long r = -0x0000B6C6340925AEL;
        r = ((smulh48(r, x) + (1L << 2)) >> 3) + 0x0000B4BD4DF85227L;
        r = ((smulh48(r, x) + (1L << 2)) >> 3) - 0x0000887F727491E2L;
        r = ((smulh48(r, x) + (1L << 1)) >> 2) + 0x0000AAAA643C7E8DL;
        r = ((smulh48(r, x) + (1L << 1)) >> 2) - 0x0000AAAAA98179E6L;
        r = ((smulh48(r, x) + 1L) >> 1) + 0x0000FFFFFFFB2E7AL;
        r = ((smulh48(r, x) + 1L) >> 1) - 0x0000FFFFFFFFF85FL;
        return smulh48(r, x) + 0x0000FFFFFFFFFFFCL;
    }

    private static long exp120(long x) {
        long[] c = {
            -743564434L,
            6953427278L,
            -55833338892L,
            390932311155L,
            -2345623661771L,
            11728123872951L,
            -46912496106200L,
            140737488354861L,
            -281474976710650L,
            281474976710657L
        };
        long r = 55868746L;
        for (long k : c) {
            r = smulh48(r, x) + k;
        }
        return r;
    }

    private static final int[] ZETAS = zetas();

    private static int[] zetas() {
        try {
            java.lang.reflect.Field f = Ntt.class.getDeclaredField("ZETAS");
            f.setAccessible(true);
            return (int[]) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new LinkageError(e.getMessage(), e);
        }
    }

    private static int invScale() {
        try {
            java.lang.reflect.Field f = Ntt.class.getDeclaredField("INV_SCALE");
            f.setAccessible(true);
            return f.getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new LinkageError(e.getMessage(), e);
        }
    }

    private static void textbookForward(int[] a) {
        int k = 0;
        for (int len = 128; len > 0; len >>= 1) {
            for (int start = 0; start < 256; start += 2 * len) {
                long zeta = ZETAS[++k];
                for (int j = start; j < start + len; j++) {
                    int t = Reduce.montgomery(zeta * a[j + len]);
                    a[j + len] = a[j] - t;
                    a[j] = a[j] + t;
                }
            }
        }
    }

    private static void textbookInverse(int[] a) {
        int k = 256;
        for (int len = 1; len < 256; len <<= 1) {
            for (int start = 0; start < 256; start += 2 * len) {
                long zeta = -ZETAS[--k];
                for (int j = start; j < start + len; j++) {
                    int t = a[j];
                    a[j] = t + a[j + len];
                    a[j + len] = Reduce.montgomery(zeta * (t - a[j + len]));
                }
            }
        }
        int f = invScale();
        for (int j = 0; j < 256; j++) {
            a[j] = Reduce.montgomery((long) f * a[j]);
        }
    }
}
