package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.CRHBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

import dev.pqsign.haetae.FixedPoint.Fp;
import java.util.Arrays;

/**
 * The compact (streaming) engine: the same keys, signatures and verification results as
 * {@link FastEngine}, computed with two polynomial buffers plus the k rows of the commitment, stored
 * as 16-bit values, instead of whole vectors. One class per operation ({@link CompactKeyGen},
 * {@link CompactSign}, {@link CompactVerify}); this one holds their per-thread contexts and the
 * streaming steps they share (the columns of A, the commitment rows, the transcript slots).
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
    private CompactEngine() {}

    /** What a context is used for; each operation gets a context holding only what it needs. */
    enum Op {
        KEYGEN,
        SIGN,
        VERIFY
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
        /**
         * Replays use the recorded fate of draws below this index (at most {@link #FATE_DRAWS}; pass 1
         * always records all of them). Any value gives the same output; a context with a lower limit
         * (tests only) sends most draws down the full-replay path.
         */
        final int replayLimit;
        /** Nonce of y_0 in the current signing attempt and the sampler's bit pair b. */
        int base;

        int bBits;

        Context(Op op) {
            this(op, FATE_DRAWS);
        }

        Context(Op op, int replayLimit) {
            if (replayLimit < 0 || replayLimit > FATE_DRAWS) {
                throw new IllegalArgumentException(
                        "replay limit must be in [0, " + FATE_DRAWS + "], got " + replayLimit);
            }
            this.replayLimit = replayLimit;
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

    private static final ThreadLocal<Context> KEYGEN =
            ThreadLocal.withInitial(() -> WorkAreaProbes.compact("keygen", new Context(Op.KEYGEN)));
    private static final ThreadLocal<Context> SIGN =
            ThreadLocal.withInitial(() -> WorkAreaProbes.compact("sign", new Context(Op.SIGN)));
    private static final ThreadLocal<Context> VERIFY =
            ThreadLocal.withInitial(() -> WorkAreaProbes.compact("verify", new Context(Op.VERIFY)));

    /** The calling thread's context for {@code op}. */
    static Context forThread(Op op) {
        switch (op) {
            case KEYGEN:
                return KEYGEN.get();
            case SIGN:
                return SIGN.get();
            default:
                return VERIFY.get();
        }
    }

    // ---------------------------------------------------------------- shared streaming helpers

    /** A[i][0] in the NTT domain into out: 2(a_i - 2 b_i) transformed (modes 2/3), or NTT(-2b) from pk. */
    static void firstColumn(HaetaeParameterSet p, Context c, byte[] pk, int pkOff, int i, int[] out) {
        int off = pkOff + SEEDBYTES + i * p.polyQPackedBytes;
        if (p.roundedKey()) {
            // a_i streamed from SHAKE128, b_i read coefficient by coefficient: no second buffer
            Poly.uniform(out, c.xof, pk, pkOff, (p.k << 8) + p.m + i);
            for (int n = 0; n < N; n++) {
                out[n] = 2 * (out[n] - 2 * Packing.polyQ15At(pk, off, n));
            }
            Ntt.forward(out);
        } else {
            Packing.unpackPolyQ(out, pk, off, false);
        }
    }

    /** acc += (2 A0[i][j]) o v with A0[i][j] streamed from SHAKE128(rho || (i << 8) + j). */
    static void accStreamedA(Context c, byte[] rho, int rhoOff, int i, int j, int[] acc, int[] v, int factor) {
        c.xof.initShake128().absorb(rho, rhoOff, SEEDBYTES).absorbU16((i << 8) + j);
        for (int n = 0; n < N; n++) {
            acc[n] += Reduce.montgomery((long) factor * Poly.nextUniform(c.xof) * v[n]);
        }
    }

    /** acc = A0[i][j] o v (first term of a row, factor 1 or 2). */
    static void setStreamedA(Context c, byte[] rho, int rhoOff, int i, int j, int[] acc, int[] v, int factor) {
        c.xof.initShake128().absorb(rho, rhoOff, SEEDBYTES).absorbU16((i << 8) + j);
        for (int n = 0; n < N; n++) {
            acc[n] = Reduce.montgomery((long) factor * Poly.nextUniform(c.xof) * v[n]);
        }
    }

    /** Canonical residue in [0, q) of v in (-q, 2q). */
    static int canon(int v) {
        v += (v >> 31) & Q;
        v -= Q;
        return v + ((v >> 31) & Q);
    }

    /**
     * Adds column j of A times v (NTT domain) to every row: streamed A0 entries (factor 2) for j &gt;= 1.
     * j = 0 starts the rows with the first column: v is first copied (as residues) into every row, then
     * v's buffer is reused for each row's first-column entry, so no second polynomial buffer is needed.
     */
    static void accumulateColumn(HaetaeParameterSet p, Context c, byte[] pk, int pkOff, int j, int[] v) {
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
                rows[o + n] = (char) canon(rows[o + n] + Reduce.montgomery(2L * Poly.nextUniform(xof) * v[n]));
            }
        }
    }

    /** Copies row i (residues) into {@code out} and takes it out of the NTT domain. */
    static void rowToTime(Context c, int i, int[] out) {
        char[] rows = c.rows;
        int o = i * N;
        for (int n = 0; n < N; n++) {
            out[n] = rows[o + n];
        }
        Ntt.inverseToMont(out);
    }

    static int bit(byte[] bits, int n) {
        return (bits[n >>> 3] >> (n & 7)) & 1;
    }

    /** Absorbs one polynomial's HighBits slot (288 bytes, {@link Packing}'s encoding) into the transcript XOF. */
    static void absorbHighbitsSlot(HaetaeParameterSet p, Keccak tr, int[] hb) {
        boolean nineBit = !p.roundedKey();
        for (int k = 0; k < HaetaeParameterSet.POLY_HIGHBITS_PACKEDBYTES; k++) {
            tr.absorbByte(Packing.highbitsSlotByte(hb, k, nineBit));
        }
    }
}
