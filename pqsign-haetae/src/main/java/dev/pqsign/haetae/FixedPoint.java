package dev.pqsign.haetae;

/**
 * Unsigned 96-bit fixed-point numbers with 76 fractional bits, stored as two 48-bit limbs in longs
 * ({@code lo} may temporarily carry above bit 48, exactly where the reference lets it). All limb
 * arithmetic is unsigned 64-bit, so shifts are logical and 128-bit products use an unsigned
 * multiply-high built from {@link Math#multiplyHigh} (Java 17 has no unsigned variant).
 *
 * <p>The operations reproduce the reference rounding bit for bit; the hyperball radius, and with it
 * every signature, depends on them.
 */
final class FixedPoint {
    static final long MASK48 = (1L << 48) - 1;

    /** A mutable fp96_76 value; instances live in engine contexts and are reused. */
    static final class Fp {
        long lo;
        long hi;

        void set(long lo, long hi) {
            this.lo = lo;
            this.hi = hi;
        }

        void set(Fp o) {
            this.lo = o.lo;
            this.hi = o.hi;
        }
    }

    private FixedPoint() {}

    /** High 64 bits of the unsigned 128-bit product a * b. */
    static long umulh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /** Moves carries of the low limb into the high limb. */
    static void renormalize(Fp x) {
        x.hi += x.lo >>> 48;
        x.lo &= MASK48;
    }

    /** Signed 64 x unsigned 64 product, rounded, shifted right by 48 (arithmetically), truncated to 64 bits. */
    static long smulh48(long a, long b) {
        long lo = a * b;
        long hi = Math.multiplyHigh(a, b) + ((b >> 63) & a);
        // (x + 2^47) >> 48 == (x >> 48) + bit 47 of x: rounding without a carry branch
        return ((hi << 16) | (lo >>> 48)) + ((lo >>> 47) & 1);
    }

    // mul48: r = a*b split as (r1 = bits 48.., r0 = bits 0..47). Written into the two out slots.

    /** x * y, both non-negative; result in z (z must not alias x or y). */
    static void mul(Fp z, Fp x, Fp y) {
        long p0 = x.lo * y.lo;
        long p1 = umulh(x.lo, y.lo);
        long r1 = (p1 << 16) ^ (p0 >>> 48);
        long r0 = p0 & MASK48;
        long zlo = r1 + (((r0 >>> 47) + 1) >>> 1);

        p0 = x.lo * y.hi;
        p1 = umulh(x.lo, y.hi);
        zlo += p0 & MASK48;
        long zhi = (p1 << 16) ^ (p0 >>> 48);

        p0 = x.hi * y.lo;
        p1 = umulh(x.hi, y.lo);
        zlo += p0 & MASK48;
        zhi += (p1 << 16) ^ (p0 >>> 48);

        zlo += 1L << 27;
        zlo >>>= 28;
        zlo += (zhi << 20) & MASK48;
        zhi >>>= 28;

        p0 = x.hi * y.hi;
        p1 = umulh(x.hi, y.hi);
        zlo += (p0 << 20) & MASK48;
        zhi += (p0 >>> 28) + (p1 << 36);
        z.lo = zlo;
        z.hi = zhi;
        renormalize(z);
    }

    /** z = x^2 (truncating, as the reference); z must not alias x. */
    static void square(Fp z, Fp x) {
        long p0 = x.lo * x.lo;
        long p1 = umulh(x.lo, x.lo);
        long s1 = (p1 << 16) ^ (p0 >>> 48);
        long s0 = p0 & MASK48;
        s0 >>>= 48;
        s0 += s1;
        p0 = x.lo * x.hi;
        p1 = umulh(x.lo, x.hi);
        s0 += (p0 & MASK48) << 1;
        s1 = ((p1 << 16) ^ (p0 >>> 48)) << 1;
        s0 >>>= 28;
        s0 += (s1 << 20) & MASK48;
        s1 >>>= 28;
        p0 = x.hi * x.hi;
        p1 = umulh(x.hi, x.hi);
        s0 += (p0 << 20) & MASK48;
        s1 += (p0 >>> 28) + (p1 << 36);
        z.lo = s0;
        z.hi = s1;
        renormalize(z);
    }

