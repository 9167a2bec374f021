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
 * {@link FastEngine}, computed with two polynomial buffers plus the k rows of the commitment, stored
 * as 16-bit values, instead of whole vectors.
 *
 * <ul>
 * <li>Two-pass hyperball sampling: pass 1 regenerates every Gaussian stream only to sum the squares
 * (the radius), pass 2 checks the norm of the scaled vector; afterwards any component y_j is
 * regenerated on demand from SHAKE256(seed || nonce_j) instead of being stored.</li>
 * <li>The matrix A is never stored: its entries are streamed from SHAKE128 and multiplied in the NTT
 * domain as they are produced. A * round(y) is accumulated one column at a time during pass 2 (each
 * y_j is generated once for the norm check and the commitment), into k rows of 16-bit residues.</li>
 * <li>The transcript is hashed straight from the stored rows (no transcript buffer).</li>
 * <li>Pass decomposition with component-level early rejection: z = y + (-1)^b c s is formed one
 * component at a time and the attempt is abandoned as soon as the partial norm exceeds B1.</li>
 * <li>Streaming rANS: rANS encodes backwards, so the z pass runs over the components in reverse
 * order and encodes hints and HighBits(z1) directly into the tail of the output signature as it goes
 * (a rejected attempt just leaves scratch there); the codes are then moved into place.</li>
 * <li>Row-streamed verification with view-style decoding: the rANS streams are decoded once, straight
 * from the signature bytes, z1 one component (column of A) at a time and h one row at a time.</li>
 * <li>Streamed key generation: s1, s2 are regenerated from sigma whenever needed.</li>
 * </ul>
 */
final class CompactEngine {
    private CompactEngine() {
    }

    /** What a context is used for; each operation gets a context holding only what it needs. */
    enum Op {
        KEYGEN, SIGN, VERIFY
    }

    /** Largest k of the parameter sets: rows of the commitment kept by signing and verification. */
    static final int MAX_K = 4;
    /** Largest l + k of the parameter sets. */
    static final int MAX_DIMS = 11;
    /**
     * Draws per component whose acceptance is recorded (a component needs 256 or 257 accepted draws;
     * with acceptance rates near 97 % more than 320 draws essentially never happen, and any draw beyond
     * the record is simply replayed in full).
     */
    static final int FATE_DRAWS = 320;
    static final int FATE_BYTES = FATE_DRAWS / 8;
    /**
     * Replays use the recorded fate of draws below this index (at most {@link #FATE_DRAWS}; pass 1 always
     * records all of them). Lowered only by tests, to exercise the full replay of unrecorded draws; any
     * value gives the same output.
     */
    static int replayLimit = FATE_DRAWS;

    /**
     * Per-thread state of the compact engine, one per operation, sized for the largest parameter set.
     * Deliberately holds no reference to shared objects (parameter set, tables, caller buffers between
     * calls) so that its retained size is its working set.
     */
    static final class Context {
        final Keccak xof = new Keccak();
        /** Second polynomial work buffer (key generation only). */
        final int[] acc;
        final int[] tmp = new int[N];
        /** Third polynomial (key generation: FFT bin sums; signing: row i in the time domain, then c s). */
        final int[] aux;
        /**
         * Signing and verification: k rows of A z (A round(y)) as 16-bit values, row i at [i n, (i + 1) n).
         * While a row is accumulated in the NTT domain it holds residues in [0, q); once finished, signing
         * keeps w / 2 (w in [0, 2q) has a known parity: that of round(y1_0) in row 0, even elsewhere).
         */
        final char[] rows;
        /**
         * Signing: which of the first {@link #FATE_DRAWS} Gaussian draws of each component were accepted in
         * pass 1 of the current attempt, so that replays skip the rejection step (and rejected draws).
         */
        final byte[] fate;
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
            acc = keygen ? new int[N] : null;
            aux = verify ? null : new int[N];
            rows = keygen ? null : new char[MAX_K * N];
            fate = sign ? new byte[MAX_DIMS * FATE_BYTES] : null;
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
            scratch = sign ? new FixedPoint.Scratch() : null;
            enc = sign ? new Rans.Encoder() : null;
            dec = verify ? new Rans.Decoder() : null;
            dec2 = verify ? new Rans.Decoder() : null;
        }

