package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.CRHBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

import java.util.Arrays;

/**
 * All work buffers of the fast engine for one parameter set, including the SHAKE state. One context
 * per thread (see {@link #forThread}) makes steady-state key generation, signing and verification
 * allocation-free. A context is not thread-safe and holds secret intermediate values between calls
 * only until {@link #wipe()}, which the engine calls at the end of every signing and key generation.
 */
final class HaetaeContext {
    final HaetaeParameterSet p;
    final Keccak xof = new Keccak();
    /** SHAKE256 after absorbing the cached public key: mu = SHAKE256(pk || pre || M) resumes from it. */
    final Keccak pkAbsorbed = new Keccak();

    /** Expanded public matrix A1 = (a1 | 2 A0) in NTT domain: k rows of l polynomials. */
    final int[][][] a;
    /** Matrix A0 (k rows of m polynomials) during key generation. */
    final int[][][] a0;
    /** Cached public key the expanded matrix belongs to (avoids re-expansion for the same key). */
    final byte[] aKey;

    boolean aValid;

    final int[][] s1;
    final int[][] s2;
    final int[][] y1;
    final int[][] y2;
    final int[][] z1;
    final int[][] z2;
    final int[][] vl;
    final int[][] vk;
    final int[][] vk2;
    final int[][] hb;
    final int[] c = new int[N];
    final int[] chat = new int[N];
    final int[] t0 = new int[N];
    final int[] t1 = new int[N];

    final byte[] transcript;
    final byte[] mu = new byte[CRHBYTES];
    final byte[] seedbuf = new byte[2 * SEEDBYTES + CRHBYTES];
    final byte[] rhoSigmaKey = new byte[2 * SEEDBYTES + CRHBYTES];
    final byte[] key = new byte[SEEDBYTES];
    final byte[] pre = new byte[256];
    final byte[] encHb;
    final byte[] encH;

    final HyperballSampler.Work sampler;
    final Rans.Encoder encoder = new Rans.Encoder();
    final Rans.Decoder decoder = new Rans.Decoder();

    final int[] fftRe = new int[N];
    final int[] fftIm = new int[N];
    final int[] fftSum = new int[N];
    final int[] fftBest = new int[N];

    HaetaeContext(HaetaeParameterSet p) {
        this.p = p;
        a = new int[p.k][p.l][N];
        a0 = new int[p.k][p.m][N];
        aKey = new byte[p.pkBytes];
        s1 = new int[p.m][N];
        s2 = new int[p.k][N];
        y1 = new int[p.l][N];
        y2 = new int[p.k][N];
        z1 = new int[p.l][N];
        z2 = new int[p.k][N];
        vl = new int[p.l][N];
        vk = new int[p.k][N];
        vk2 = new int[p.k][N];
        hb = new int[p.k][N];
        transcript = new byte[p.highbitsBytes];
        encHb = new byte[N * p.l];
        encH = new byte[N * p.k];
        sampler = new HyperballSampler.Work(p);
    }

    private static final ThreadLocal<HaetaeContext[]> PER_THREAD =
            ThreadLocal.withInitial(() -> new HaetaeContext[HaetaeParameterSet.values().length]);

    /** The calling thread's context for {@code p}, created on first use. */
    static HaetaeContext forThread(HaetaeParameterSet p) {
        HaetaeContext[] all = PER_THREAD.get();
        HaetaeContext ctx = all[p.ordinal()];
        if (ctx == null) {
            ctx = WorkAreaProbes.fast(p, new HaetaeContext(p));
            all[p.ordinal()] = ctx;
        }
        return ctx;
    }

    /** Zeroes every buffer that can hold secret-dependent values. */
    void wipe() {
        wipe2(s1);
        wipe2(s2);
        wipe2(y1);
        wipe2(y2);
        wipe2(z1);
        wipe2(z2);
        wipe2(vl);
        wipe2(vk);
        wipe2(vk2);
        wipe2(hb);
        Arrays.fill(c, 0);
        Arrays.fill(chat, 0);
        Arrays.fill(t0, 0);
        Arrays.fill(t1, 0);
        Arrays.fill(transcript, (byte) 0);
        Arrays.fill(mu, (byte) 0);
        Arrays.fill(seedbuf, (byte) 0);
        Arrays.fill(rhoSigmaKey, (byte) 0);
        Arrays.fill(key, (byte) 0);
        Arrays.fill(pre, (byte) 0);
        Arrays.fill(encHb, (byte) 0);
        Arrays.fill(encH, (byte) 0);
        Arrays.fill(fftRe, 0);
        Arrays.fill(fftIm, 0);
        Arrays.fill(fftSum, 0);
        Arrays.fill(fftBest, 0);
        sampler.wipe();
        xof.wipe();
    }

    private static void wipe2(int[][] v) {
        for (int[] row : v) {
            Arrays.fill(row, 0);
        }
    }
}
