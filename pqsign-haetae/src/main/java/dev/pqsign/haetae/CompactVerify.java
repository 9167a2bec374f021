package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYC_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

import dev.pqsign.haetae.CompactEngine.Context;

/**
 * Verify of the compact engine: the rANS streams are decoded once, straight from the signature, z1
 * one component (column of A) at a time and h one row at a time (see {@link CompactEngine}).
 */
final class CompactVerify {
    private CompactVerify() {}

    /** VerifyInternal: the same verdict as {@link FastEngine#verify}; never throws on malformed signatures. */
    static boolean verify(
            HaetaeParameterSet p,
            Context c,
            byte[] pk,
            int pkOff,
            byte[] msg,
            int mOff,
            int mLen,
            byte[] context,
            int cOff,
            int cLen,
            byte[] sig,
            int sigOff,
            int sigLen) {
        try {
            return verifyInternal(p, c, pk, pkOff, msg, mOff, mLen, context, cOff, cLen, sig, sigOff, sigLen);
        } finally {
            c.dec.release();
            c.dec2.release();
        }
    }

    private static boolean verifyInternal(
            HaetaeParameterSet p,
            Context c,
            byte[] pk,
            int pkOff,
            byte[] msg,
            int mOff,
            int mLen,
            byte[] context,
            int cOff,
            int cLen,
            byte[] sig,
            int sigOff,
            int sigLen) {
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
            CompactEngine.accumulateColumn(p, c, pk, pkOff, j, z);
        }
        if (!dec.finish()) {
            return false;
        }

        // rows: w = HighBits(A z1 - q c j) + h, ||z2||^2, transcript
        Rans.Table tH = Rans.hTable(p);
        int cut = (p.mH - 1) >> 1;
        xof.initShake256();
        for (int i = 0; i < p.k; i++) {
            CompactEngine.rowToTime(c, i, z);
            for (int n = 0; n < N; n++) {
                int val = z[n];
                int wp = i == 0 ? CompactEngine.bit(c.lsb, n) : 0;
                int parity = i == 0 ? (val ^ wp) & 1 : val & 1;
                val = Reduce.freeze2q(val + (Q & -parity));
                int s = hdec.next(tH);
                int w = Poly.highbitsHint(val, p) + (cut < s ? s + p.offsetH : s);
                w -= ~((w - p.hintModulus) >> 31) & p.hintModulus;
                z[n] = w;
                int z2 = Reduce.reduce2q(w * p.alphaHint - val + wp) >> 1;
                sqnorm += (long) z2 * z2;
            }
            CompactEngine.absorbHighbitsSlot(p, xof, z);
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
