package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.CRHBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.LN;
import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYC_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYETA_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

import dev.pqsign.haetae.FixedPoint.Fp;

import java.util.Arrays;

/**
 * The compact (streaming) engine: the same keys, signatures and verification results as
 * {@link FastEngine}, computed with three polynomial buffers instead of whole vectors.
 *
 * <ul>
 * <li>Two-pass hyperball sampling: pass 1 regenerates every Gaussian stream only to sum the squares
 * (the radius), pass 2 checks the norm of the scaled vector; afterwards any component y_j is
 * regenerated on demand from SHAKE256(seed || nonce_j) instead of being stored.</li>
 * <li>The matrix A is never stored: its entries are streamed from SHAKE128 and multiplied in the NTT
 * domain as they are produced; A * round(y) is built one row at a time.</li>
 * <li>Incremental transcript hashing: each row's HighBits go straight into the challenge XOF.</li>
 * <li>Pass decomposition with component-level early rejection: z = y + (-1)^b c s is formed one
 * component at a time and the attempt is abandoned as soon as the partial norm exceeds B1.</li>
 * <li>Streaming rANS: rANS encodes backwards, so hints and HighBits(z1) are recomputed in reverse
 * component order and encoded directly into the tail of the output signature, then moved into place.</li>
 * <li>Row-streamed verification with view-style decoding: the rANS streams are decoded straight from
 * the signature bytes, once per row of A, without materialising z1 or h.</li>
 * <li>Streamed key generation: s1, s2 are regenerated from sigma whenever needed.</li>
 * </ul>
 */
final class CompactEngine {
    private CompactEngine() {
    }

    /**
     * Per-thread state of the compact engine. Deliberately holds no reference to shared objects
     * (parameter set, tables, caller buffers between calls) so that its retained size is its working set.
     */
    /** What a context is used for; each operation gets a context holding only what it needs. */
    enum Op {
        KEYGEN, SIGN, VERIFY
    }

    static final class Context {
        final Keccak xof = new Keccak();
        /** Transcript / challenge XOF (signing and verification). */
        final Keccak tr;
        final int[] acc = new int[N];
        final int[] tmp = new int[N];
        /** Third polynomial (key generation: FFT bin sums; signing: c s). */
        final int[] aux;
        final byte[] mu;
        final byte[] seed;
        final byte[] signs;
        final byte[] draw;
        final byte[] lsb;
        final byte[] cbits;
        final int[] best;
        final Fp sqsum;
        final Fp sqr;
        final Fp y;
        final Fp invsqrt;
        final Fp radius;
        final Fp startCube;
        final Fp startThreeHalves;
        final Fp t1;
        final Fp t2;
        final FixedPoint.Scratch scratch;
        final Rans.Encoder enc;
        final Rans.Decoder dec;
        final Rans.Decoder dec2;
        /** Nonce of y_0 in the current signing attempt and the sampler's bit pair b. */
        int base;
        int bBits;

        Context(Op op) {
            boolean sign = op == Op.SIGN;
            boolean keygen = op == Op.KEYGEN;
            boolean verify = op == Op.VERIFY;
            tr = keygen ? null : new Keccak();
            aux = verify ? null : new int[N];
            mu = keygen ? null : new byte[sign ? CRHBYTES : SEEDBYTES];
            seed = verify ? null : new byte[sign ? CRHBYTES : 2 * SEEDBYTES + CRHBYTES];
            signs = sign ? new byte[N / 8] : null;
            draw = sign ? new byte[32] : null;
            lsb = keygen ? null : new byte[N / 8];
            cbits = sign ? new byte[N / 8] : null;
            best = keygen ? new int[N / 58 + 1] : null;
            sqsum = sign ? new Fp() : null;
            sqr = sign ? new Fp() : null;
            y = sign ? new Fp() : null;
            invsqrt = sign ? new Fp() : null;
            radius = sign ? new Fp() : null;
            startCube = sign ? new Fp() : null;
            startThreeHalves = sign ? new Fp() : null;
            t1 = sign ? new Fp() : null;
            t2 = sign ? new Fp() : null;
            scratch = sign ? new FixedPoint.Scratch() : null;
            enc = sign ? new Rans.Encoder() : null;
            dec = verify ? new Rans.Decoder() : null;
            dec2 = verify ? new Rans.Decoder() : null;
        }

