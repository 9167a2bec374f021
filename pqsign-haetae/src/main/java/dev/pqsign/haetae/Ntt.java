package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;

/**
 * Negacyclic NTT over Z_q[X]/(X^256 + 1) with q = 64513, Cooley-Tukey forward (bit-reversed output)
 * and Gentleman-Sande inverse with the Montgomery factor folded in, as in the reference.
 */
final class Ntt {
    /** Primitive 512-th root of unity mod q that generates the reference's twiddle table. */
    private static final int ROOT = 426;
    /** Twiddles in Montgomery form, bit-reversed order, centered in (-q/2, q/2]. */
    private static final int[] ZETAS = new int[N];
    /** mont^2 / 256 mod q (centered), applied after the inverse transform. */
    private static final int INV_SCALE;

    static {
        for (int k = 1; k < N; k++) {
            int e = Integer.reverse(k) >>> 24;
            long z = (long) Reduce.MONT * powMod(ROOT, e) % Q;
            ZETAS[k] = (int) (z > Q / 2 ? z - Q : z);
        }
        long mont2 = (long) Reduce.MONT * Reduce.MONT % Q;
        long f = mont2 * powMod(N, Q - 2) % Q;
        INV_SCALE = (int) (f > Q / 2 ? f - Q : f);
    }

    private Ntt() {
    }

    private static long powMod(long b, int e) {
        long r = 1;
        b %= Q;
        while (e > 0) {
            if ((e & 1) != 0) {
                r = r * b % Q;
            }
            b = b * b % Q;
            e >>= 1;
        }
        return r;
    }

    /** Forward NTT in place; no reduction after additions. */
    static void forward(int[] a) {
        int k = 0;
        for (int len = 128; len > 0; len >>= 1) {
            for (int start = 0; start < N; start += 2 * len) {
                long zeta = ZETAS[++k];
                for (int j = start; j < start + len; j++) {
                    int t = Reduce.montgomery(zeta * a[j + len]);
                    a[j + len] = a[j] - t;
                    a[j] = a[j] + t;
                }
            }
        }
    }

    /** Inverse NTT in place, multiplying by the Montgomery factor 2^32. */
    static void inverseToMont(int[] a) {
        int k = N;
        for (int len = 1; len < N; len <<= 1) {
            for (int start = 0; start < N; start += 2 * len) {
                long zeta = -ZETAS[--k];
                for (int j = start; j < start + len; j++) {
                    int t = a[j];
                    a[j] = t + a[j + len];
                    a[j + len] = Reduce.montgomery(zeta * (t - a[j + len]));
                }
            }
        }
        for (int j = 0; j < N; j++) {
            a[j] = Reduce.montgomery((long) INV_SCALE * a[j]);
        }
    }

    /** c = a * b * 2^-32 coefficient-wise (NTT domain). */
    static void pointwise(int[] c, int[] a, int[] b) {
        for (int i = 0; i < N; i++) {
            c[i] = Reduce.montgomery((long) a[i] * b[i]);
        }
    }

    /** c += a * b * 2^-32 coefficient-wise (NTT domain). */
    static void pointwiseAcc(int[] c, int[] a, int[] b) {
        for (int i = 0; i < N; i++) {
            c[i] += Reduce.montgomery((long) a[i] * b[i]);
        }
    }
}