    /** z = x * y where y is a plain 64-bit integer scaled by 2^-48; z must not alias x. */
    static void mulHigh(Fp z, Fp x, long y) {
        long p0 = x.lo * y;
        long p1 = umulh(x.lo, y);
        long zhi = (p1 << 16) ^ (p0 >>> 48);
        long zlo = p0 & MASK48;
        p0 = x.hi * y;
        p1 = umulh(x.hi, y);
        long t0 = p0 & MASK48;
        long t1 = (p1 << 16) ^ (p0 >>> 48);
        zhi += t0;
        zlo += 1L << 27;
        zlo >>>= 28;
        zlo += (zhi << 20) & MASK48;
        zhi >>>= 28;
        zhi += t1 << 20;
        z.lo = zlo;
        z.hi = zhi;
        renormalize(z);
    }

    /** Two's-complement negation of x in place when sign is 1. */
    static void cneg(Fp x, int sign) {
        long m = -(long) sign;
        x.lo ^= m & MASK48;
        x.hi ^= m;
        x.lo += sign;
        renormalize(x);
    }

    /** y = sign ? -x : x. */
    static void copyCneg(Fp y, Fp x, int sign) {
        long m = -(long) sign;
        y.lo = (m & MASK48) ^ x.lo;
        y.hi = x.hi ^ m;
        y.lo += sign;
        renormalize(y);
    }

    /** Limb-wise sum without renormalisation (the reference leaves the carry in place). */
    static void add(Fp z, Fp x, Fp y) {
        z.lo = x.lo + y.lo;
        z.hi = x.hi + y.hi;
    }

    /** Scratch for the Newton iteration; one per context. */
    static final class Scratch {
        final Fp t1 = new Fp();
        final Fp t2 = new Fp();
        final Fp t3 = new Fp();
        final Fp t4 = new Fp();
    }

    /**
     * Newton's method for 1/sqrt(x), given x/2, starting from the set-specific constants
     * start^3 and 3/(2 start) (hex constants of the specification).
     */
    static void newtonInvSqrt(Fp out, Fp xhalf, Fp startCube, Fp startThreeHalves, Scratch s) {
        mul(s.t1, xhalf, startCube);
        // out = startThreeHalves - t1 (may be negative: two's complement in the limbs)
        copyCneg(s.t2, s.t1, 1);
        add(out, startThreeHalves, s.t2);
        for (int i = 0; i < 6; i++) {
            square(s.t1, out);
            mul(s.t2, xhalf, s.t1);
            // t2 = 3/2 - t2
            cneg(s.t2, 1);
            s.t2.hi += 3L << 27;
            renormalize(s.t2);
            // out = out * t2 with out possibly negative: multiply magnitudes, restore sign
            int sign = (int) (s.t2.hi >>> 63);
            copyCneg(s.t3, s.t2, sign);
            mul(s.t4, s.t3, out);
            copyCneg(out, s.t4, sign);
        }
    }

    /**
     * round(x * y) to 13 fractional bits as in the reference ({@link #mul} of x split into limbs, then
     * the rounded shift), negated when sign is 1. Specialised to what the sampler passes: 0 &lt;= x &lt; 2^63
     * and a positive y with renormalised limbs, so every limb product is of non-negative values below
     * 2^63 and the unsigned multiply-high needs no correction.
     */
    static int mulRound13(long x, long ylo, long yhi, int sign) {
        long xhi = x >>> 32;
        long xlo = (x & 0xffffffffL) << 16;
        long p0 = xlo * ylo;
        long p1 = Math.multiplyHigh(xlo, ylo);
        long r1 = (p1 << 16) ^ (p0 >>> 48);
        long r0 = p0 & MASK48;
        long zlo = r1 + (((r0 >>> 47) + 1) >>> 1);
        p0 = xlo * yhi;
        p1 = Math.multiplyHigh(xlo, yhi);
        zlo += p0 & MASK48;
        long zhi = (p1 << 16) ^ (p0 >>> 48);
        p0 = xhi * ylo;
        p1 = Math.multiplyHigh(xhi, ylo);
        zlo += p0 & MASK48;
        zhi += (p1 << 16) ^ (p0 >>> 48);
        zlo += 1L << 27;
        zlo >>>= 28;
        zlo += (zhi << 20) & MASK48;
        zhi >>>= 28;
        p0 = xhi * yhi;
        p1 = Math.multiplyHigh(xhi, yhi);
        zlo += (p0 << 20) & MASK48;
        zhi += (p0 >>> 28) + (p1 << 36);
        zhi += zlo >>> 48;
        long res = (zhi + (1L << 14)) >>> 15;
        return (int) ((1 - 2L * sign) * res);
    }
}