        void wipe() {
            xof.wipe();
            if (tr != null) {
                tr.wipe();
            }
            Arrays.fill(acc, 0);
            Arrays.fill(tmp, 0);
            for (int[] a : new int[][] {aux, best}) {
                if (a != null) {
                    Arrays.fill(a, 0);
                }
            }
            for (byte[] b : new byte[][] {mu, seed, signs, draw, lsb, cbits}) {
                if (b != null) {
                    Arrays.fill(b, (byte) 0);
                }
            }
            if (scratch != null) {
                for (Fp f : new Fp[] {sqsum, sqr, y, invsqrt, radius, t1, t2, scratch.t1, scratch.t2, scratch.t3,
                    scratch.t4}) {
                    f.set(0, 0);
                }
            }
            if (enc != null) {
                enc.release();
            }
            if (dec != null) {
                dec.release();
                dec2.release();
            }
            base = 0;
            bBits = 0;
        }
    }

    private static final ThreadLocal<Context> KEYGEN = ThreadLocal.withInitial(() -> new Context(Op.KEYGEN));
    private static final ThreadLocal<Context> SIGN = ThreadLocal.withInitial(() -> new Context(Op.SIGN));
    private static final ThreadLocal<Context> VERIFY = ThreadLocal.withInitial(() -> new Context(Op.VERIFY));

    /** The calling thread's context for {@code op}. */
    static Context forThread(Op op) {
        switch (op) {
            case KEYGEN: return KEYGEN.get();
            case SIGN: return SIGN.get();
            default: return VERIFY.get();
        }
    }

    // ---------------------------------------------------------------- shared streaming helpers

    /** A[i][0] in the NTT domain into out: 2(a_i - 2 b_i) transformed (modes 2/3), or NTT(-2b) from pk. */
    private static void firstColumn(HaetaeParameterSet p, Context c, byte[] pk, int pkOff, int i, int[] out) {
        int off = pkOff + SEEDBYTES + i * p.polyQPackedBytes;
        if (p.roundedKey()) {
            Poly.uniform(out, c.xof, pk, pkOff, (p.k << 8) + p.m + i);
            long accBits = 0;
            int bits = 0;
            int o = off;
            for (int n = 0; n < N; n++) {
                while (bits < 15) {
                    accBits |= (pk[o++] & 0xffL) << bits;
                    bits += 8;
                }
                int b = (int) (accBits & 0x7fff);
                accBits >>>= 15;
                bits -= 15;
                out[n] = 2 * (out[n] - 2 * b);
            }
            Ntt.forward(out);
        } else {
            for (int n = 0; n < N; n++) {
                out[n] = (pk[off + 2 * n] & 0xff) | (pk[off + 2 * n + 1] & 0xff) << 8;
            }
        }
    }

    /** acc += (2 A0[i][j]) o v with A0[i][j] streamed from SHAKE128(rho || (i << 8) + j). */
    private static void accStreamedA(Context c, byte[] rho, int rhoOff, int i, int j, int[] acc, int[] v, int factor) {
        c.xof.initShake128().absorb(rho, rhoOff, SEEDBYTES).absorbU16((i << 8) + j);
        for (int n = 0; n < N; n++) {
            acc[n] += Reduce.montgomery((long) (factor * Poly.nextUniform(c.xof)) * v[n]);
        }
    }

    /** acc = A0[i][j] o v (first term of a row, factor 1 or 2). */
    private static void setStreamedA(Context c, byte[] rho, int rhoOff, int i, int j, int[] acc, int[] v, int factor) {
        c.xof.initShake128().absorb(rho, rhoOff, SEEDBYTES).absorbU16((i << 8) + j);
        for (int n = 0; n < N; n++) {
            acc[n] = Reduce.montgomery((long) (factor * Poly.nextUniform(c.xof)) * v[n]);
        }
    }

