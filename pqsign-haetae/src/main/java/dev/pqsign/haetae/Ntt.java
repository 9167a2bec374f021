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

    private Ntt() {}

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

    /**
     * Forward NTT in place; no reduction after additions. Each layer is a call with a constant
     * distance so that C2 can unroll (and partly vectorise) its inner loop; the last two layers are
     * done together per block of four coefficients. The operations and their order are exactly those
     * of the textbook triple loop, so the output is bit for bit the same.
     */
    static void forward(int[] a) {
        layer(a, 128, 1);
        layer(a, 64, 2);
        layer(a, 32, 4);
        layer(a, 16, 8);
        layer(a, 8, 16);
        layer(a, 4, 32);
        for (int start = 0, k = 64; start < N; start += 4, k++) {
            long z = ZETAS[k];
            long z1 = ZETAS[2 * k];
            long z2 = ZETAS[2 * k + 1];
            int a0 = a[start];
            int a1 = a[start + 1];
            int a2 = a[start + 2];
            int a3 = a[start + 3];
            int t = Reduce.montgomery(z * a2);
            a2 = a0 - t;
            a0 = a0 + t;
            t = Reduce.montgomery(z * a3);
            a3 = a1 - t;
            a1 = a1 + t;
            t = Reduce.montgomery(z1 * a1);
            a[start] = a0 + t;
            a[start + 1] = a0 - t;
            t = Reduce.montgomery(z2 * a3);
            a[start + 2] = a2 + t;
            a[start + 3] = a2 - t;
        }
    }

    /** One Cooley-Tukey layer with butterfly distance {@code len}, twiddles from ZETAS[k0]. */
    private static void layer(int[] a, int len, int k0) {
        for (int start = 0, k = k0; start < N; start += 2 * len, k++) {
            long zeta = ZETAS[k];
            for (int j = start; j < start + len; j++) {
                int t = Reduce.montgomery(zeta * a[j + len]);
                a[j + len] = a[j] - t;
                a[j] = a[j] + t;
            }
        }
    }

    /**
     * Inverse NTT in place, multiplying by the Montgomery factor 2^32. The first two layers are done
     * together per block of four; same operations in the same order as the textbook loop.
     */
    static void inverseToMont(int[] a) {
        for (int start = 0, k = N, k2 = N / 2; start < N; start += 4) {
            long z1 = -ZETAS[--k];
            long z2 = -ZETAS[--k];
            long z = -ZETAS[--k2];
            int a0 = a[start];
            int a1 = a[start + 1];
            int a2 = a[start + 2];
            int a3 = a[start + 3];
            int t = a0;
            a0 = t + a1;
            a1 = Reduce.montgomery(z1 * (t - a1));
            t = a2;
            a2 = t + a3;
            a3 = Reduce.montgomery(z2 * (t - a3));
            a[start] = a0 + a2;
            a[start + 2] = Reduce.montgomery(z * (a0 - a2));
            a[start + 1] = a1 + a3;
            a[start + 3] = Reduce.montgomery(z * (a1 - a3));
        }
        inverseLayer(a, 4, 64);
        inverseLayer(a, 8, 32);
        inverseLayer(a, 16, 16);
        inverseLayer(a, 32, 8);
        inverseLayer(a, 64, 4);
        inverseLayer(a, 128, 2);
        for (int j = 0; j < N; j++) {
            a[j] = Reduce.montgomery((long) INV_SCALE * a[j]);
        }
    }

    /** One Gentleman-Sande layer with distance {@code len}; twiddles -ZETAS[k0 - 1], -ZETAS[k0 - 2], ... */
    private static void inverseLayer(int[] a, int len, int k0) {
        for (int start = 0, k = k0; start < N; start += 2 * len) {
            long zeta = -ZETAS[--k];
            for (int j = start; j < start + len; j++) {
                int t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = Reduce.montgomery(zeta * (t - a[j + len]));
            }
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
