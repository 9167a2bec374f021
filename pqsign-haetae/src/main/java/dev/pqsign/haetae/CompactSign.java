package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.CRHBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.LN;
import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYC_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYETA_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

import dev.pqsign.haetae.CompactEngine.Context;
import java.util.Arrays;

/**
 * Sign of the compact engine: two-pass hyperball sampling with regeneration of every y_j from its
 * seed, the commitment accumulated column by column into k rows of 16-bit values, the challenge
 * hashed straight from those rows, and the response formed one component at a time with early
 * rejection while the rANS codes are written backwards into the signature (see {@link CompactEngine}).
 */
final class CompactSign {
    private CompactSign() {}

    /**
     * Replays the Gaussian stream of component {@code poly}: with {@code out == null} adds the squares of
     * all accepted draws to sqsum (pass 1); otherwise writes the first 256 scaled coefficients y (pass 2
     * and every later regeneration). Branch-free bookkeeping as in {@link HyperballSampler}.
     */
    private static void gaussStream(HaetaeSampler v, Context c, int poly, int[] out) {
        int len = poly < 2 ? N + 1 : N;
        Keccak xof = c.xof;
        xof.initShake256().absorb(c.seed, 0, CRHBYTES).absorbU16((c.base + poly) & 0xffff);
        xof.squeeze(c.signs, 0, len / 8);
        int drawBytes = v.drawBytes;
        boolean v120 = v == HaetaeSampler.V1_2_0;
        byte[] fate = c.fate;
        int fateOff = poly * CompactEngine.FATE_BYTES;
        int count = 0;
        int d = 0;
        if (out == null) {
            Arrays.fill(fate, fateOff, fateOff + CompactEngine.FATE_BYTES, (byte) 0);
            long lo = 0;
            long hi = 0;
            while (count < len) {
                int at = xof.viewOrCopy(drawBytes, c.draw); // -1: copied to c.draw
                byte[] src = at < 0 ? c.draw : xof.buffer();
                at = Math.max(at, 0);
                long accepted = (v120
                                ? HyperballSampler.drawV120(src, at, c.sqr, c.y)
                                : HyperballSampler.drawV112(src, at, c.sqr, c.y))
                        & 1;
                lo += c.sqr.lo & -accepted;
                hi += c.sqr.hi & -accepted;
                count += (int) accepted;
                if (d < CompactEngine.FATE_DRAWS) {
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
            int known = c.replayLimit;
            while (count < N) {
                int at = xof.viewOrCopy(drawBytes, c.draw); // -1: copied to c.draw
                byte[] src = at < 0 ? c.draw : xof.buffer();
                at = Math.max(at, 0);
                if (d < known) {
                    // replay: the fate of this draw is known from pass 1
                    if (((fate[fateOff + (d >>> 3)] >> (d & 7)) & 1) != 0) {
                        long r = v120
                                ? HyperballSampler.acceptedValueV120(src, at)
                                : HyperballSampler.acceptedValueV112(src, at);
                        out[count] = FixedPoint.mulRound13(r, rlo, rhi, CompactEngine.bit(signs, count));
                        count++;
                    }
                } else {
                    long accepted = (v120
                                    ? HyperballSampler.drawV120(src, at, c.sqr, c.y)
                                    : HyperballSampler.drawV112(src, at, c.sqr, c.y))
                            & 1;
                    out[count] = FixedPoint.mulRound13(c.y.lo, rlo, rhi, CompactEngine.bit(signs, count));
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
    private static int sampleAndCommit(
            HaetaeParameterSet p, HaetaeSampler v, Context c, byte[] sk, int skOff, int counter) {
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
                gaussStream(v, c, i, null);
            }
            HyperballSampler.radius(p, c.sqsum, c.invsqrt, c.radius, c.startCube, c.startThreeHalves, c.scratch);
            long sq = 0;
            for (int j = 0; j < p.l; j++) {
                gaussStream(v, c, j, tmp);
                for (int n = 0; n < N; n++) {
                    int y = tmp[n];
                    sq += (long) y * y;
                    tmp[n] = Poly.fixRound(y);
                }
                if (j == 0) {
                    Packing.packLsb(c.lsb, 0, tmp);
                }
                Ntt.forward(tmp);
                CompactEngine.accumulateColumn(p, c, sk, skOff, j, tmp);
            }
            for (int i = 0; i < p.k; i++) {
                gaussStream(v, c, p.l + i, tmp);
                CompactEngine.rowToTime(c, i, c.aux);
                int o = i * N;
                for (int n = 0; n < N; n++) {
                    int y = tmp[n];
                    sq += (long) y * y;
                    int val = c.aux[n] + 2 * Poly.fixRound(y);
                    int parity = i == 0 ? (val ^ CompactEngine.bit(c.lsb, n)) & 1 : val & 1;
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
        return 2 * half + (i == 0 ? CompactEngine.bit(c.lsb, n) : 0);
    }

    /** (c s)_j into out: c itself for j = 0, else c * s1_{j-1}; s2_i for j = l + i. Uses tmp. */
    private static void challengeTimesSecret(HaetaeParameterSet p, Context c, byte[] sk, int skOff, int j, int[] out) {
        if (j == 0) {
            for (int n = 0; n < N; n++) {
                out[n] = CompactEngine.bit(c.cbits, n);
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
            c.tmp[n] = CompactEngine.bit(c.cbits, n);
        }
        Ntt.forward(c.tmp);
        for (int n = 0; n < N; n++) {
            out[n] = Reduce.montgomery((long) c.tmp[n] * out[n]);
        }
        Ntt.inverseToMont(out);
    }

    /**
     * SignInternal, streamed: the same signature as {@link FastEngine#sign} into
     * {@code sig[sigOff..sigOff + p.sigBytes)}. Wipes the context afterwards.
     */
    static void sign(
            HaetaeParameterSet p,
            HaetaeSampler v,
            Context c,
            byte[] sk,
            int skOff,
            byte[] msg,
            int mOff,
            int mLen,
            byte[] context,
            int cOff,
            int cLen,
            byte[] rnd,
            int rndOff,
            byte[] sig,
            int sigOff) {
        try {
            Keccak xof = c.xof;
            xof.initShake256().absorb(sk, skOff, p.pkBytes).absorbByte(cLen);
            if (cLen > 0) {
                xof.absorb(context, cOff, cLen);
            }
            xof.absorb(msg, mOff, mLen).squeeze(c.mu, 0, CRHBYTES);
            int keyOff = skOff + p.skBytes - SEEDBYTES;
            xof.initShake256()
                    .absorb(sk, keyOff, SEEDBYTES)
                    .absorb(rnd, rndOff, SEEDBYTES)
                    .absorb(c.mu, 0, CRHBYTES)
                    .squeeze(c.seed, 0, CRHBYTES);
            int counter = 0;
            while (true) {
                counter = sampleAndCommit(p, v, c, sk, skOff, counter);
                // challenge: the transcript is hashed straight from the stored rows
                xof.initShake256();
                for (int i = 0; i < p.k; i++) {
                    for (int n = 0; n < N; n++) {
                        c.tmp[n] = Poly.highbitsHint(row(c, i, n), p);
                    }
                    CompactEngine.absorbHighbitsSlot(p, xof, c.tmp);
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
    private static boolean responseAndEncode(
            HaetaeParameterSet p, HaetaeSampler v, Context c, byte[] sk, int skOff, byte[] sig, int sigOff) {
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
            gaussStream(v, c, j, y);
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
}