    private static int bit(byte[] bits, int n) {
        return (bits[n >>> 3] >> (n & 7)) & 1;
    }

    /** Absorbs one polynomial's HighBits slot (288 bytes) into the transcript XOF. */
    private static final class SlotWriter {
        private SlotWriter() {
        }

        static void absorb(HaetaeParameterSet p, Keccak tr, int[] hb) {
            if (p.roundedKey()) {
                for (int n = 0; n < N; n++) {
                    tr.absorbByte(hb[n] & 0xff);
                }
                for (int n = N; n < HaetaeParameterSet.POLY_HIGHBITS_PACKEDBYTES; n++) {
                    tr.absorbByte(0);
                }
            } else {
                long accBits = 0;
                int bits = 0;
                for (int n = 0; n < N; n++) {
                    accBits |= (long) (hb[n] & 0x1ff) << bits;
                    bits += 9;
                    while (bits >= 8) {
                        tr.absorbByte((int) (accBits & 0xff));
                        accBits >>>= 8;
                        bits -= 8;
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- key generation

    static void keyPair(HaetaeParameterSet p, Context c, byte[] seed, int seedOff, byte[] pk, int pkOff, byte[] sk,
            int skOff) {
        try {
            byte[] buf = c.seed; // rho (32) || sigma (64) || key (32)
            c.xof.initShake256().absorb(seed, seedOff, SEEDBYTES).squeeze(buf, 0, buf.length);
            int sigma = SEEDBYTES;
            int s2Off = skOff + p.pkBytes + p.m * POLYETA_PACKEDBYTES;
            int counter = 0;
            while (true) {
                if (p.roundedKey()) {
                    // b = a + A0 s1 + s2, rounded; s2 absorbs the rounding error
                    for (int i = 0; i < p.k; i++) {
                        for (int j = 0; j < p.m; j++) {
                            Poly.uniformEta(c.tmp, c.xof, buf, sigma, (counter + j) & 0xffff);
                            Ntt.forward(c.tmp);
                            if (j == 0) {
                                setStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
                            } else {
                                accStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
                            }
                        }
                        Ntt.inverseToMont(c.acc);
                        Poly.uniformEta(c.tmp, c.xof, buf, sigma, (counter + p.m + i) & 0xffff);
                        c.xof.initShake128().absorb(buf, 0, SEEDBYTES).absorbU16((p.k << 8) + p.m + i);
                        for (int n = 0; n < N; n++) {
                            int v = Reduce.freeze(c.acc[n] + c.tmp[n] + Poly.nextUniform(c.xof));
                            int b0 = v & 1;
                            b0 -= ((v >> 1) & b0) << 1;
                            c.acc[n] = (v - b0) >> 1;
                            c.tmp[n] -= b0;
                        }
                        Packing.packPolyQ(pk, pkOff + SEEDBYTES + i * p.polyQPackedBytes, c.acc, true);
                        Packing.pack2Eta(sk, s2Off + i * p.poly2EtaPackedBytes, c.tmp);
                    }
                }
                // singular value of (s1 | s2), bins accumulated in aux
                Arrays.fill(c.aux, 0);
                for (int j = 0; j < p.m; j++) {
                    Poly.uniformEta(c.acc, c.xof, buf, sigma, (counter + j) & 0xffff);
                    Fft.accumulateInPlace(c.acc, c.tmp, c.aux);
                }
                for (int i = 0; i < p.k; i++) {
                    if (p.roundedKey()) {
                        Packing.unpack2Eta(c.acc, sk, s2Off + i * p.poly2EtaPackedBytes);
                    } else {
                        Poly.uniformEta(c.acc, c.xof, buf, sigma, (counter + p.m + i) & 0xffff);
                    }
                    Fft.accumulateInPlace(c.acc, c.tmp, c.aux);
                }
                long sv = Fft.fromSums(p, c.aux, c.best);
                if (!(sv > p.gamma * p.gamma * N)) {
                    break;
                }
                counter += p.m + p.k;
            }
            if (!p.roundedKey()) {
                // pk holds NTT(-2 (A0 s1 + s2)) directly
                for (int i = 0; i < p.k; i++) {
                    for (int j = 0; j < p.m; j++) {
                        Poly.uniformEta(c.tmp, c.xof, buf, sigma, (counter + j) & 0xffff);
                        Ntt.forward(c.tmp);
                        if (j == 0) {
                            setStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
                        } else {
                            accStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
                        }
                    }
                    Poly.uniformEta(c.tmp, c.xof, buf, sigma, (counter + p.m + i) & 0xffff);
                    Ntt.forward(c.tmp);
                    for (int n = 0; n < N; n++) {
                        int v = Reduce.montgomery((long) c.acc[n] * Reduce.MONTSQ) + c.tmp[n];
                        v = Reduce.montgomery((long) v * Reduce.MONT * -2);
                        c.acc[n] = Reduce.caddq(v);
                    }
                    Packing.packPolyQ(pk, pkOff + SEEDBYTES + i * p.polyQPackedBytes, c.acc, false);
                }
                for (int i = 0; i < p.k; i++) {
                    Poly.uniformEta(c.tmp, c.xof, buf, sigma, (counter + p.m + i) & 0xffff);
                    Packing.packEta(sk, s2Off + i * p.poly2EtaPackedBytes, c.tmp);
                }
            }
            System.arraycopy(buf, 0, pk, pkOff, SEEDBYTES);
            System.arraycopy(pk, pkOff, sk, skOff, p.pkBytes);
            for (int j = 0; j < p.m; j++) {
                Poly.uniformEta(c.tmp, c.xof, buf, sigma, (counter + j) & 0xffff);
                Packing.packEta(sk, skOff + p.pkBytes + j * POLYETA_PACKEDBYTES, c.tmp);
            }
            System.arraycopy(buf, SEEDBYTES + CRHBYTES, sk, s2Off + p.k * p.poly2EtaPackedBytes, SEEDBYTES);
        } finally {
            c.wipe();
        }
    }

    // ---------------------------------------------------------------- hyperball sampling, streamed

    /**
     * Replays the Gaussian stream of component {@code poly}: with {@code out == null} adds the squares of
     * all accepted draws to sqsum (pass 1); otherwise writes the first 256 scaled coefficients y (pass 2
     * and every later regeneration).
     */
    private static void gaussStream(HaetaeParameterSet p, HaetaeSampler v, Context c, int poly, int[] out) {
        int len = poly < 2 ? N + 1 : N;
        Keccak xof = c.xof;
        xof.initShake256().absorb(c.seed, 0, CRHBYTES).absorbU16((c.base + poly) & 0xffff);
        xof.squeeze(c.signs, 0, len / 8);
        int limit = out == null ? len : N;
        int count = 0;
        while (count < limit) {
            xof.squeeze(c.draw, 0, v.drawBytes);
            long r = v == HaetaeSampler.V1_2_0 ? HyperballSampler.draw83(c.draw, 0, c.sqr, c.y)
                    : HyperballSampler.draw16(c.draw, 0, c.sqr, c.y);
            if ((r & 1) != 0) {
                if (out == null) {
                    c.sqsum.lo += c.sqr.lo;
                    c.sqsum.hi += c.sqr.hi;
                } else {
                    out[count] = FixedPoint.mulRound13(c.y.lo, c.radius, bit(c.signs, count), c.t1, c.t2);
                }
                count++;
            }
        }
        if (out == null) {
            FixedPoint.renormalize(c.sqsum);
        }
    }

    /** Samples until the hyperball norm test passes; leaves the radius, base nonce and b in the context. */
    private static int sampleHyperball(HaetaeParameterSet p, HaetaeSampler v, Context c, int counter) {
        int dims = p.l + p.k;
        long bound = p.b0sq * LN * LN;
        HyperballSampler.startValues(p, c.startCube, c.startThreeHalves);
        while (true) {
            c.base = counter;
            counter += dims;
            c.sqsum.set(0, 0);
            for (int i = 0; i < dims; i++) {
                gaussStream(p, v, c, i, null);
            }
            HyperballSampler.radius(p, c.sqsum, c.invsqrt, c.radius, c.startCube, c.startThreeHalves, c.scratch);
            long sq = 0;
            for (int i = 0; i < dims; i++) {
                gaussStream(p, v, c, i, c.tmp);
                for (int n = 0; n < N; n++) {
                    sq += (long) c.tmp[n] * c.tmp[n];
                }
            }
            if (Long.compareUnsigned(sq, bound) <= 0) {
                break;
            }
        }
        c.xof.initShake256().absorb(c.seed, 0, CRHBYTES).absorbU16(counter & 0xffff);
        c.bBits = c.xof.squeezeByte();
        return counter & 0xffff;
    }

    // ---------------------------------------------------------------- signing

    /** Row i of A round(y) mod 2q (frozen) into c.acc; records LSB(round(y1_0)) when asked. Uses tmp. */
    private static void commitmentRow(HaetaeParameterSet p, HaetaeSampler v, Context c, byte[] sk, int skOff, int i,
            boolean recordLsb) {
        firstColumn(p, c, sk, skOff, i, c.acc);
        for (int j = 0; j < p.l; j++) {
            gaussStream(p, v, c, j, c.tmp);
            for (int n = 0; n < N; n++) {
                c.tmp[n] = Poly.fixRound(c.tmp[n]);
            }
            if (j == 0 && recordLsb) {
                Packing.packLsb(c.lsb, 0, c.tmp);
            }
            Ntt.forward(c.tmp);
            if (j == 0) {
                for (int n = 0; n < N; n++) {
                    c.acc[n] = Reduce.montgomery((long) c.acc[n] * c.tmp[n]);
                }
            } else {
                accStreamedA(c, sk, skOff, i, j - 1, c.acc, c.tmp, 2);
            }
        }
        Ntt.inverseToMont(c.acc);
        gaussStream(p, v, c, p.l + i, c.tmp);
        for (int n = 0; n < N; n++) {
            int val = c.acc[n] + 2 * Poly.fixRound(c.tmp[n]);
            int parity = i == 0 ? (val ^ bit(c.lsb, n)) & 1 : val & 1;
            c.acc[n] = Reduce.freeze2q(val + (Q & -parity));
        }
    }

    /** (c s)_j into out: c itself for j = 0, else c * s1_{j-1}; s2_i for j = l + i. Uses tmp. */
    private static void challengeTimesSecret(HaetaeParameterSet p, Context c, byte[] sk, int skOff, int j, int[] out) {
        if (j == 0) {
            for (int n = 0; n < N; n++) {
                out[n] = bit(c.cbits, n);
            }
            return;
        }
        int o = skOff + p.pkBytes;
        if (j < p.l) {
            Packing.unpackEta(out, sk, o + (j - 1) * POLYETA_PACKEDBYTES);
        } else {
            o += p.m * POLYETA_PACKEDBYTES + (j - p.l) * p.poly2EtaPackedBytes;
            if (p.roundedKey()) {
                Packing.unpack2Eta(out, sk, o);
            } else {
                Packing.unpackEta(out, sk, o);
            }
        }
        Ntt.forward(out);
        for (int n = 0; n < N; n++) {
            c.tmp[n] = bit(c.cbits, n);
        }
        Ntt.forward(c.tmp);
        for (int n = 0; n < N; n++) {
            out[n] = Reduce.montgomery((long) c.tmp[n] * out[n]);
        }
        Ntt.inverseToMont(out);
    }

    static void sign(HaetaeParameterSet p, HaetaeSampler v, Context c, byte[] sk, int skOff, byte[] msg, int mOff,
            int mLen, byte[] context, int cOff, int cLen, byte[] rnd, int rndOff, byte[] sig, int sigOff) {
        try {
            Keccak xof = c.xof;
            xof.initShake256().absorb(sk, skOff, p.pkBytes).absorbByte(cLen);
            if (cLen > 0) {
                xof.absorb(context, cOff, cLen);
            }
            xof.absorb(msg, mOff, mLen).squeeze(c.mu, 0, CRHBYTES);
            int keyOff = skOff + p.skBytes - SEEDBYTES;
            xof.initShake256().absorb(sk, keyOff, SEEDBYTES).absorb(rnd, rndOff, SEEDBYTES)
                    .absorb(c.mu, 0, CRHBYTES).squeeze(c.seed, 0, CRHBYTES);
            int counter = 0;
            long b1bound = p.b1sq * LN * LN;
            long b0bound = p.b0sq * LN * LN;
            while (true) {
                counter = sampleHyperball(p, v, c, counter);
                // commitment and challenge, hashing each row as it is produced
                c.tr.initShake256();
                for (int i = 0; i < p.k; i++) {
                    commitmentRow(p, v, c, sk, skOff, i, i == 0);
                    for (int n = 0; n < N; n++) {
                        c.tmp[n] = Poly.highbitsHint(c.acc[n], p);
                    }
                    SlotWriter.absorb(p, c.tr, c.tmp);
                }
                c.tr.absorb(c.lsb, 0, POLYC_PACKEDBYTES).absorb(c.mu, 0, SEEDBYTES);
                Poly.challengeFromXof(c.tmp, c.tr, p);
                Packing.packLsb(c.cbits, 0, c.tmp);

                // z = y + (-1)^b c s, component by component, with early rejection on ||z|| > B1
                int sign = 1 - 2 * (c.bBits & 1);
                long norm = 0;
                long norm2 = 0;
                boolean early = false;
                for (int j = 0; j < p.l + p.k && !early; j++) {
                    challengeTimesSecret(p, c, sk, skOff, j, c.aux);
                    gaussStream(p, v, c, j, c.tmp);
                    for (int n = 0; n < N; n++) {
                        int y = c.tmp[n];
                        int z = y + LN * (c.aux[n] * sign);
                        norm += (long) z * z;
                        long d = 2L * z - y;
                        norm2 += d * d;
                    }
                    early = Long.compareUnsigned(norm, b1bound) > 0;
                }
                if (early) {
                    continue;
                }
                long reject1 = (b1bound - norm) >>> 63;
                long reject2 = ((norm2 - b0bound) >>> 63) & ((c.bBits >> 1) & 1);
                if ((reject1 | reject2) != 0) {
                    continue;
                }
                if (encodeSignature(p, v, c, sk, skOff, sign, sig, sigOff)) {
                    return;
                }
            }
        } finally {
            c.wipe();
        }
    }

    /**
     * Recomputes hints and HighBits(z1) in reverse order, rANS-encodes them backwards into the tail of
     * {@code sig}, then moves the codes behind LowBits(z1). False means "retry" as in the reference.
     */
    private static boolean encodeSignature(HaetaeParameterSet p, HaetaeSampler v, Context c, byte[] sk, int skOff,
            int sign, byte[] sig, int sigOff) {
        int headEnd = sigOff + POLYC_PACKEDBYTES + p.l * N + 2;
        int end = sigOff + p.sigBytes;
        Rans.Encoder enc = c.enc;
        Rans.Table tH = Rans.hTable(p);
        int cut = (p.mH - 1) >> 1;
        enc.init(sig, headEnd, end);
        for (int i = p.k - 1; i >= 0; i--) {
            challengeTimesSecret(p, c, sk, skOff, p.l + i, c.aux);
            commitmentRow(p, v, c, sk, skOff, i, false);
            gaussStream(p, v, c, p.l + i, c.tmp);
            for (int n = N - 1; n >= 0; n--) {
                int z = c.tmp[n] + LN * (c.aux[n] * sign);
                int w = Reduce.freeze2q(c.acc[n] - 2 * Poly.fixRound(z));
                int h = Poly.highbitsHint(c.acc[n], p) - Poly.highbitsHint(w, p);
                h += (h >> 31) & p.hintModulus;
                if (cut < h && h <= cut + p.offsetH) {
                    return false;
                }
                if (!enc.put(tH, h > cut + p.offsetH ? h - p.offsetH : h)) {
                    return false;
                }
            }
        }
        int hStart = enc.flush();
        int sizeH = end - hStart;

        Rans.Table tHb = Rans.hbZ1Table(p);
        enc.init(sig, headEnd, hStart);
        for (int j = p.l - 1; j >= 0; j--) {
            challengeTimesSecret(p, c, sk, skOff, j, c.aux);
            gaussStream(p, v, c, j, c.tmp);
            int low = sigOff + POLYC_PACKEDBYTES + j * N;
            for (int n = N - 1; n >= 0; n--) {
                int zr = Poly.fixRound(c.tmp[n] + LN * (c.aux[n] * sign));
                int s = Poly.highbitsZ1(zr) + p.offsetHbZ1;
                if (s < 0 || s >= p.mHbZ1) {
                    return false;
                }
                if (!enc.put(tHb, s)) {
                    return false;
                }
                sig[low + n] = (byte) Poly.lowbitsZ1(zr);
            }
        }
        int hbStart = enc.flush();
        int sizeHb = hStart - hbStart;
        if (sizeH < p.baseEncH || sizeHb < p.baseEncHbZ1 || sizeH > p.baseEncH + 255 || sizeHb > p.baseEncHbZ1 + 255) {
            return false;
        }
        if (SEEDBYTES + p.l * N + 2 + sizeHb + sizeH > p.sigBytes) {
            return false;
        }
        System.arraycopy(sig, hbStart, sig, headEnd, sizeHb);
        System.arraycopy(sig, hStart, sig, headEnd + sizeHb, sizeH);
        Arrays.fill(sig, headEnd + sizeHb + sizeH, end, (byte) 0);
        sig[headEnd - 2] = (byte) (sizeHb - p.baseEncHbZ1);
        sig[headEnd - 1] = (byte) (sizeH - p.baseEncH);
        System.arraycopy(c.cbits, 0, sig, sigOff, POLYC_PACKEDBYTES);
        return true;
    }

    // ---------------------------------------------------------------- verification

    static boolean verify(HaetaeParameterSet p, Context c, byte[] pk, int pkOff, byte[] msg, int mOff, int mLen,
            byte[] context, int cOff, int cLen, byte[] sig, int sigOff, int sigLen) {
        try {
            return verifyInternal(p, c, pk, pkOff, msg, mOff, mLen, context, cOff, cLen, sig, sigOff, sigLen);
        } finally {
            c.dec.release();
            c.dec2.release();
        }
    }

    private static boolean verifyInternal(HaetaeParameterSet p, Context c, byte[] pk, int pkOff, byte[] msg, int mOff,
            int mLen, byte[] context, int cOff, int cLen, byte[] sig, int sigOff, int sigLen) {
        if (sigLen != p.sigBytes || cLen < 0 || cLen > 255) {
            return false;
        }
        int lowOff = sigOff + POLYC_PACKEDBYTES;
        int o = lowOff + p.l * N;
        int sizeHb = (sig[o] & 0xff) + p.baseEncHbZ1;
        int sizeH = (sig[o + 1] & 0xff) + p.baseEncH;
        int hbOff = o + 2;
        int hOff = hbOff + sizeHb;
        if (SEEDBYTES + p.l * N + 2 + sizeHb + sizeH > p.sigBytes) {
            return false;
        }
        Rans.Table tHb = Rans.hbZ1Table(p);
        Rans.Table tH = Rans.hTable(p);
        // pass over HighBits(z1): validity, ||z1||^2 and w' = LSB(z1_0 - c)
        Rans.Decoder dec = c.dec;
        if (!dec.init(sig, hbOff, sizeHb)) {
            return false;
        }
        long sqnorm = 0;
        for (int j = 0; j < p.l; j++) {
            int base = lowOff + j * N;
            for (int n = 0; n < N; n++) {
                int z = (dec.next(tHb) - p.offsetHbZ1) * 256 + sig[base + n];
                sqnorm += (long) z * z;
                if (j == 0) {
                    c.tmp[n] = (z - ((sig[sigOff + (n >> 3)] >> (n & 7)) & 1)) & 1;
                }
            }
        }
        if (!dec.finish()) {
            return false;
        }
        Packing.packLsb(c.lsb, 0, c.tmp);
        Rans.Decoder hdec = c.dec2;
        if (!hdec.init(sig, hOff, sizeH)) {
            return false;
        }
        for (int n = 0; n < p.k * N; n++) {
            hdec.next(tH);
        }
        if (!hdec.finish()) {
            return false;
        }
        int diff = 0;
        for (int i = hOff + sizeH, end = sigOff + p.sigBytes; i < end; i++) {
            diff |= sig[i];
        }
        if (diff != 0) {
            return false;
        }
        Keccak xof = c.xof;
        xof.initShake256().absorb(pk, pkOff, p.pkBytes).absorbByte(cLen);
        if (cLen > 0) {
            xof.absorb(context, cOff, cLen);
        }
        xof.absorb(msg, mOff, mLen).squeeze(c.mu, 0, SEEDBYTES);

        // rows of A z1: z1 is re-decoded from the signature for every row
        int cut = (p.mH - 1) >> 1;
        hdec.init(sig, hOff, sizeH);
        c.tr.initShake256();
        for (int i = 0; i < p.k; i++) {
            firstColumn(p, c, pk, pkOff, i, c.acc);
            dec.init(sig, hbOff, sizeHb);
            for (int j = 0; j < p.l; j++) {
                int base = lowOff + j * N;
                for (int n = 0; n < N; n++) {
                    c.tmp[n] = (dec.next(tHb) - p.offsetHbZ1) * 256 + sig[base + n];
                }
                Ntt.forward(c.tmp);
                if (j == 0) {
                    for (int n = 0; n < N; n++) {
                        c.acc[n] = Reduce.montgomery((long) c.acc[n] * c.tmp[n]);
                    }
                } else {
                    accStreamedA(c, pk, pkOff, i, j - 1, c.acc, c.tmp, 2);
                }
            }
            Ntt.inverseToMont(c.acc);
            for (int n = 0; n < N; n++) {
                int val = c.acc[n];
                int wp = i == 0 ? bit(c.lsb, n) : 0;
                int parity = i == 0 ? (val ^ wp) & 1 : val & 1;
                val = Reduce.freeze2q(val + (Q & -parity));
                int s = hdec.next(tH);
                int w = Poly.highbitsHint(val, p) + (cut < s ? s + p.offsetH : s);
                w -= ~((w - p.hintModulus) >> 31) & p.hintModulus;
                c.tmp[n] = w;
                int z2 = Reduce.reduce2q(w * p.alphaHint - val + wp) >> 1;
                sqnorm += (long) z2 * z2;
            }
            SlotWriter.absorb(p, c.tr, c.tmp);
        }
        if (Long.compareUnsigned(sqnorm, p.b2sq) > 0) {
            return false;
        }
        c.tr.absorb(c.lsb, 0, POLYC_PACKEDBYTES).absorb(c.mu, 0, SEEDBYTES);
        Poly.challengeFromXof(c.tmp, c.tr, p);
        int d = 0;
        for (int n = 0; n < N; n++) {
            d |= c.tmp[n] ^ ((sig[sigOff + (n >> 3)] >> (n & 7)) & 1);
        }
        return d == 0;
    }
}
