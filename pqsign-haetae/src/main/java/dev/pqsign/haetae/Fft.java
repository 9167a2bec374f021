package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.N;

/**
 * Fixed-point (16 fractional bits) complex FFT used by key generation to bound the secret key's
 * largest singular values: evaluations of s at the 256 primitive 512-th roots of unity.
 */
final class Fft {
    /** exp(-i pi j / 256) scaled by 2^16, rounded. */
    private static final int[] ROOT_RE = new int[N];

    private static final int[] ROOT_IM = new int[N];

    static {
        for (int j = 0; j < N; j++) {
            ROOT_RE[j] = (int) Math.round(65536.0 * Math.cos(Math.PI * j / 256.0));
            ROOT_IM[j] = (int) -Math.round(65536.0 * Math.sin(Math.PI * j / 256.0));
        }
    }

    private Fft() {}

    private static int mulrnd16(long x, long y) {
        return (int) ((x * y + (1 << 15)) >> 16);
    }

    /** Twists x by the 512-th roots, stores it bit-reversed, and transforms; re/im are overwritten. */
    static void transform(int[] re, int[] im, int[] x) {
        for (int i = 0; i < N; i++) {
            int r = Integer.reverse(i) >>> 24;
            re[r] = x[i] * ROOT_RE[i];
            im[r] = x[i] * ROOT_IM[i];
        }
        butterflies(re, im);
    }

    /** Per-stage twiddles, contiguous so that the inner butterfly loop streams through arrays. */
    private static final int[][] STAGE_RE = new int[9][];

    private static final int[][] STAGE_IM = new int[9][];

    static {
        for (int s = 2; s <= 8; s++) {
            int half = 1 << (s - 1);
            STAGE_RE[s] = new int[half];
            STAGE_IM[s] = new int[half];
            for (int k = 0; k < half; k++) {
                STAGE_RE[s][k] = ROOT_RE[k << (8 - s + 1)];
                STAGE_IM[s][k] = ROOT_IM[k << (8 - s + 1)];
            }
        }
    }

    private static void butterflies(int[] re, int[] im) {
        // stage 1: the only twiddle is 1 (2^16), and round(2^16 x / 2^16) = x exactly
        for (int even = 0; even < N; even += 2) {
            int odd = even + 1;
            int tr = re[odd];
            int ti = im[odd];
            re[odd] = re[even] - tr;
            im[odd] = im[even] - ti;
            re[even] += tr;
            im[even] += ti;
        }
        for (int s = 2; s <= 8; s++) {
            int half = 1 << (s - 1);
            int[] twr = STAGE_RE[s];
            int[] twi = STAGE_IM[s];
            for (int n = 0; n < N; n += 2 * half) {
                for (int k = 0; k < half; k++) {
                    int even = n + k;
                    int odd = even + half;
                    long wr = twr[k];
                    long wi = twi[k];
                    int tr = mulrnd16(wr, re[odd]) - mulrnd16(wi, im[odd]);
                    int ti = mulrnd16(wr, im[odd]) + mulrnd16(wi, re[odd]);
                    int ur = re[even];
                    int ui = im[even];
                    re[even] = ur + tr;
                    im[even] = ui + ti;
                    re[odd] = ur - tr;
                    im[odd] = ui - ti;
                }
            }
        }
    }

    /**
     * As {@link #transform} with the input polynomial in {@code re} (the compact engine has no spare
     * buffer): the twist and bit-reversal permutation are done pairwise in place.
     */
    static void transformInPlace(int[] re, int[] im) {
        for (int i = 0; i < N; i++) {
            int r = Integer.reverse(i) >>> 24;
            if (r < i) {
                continue;
            }
            int xi = re[i];
            int xr = re[r];
            re[r] = xi * ROOT_RE[i];
            im[r] = xi * ROOT_IM[i];
            re[i] = xr * ROOT_RE[r];
            im[i] = xr * ROOT_IM[r];
        }
        butterflies(re, im);
    }

    /** |z|^2 in the same fixed point. */
    static int sqabs(int re, int im) {
        return mulrnd16(re, re) + mulrnd16(im, im);
    }

    /**
     * The reference's estimate of the squared largest singular value of the key matrix: sum over the
     * n/tau + 1 largest FFT bins of |s|^2, weighted as in the specification, rounded.
     */
    static long skSingularValue(
            HaetaeParameterSet p, int[][] s1, int[][] s2, int[] re, int[] im, int[] sum, int[] best) {
        java.util.Arrays.fill(sum, 0);
        for (int[] poly : s1) {
            accumulate(poly, re, im, sum);
        }
        for (int[] poly : s2) {
            accumulate(poly, re, im, sum);
        }
        return fromSums(p, sum, best);
    }

    /** Adds |FFT(re)|^2 to sum, where re holds a polynomial on entry (destroyed). */
    static void accumulateInPlace(int[] re, int[] im, int[] sum) {
        transformInPlace(re, im);
        for (int j = 0; j < N; j++) {
            sum[j] += sqabs(re[j], im[j]);
        }
    }

    /** The singular value estimate from the accumulated bin sums (sum is destroyed). */
    static long fromSums(HaetaeParameterSet p, int[] sum, int[] best) {
        int nb = N / p.tau + 1;
        for (int i = 0; i < nb; i++) {
            best[i] = sum[i];
        }
        for (int i = nb; i < N; i++) {
            for (int j = 0; j < nb; j++) {
                // keep the larger in best[j], pass the smaller on
                int a = sum[i];
                int b = best[j];
                if (b < a) {
                    sum[i] = b;
                    best[j] = a;
                }
            }
        }
        int min = best[0];
        for (int i = 1; i < nb; i++) {
            min = Math.min(min, best[i]);
        }
        int res = 0;
        for (int i = 0; i < nb; i++) {
            // the reference: every entry but the minimum counts tau times, the minimum n mod tau times
            int fac = ((min - best[i]) >> 31) != 0 ? p.tau : N % p.tau;
            int v = best[i] + 0x10200;
            v >>= 10;
            v *= fac;
            res += v;
        }
        return (long) ((res + (1 << 5)) >> 6);
    }

    private static void accumulate(int[] poly, int[] re, int[] im, int[] sum) {
        transform(re, im, poly);
        for (int j = 0; j < N; j++) {
            sum[j] += sqabs(re[j], im[j]);
        }
    }
}