        /** Zeroes every buffer (allocation-free). */
        void wipe() {
            xof.wipe();
            fill(acc);
            fill(tmp);
            fill(aux);
            fill(best);
            if (rows != null) {
                Arrays.fill(rows, (char) 0);
            }
            fill(fate);
            fill(mu);
            fill(seed);
            fill(signs);
            fill(draw);
            fill(lsb);
            fill(cbits);
            if (scratch != null) {
                sqsum.set(0, 0);
                sqr.set(0, 0);
                y.set(0, 0);
                invsqrt.set(0, 0);
                radius.set(0, 0);
                scratch.t1.set(0, 0);
                scratch.t2.set(0, 0);
                scratch.t3.set(0, 0);
                scratch.t4.set(0, 0);
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

        private static void fill(int[] a) {
            if (a != null) {
                Arrays.fill(a, 0);
            }
        }

        private static void fill(byte[] a) {
            if (a != null) {
                Arrays.fill(a, (byte) 0);
            }
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

    /** Canonical residue in [0, q) of v in (-q, 2q). */
    private static int canon(int v) {
        v += (v >> 31) & Q;
        v -= Q;
        return v + ((v >> 31) & Q);
    }

    /**
     * Adds column j of A times v (NTT domain) to every row: streamed A0 entries (factor 2) for j &gt;= 1.
     * j = 0 starts the rows with the first column: v is first copied (as residues) into every row, then
     * v's buffer is reused for each row's first-column entry, so no second polynomial buffer is needed.
     */
    private static void accumulateColumn(HaetaeParameterSet p, Context c, byte[] pk, int pkOff, int j, int[] v) {
        char[] rows = c.rows;
        if (j == 0) {
            for (int n = 0; n < N; n++) {
                char r = (char) Reduce.freeze(v[n]);
                for (int i = 0; i < p.k; i++) {
                    rows[i * N + n] = r;
                }
            }
            for (int i = 0; i < p.k; i++) {
                int o = i * N;
                firstColumn(p, c, pk, pkOff, i, v);
                for (int n = 0; n < N; n++) {
                    rows[o + n] = (char) canon(Reduce.montgomery((long) v[n] * rows[o + n]));
                }
            }
            return;
        }
        Keccak xof = c.xof;
        for (int i = 0; i < p.k; i++) {
            int o = i * N;
            xof.initShake128().absorb(pk, pkOff, SEEDBYTES).absorbU16((i << 8) + j - 1);
            for (int n = 0; n < N; n++) {
                rows[o + n] = (char) canon(rows[o + n] + Reduce.montgomery((long) (2 * Poly.nextUniform(xof)) * v[n]));
            }
        }
    }

    /** Copies row i (residues) into {@code out} and takes it out of the NTT domain. */
    private static void rowToTime(Context c, int i, int[] out) {
        char[] rows = c.rows;
        int o = i * N;
        for (int n = 0; n < N; n++) {
            out[n] = rows[o + n];
        }
        Ntt.inverseToMont(out);
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
     * and every later regeneration). Branch-free bookkeeping as in {@link HyperballSampler}.
     */
    private static void gaussStream(HaetaeParameterSet p, HaetaeSampler v, Context c, int poly, int[] out) {
        int len = poly < 2 ? N + 1 : N;
        Keccak xof = c.xof;
        xof.initShake256().absorb(c.seed, 0, CRHBYTES).absorbU16((c.base + poly) & 0xffff);
        xof.squeeze(c.signs, 0, len / 8);
        int drawBytes = v.drawBytes;
        boolean v120 = v == HaetaeSampler.V1_2_0;
        byte[] fate = c.fate;
        int fateOff = poly * FATE_BYTES;
        int count = 0;
        int d = 0;
        if (out == null) {
            Arrays.fill(fate, fateOff, fateOff + FATE_BYTES, (byte) 0);
            long lo = 0;
            long hi = 0;
            while (count < len) {
                int at = xof.viewOrCopy(drawBytes, c.draw); // -1: copied to c.draw
                byte[] src = at < 0 ? c.draw : xof.buffer();
                at = Math.max(at, 0);
                long accepted = (v120 ? HyperballSampler.draw83(src, at, c.sqr, c.y)
                        : HyperballSampler.draw16(src, at, c.sqr, c.y)) & 1;
                lo += c.sqr.lo & -accepted;
                hi += c.sqr.hi & -accepted;
                count += (int) accepted;
                if (d < FATE_DRAWS) {
                    fate[fateOff + (d >>> 3)] |= (byte) (accepted << (d & 7));
                }
                d++;
            }
            c.sqsum.lo += lo;
            c.sqsum.hi += hi;
            FixedPoint.renormalize(c.sqsum);
        } else {
            long rlo = c.radius.lo;
            long rhi = c.radius.hi;
            byte[] signs = c.signs;
            int known = Math.min(replayLimit, FATE_DRAWS);
            while (count < N) {
                int at = xof.viewOrCopy(drawBytes, c.draw); // -1: copied to c.draw
                byte[] src = at < 0 ? c.draw : xof.buffer();
                at = Math.max(at, 0);
                if (d < known) {
                    // replay: the fate of this draw is known from pass 1
                    if (((fate[fateOff + (d >>> 3)] >> (d & 7)) & 1) != 0) {
                        long r = v120 ? HyperballSampler.value83(src, at) : HyperballSampler.value16(src, at);
                        out[count] = FixedPoint.mulRound13(r, rlo, rhi, bit(signs, count));
                        count++;
                    }
                } else {
                    long accepted = (v120 ? HyperballSampler.draw83(src, at, c.sqr, c.y)
                            : HyperballSampler.draw16(src, at, c.sqr, c.y)) & 1;
                    out[count] = FixedPoint.mulRound13(c.y.lo, rlo, rhi, bit(signs, count));
                    count += (int) accepted;
                }
                d++;
            }
        }
    }

    /**
     * Samples until the hyperball norm test passes. Pass 2 of each try also builds the commitment: every
     * y1_j is generated once, rounded, transformed and multiplied into all k rows (column by column), and
     * each row is finished with its y2_i; rows are kept as w / 2 (see {@link Context#rows}) together with
     * LSB(round(y1_0)) in {@code c.lsb}. Leaves the base nonce and b in the context; returns the next nonce.
     */
    private static int sampleAndCommit(HaetaeParameterSet p, HaetaeSampler v, Context c, byte[] sk, int skOff,
            int counter) {
        int dims = p.l + p.k;
        long bound = p.b0sq * LN * LN;
        HyperballSampler.startValues(p, c.startCube, c.startThreeHalves);
        int[] tmp = c.tmp;
        char[] rows = c.rows;
        while (true) {
            c.base = counter;
            counter += dims;
            c.sqsum.set(0, 0);
            for (int i = 0; i < dims; i++) {
                gaussStream(p, v, c, i, null);
            }
            HyperballSampler.radius(p, c.sqsum, c.invsqrt, c.radius, c.startCube, c.startThreeHalves, c.scratch);
            long sq = 0;
            for (int j = 0; j < p.l; j++) {
                gaussStream(p, v, c, j, tmp);
                for (int n = 0; n < N; n++) {
                    int y = tmp[n];
                    sq += (long) y * y;
                    tmp[n] = Poly.fixRound(y);
                }
                if (j == 0) {
                    Packing.packLsb(c.lsb, 0, tmp);
                }
                Ntt.forward(tmp);
                accumulateColumn(p, c, sk, skOff, j, tmp);
            }
            for (int i = 0; i < p.k; i++) {
                gaussStream(p, v, c, p.l + i, tmp);
                rowToTime(c, i, c.aux);
                int o = i * N;
                for (int n = 0; n < N; n++) {
                    int y = tmp[n];
                    sq += (long) y * y;
                    int val = c.aux[n] + 2 * Poly.fixRound(y);
                    int parity = i == 0 ? (val ^ bit(c.lsb, n)) & 1 : val & 1;
                    rows[o + n] = (char) (Reduce.freeze2q(val + (Q & -parity)) >>> 1);
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

    /** w[i][n] of the finished commitment, in [0, 2q). */
    private static int row(Context c, int i, int n) {
        int half = c.rows[i * N + n];
        return 2 * half + (i == 0 ? bit(c.lsb, n) : 0);
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
            while (true) {
                counter = sampleAndCommit(p, v, c, sk, skOff, counter);
                // challenge: the transcript is hashed straight from the stored rows
                xof.initShake256();
                for (int i = 0; i < p.k; i++) {
                    for (int n = 0; n < N; n++) {
                        c.tmp[n] = Poly.highbitsHint(row(c, i, n), p);
                    }
                    SlotWriter.absorb(p, xof, c.tmp);
                }
                xof.absorb(c.lsb, 0, POLYC_PACKEDBYTES).absorb(c.mu, 0, SEEDBYTES);
                Poly.challengeFromXof(c.tmp, xof, p);
                Packing.packLsb(c.cbits, 0, c.tmp);
                if (responseAndEncode(p, v, c, sk, skOff, sig, sigOff)) {
                    return;
                }
            }
        } finally {
            c.wipe();
        }
    }

    /**
     * z = y + (-1)^b c s, one component at a time in reverse order (y2_{k-1} .. y2_0, y1_{l-1} .. y1_0),
     * with early rejection on ||z|| &gt; B1, while rANS-encoding the hints and then HighBits(z1) backwards
     * into the tail of {@code sig} and writing LowBits(z1) in place. False means "reject this attempt";
     * the checks are those of the reference, only their order differs, which does not change the outcome.
     */
    private static boolean responseAndEncode(HaetaeParameterSet p, HaetaeSampler v, Context c, byte[] sk, int skOff,
            byte[] sig, int sigOff) {
        int sign = 1 - 2 * (c.bBits & 1);
        long b1bound = p.b1sq * LN * LN;
        long b0bound = p.b0sq * LN * LN;
        int headEnd = sigOff + POLYC_PACKEDBYTES + p.l * N + 2;
        int end = sigOff + p.sigBytes;
        Rans.Encoder enc = c.enc;
        Rans.Table tH = Rans.hTable(p);
        Rans.Table tHb = Rans.hbZ1Table(p);
        int cut = (p.mH - 1) >> 1;
        int[] y = c.tmp;
        int[] cs = c.aux;
        long norm = 0;
        long norm2 = 0;
        int hStart = end;
        enc.init(sig, headEnd, end);
        for (int j = p.l + p.k - 1; j >= 0; j--) {
            challengeTimesSecret(p, c, sk, skOff, j, cs);
            gaussStream(p, v, c, j, y);
            if (j >= p.l) {
                int i = j - p.l;
                for (int n = N - 1; n >= 0; n--) {
                    int yv = y[n];
                    int z = yv + LN * (cs[n] * sign);
                    norm += (long) z * z;
                    long d = 2L * z - yv;
                    norm2 += d * d;
                    int w = row(c, i, n);
                    int wz = Reduce.freeze2q(w - 2 * Poly.fixRound(z));
                    int h = Poly.highbitsHint(w, p) - Poly.highbitsHint(wz, p);
                    h += (h >> 31) & p.hintModulus;
                    if (cut < h && h <= cut + p.offsetH) {
                        return false;
                    }
                    if (!enc.put(tH, h > cut + p.offsetH ? h - p.offsetH : h)) {
                        return false;
                    }
                }
                if (j == p.l) {
                    hStart = enc.flush();
                    enc.init(sig, headEnd, hStart);
                }
            } else {
                int low = sigOff + POLYC_PACKEDBYTES + j * N;
                for (int n = N - 1; n >= 0; n--) {
                    int yv = y[n];
                    int z = yv + LN * (cs[n] * sign);
                    norm += (long) z * z;
                    long d = 2L * z - yv;
                    norm2 += d * d;
                    int zr = Poly.fixRound(z);
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
            if (Long.compareUnsigned(norm, b1bound) > 0) {
                return false;
            }
        }
        long reject1 = (b1bound - norm) >>> 63;
        long reject2 = ((norm2 - b0bound) >>> 63) & ((c.bBits >> 1) & 1);
        if ((reject1 | reject2) != 0) {
            return false;
        }
        int hbStart = enc.flush();
        int sizeH = end - hStart;
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
        int diff = 0;
        for (int i = hOff + sizeH, end = sigOff + p.sigBytes; i < end; i++) {
            diff |= sig[i];
        }
        if (diff != 0) {
            return false;
        }
        Rans.Decoder dec = c.dec;
        Rans.Decoder hdec = c.dec2;
        if (!dec.init(sig, hbOff, sizeHb) || !hdec.init(sig, hOff, sizeH)) {
            return false;
        }
        Keccak xof = c.xof;
        xof.initShake256().absorb(pk, pkOff, p.pkBytes).absorbByte(cLen);
        if (cLen > 0) {
            xof.absorb(context, cOff, cLen);
        }
        xof.absorb(msg, mOff, mLen).squeeze(c.mu, 0, SEEDBYTES);

        // columns of A z1: each z1_j is decoded once, straight from the signature, and transformed once
        Rans.Table tHb = Rans.hbZ1Table(p);
        int[] z = c.tmp;
        long sqnorm = 0;
        for (int j = 0; j < p.l; j++) {
            int base = lowOff + j * N;
            for (int n = 0; n < N; n++) {
                int zv = (dec.next(tHb) - p.offsetHbZ1) * 256 + sig[base + n];
                sqnorm += (long) zv * zv;
                z[n] = zv;
            }
            if (j == 0) {
                // w' = LSB(z1_0 - c)
                Packing.packLsb(c.lsb, 0, z);
                for (int b = 0; b < POLYC_PACKEDBYTES; b++) {
                    c.lsb[b] ^= sig[sigOff + b];
                }
            }
            Ntt.forward(z);
            accumulateColumn(p, c, pk, pkOff, j, z);
        }
        if (!dec.finish()) {
            return false;
        }

        // rows: w = HighBits(A z1 - q c j) + h, ||z2||^2, transcript
        Rans.Table tH = Rans.hTable(p);
        int cut = (p.mH - 1) >> 1;
        xof.initShake256();
        for (int i = 0; i < p.k; i++) {
            rowToTime(c, i, z);
            for (int n = 0; n < N; n++) {
                int val = z[n];
                int wp = i == 0 ? bit(c.lsb, n) : 0;
                int parity = i == 0 ? (val ^ wp) & 1 : val & 1;
                val = Reduce.freeze2q(val + (Q & -parity));
                int s = hdec.next(tH);
                int w = Poly.highbitsHint(val, p) + (cut < s ? s + p.offsetH : s);
                w -= ~((w - p.hintModulus) >> 31) & p.hintModulus;
                z[n] = w;
                int z2 = Reduce.reduce2q(w * p.alphaHint - val + wp) >> 1;
                sqnorm += (long) z2 * z2;
            }
            SlotWriter.absorb(p, xof, z);
        }
        if (!hdec.finish()) {
            return false;
        }
        if (Long.compareUnsigned(sqnorm, p.b2sq) > 0) {
            return false;
        }
        xof.absorb(c.lsb, 0, POLYC_PACKEDBYTES).absorb(c.mu, 0, SEEDBYTES);
        Poly.challengeFromXof(z, xof, p);
        int d = 0;
        for (int n = 0; n < N; n++) {
            d |= z[n] ^ ((sig[sigOff + (n >> 3)] >> (n & 7)) & 1);
        }
        return d == 0;
    }
}
