package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.CRHBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYETA_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

import dev.pqsign.haetae.CompactEngine.Context;
import java.util.Arrays;

/**
 * KeyGen of the compact engine: s1 and s2 are regenerated from sigma whenever they are needed, the
 * matrix A is streamed from SHAKE128 entry by entry, and the singular-value check accumulates its FFT
 * bins in one polynomial (see {@link CompactEngine} for the streaming design).
 */
final class CompactKeyGen {
    private CompactKeyGen() {}

    /** KeyGenInternal from a 32-byte seed: the same (pk, sk) as {@link FastEngine#keyPair}. Wipes the context. */
    static void keyPair(
            HaetaeParameterSet p, Context c, byte[] seed, int seedOff, byte[] pk, int pkOff, byte[] sk, int skOff) {
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
                                CompactEngine.setStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
                            } else {
                                CompactEngine.accStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
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
                            CompactEngine.setStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
                        } else {
                            CompactEngine.accStreamedA(c, buf, 0, i, j, c.acc, c.tmp, 1);
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
}
