package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.CRHBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

/** Operations on single polynomials (int[256]): expansion from seeds, decompositions, the challenge. */
final class Poly {
    private Poly() {}

    /** Uniform polynomial mod q from SHAKE128(seed || nonce): rejection on 16-bit little-endian words. */
    static void uniform(int[] a, Keccak xof, byte[] seed, int seedOff, int nonce) {
        xof.initShake128().absorb(seed, seedOff, SEEDBYTES).absorbU16(nonce);
        int ctr = 0;
        while (ctr < N) {
            int t = xof.squeezeU16();
            if (t < Q) {
                a[ctr++] = t;
            }
        }
    }

    /** Coefficients in {-1, 0, 1} from SHAKE256(seed64 || nonce): five base-3 digits per byte below 243. */
    static void uniformEta(int[] a, Keccak xof, byte[] seed, int seedOff, int nonce) {
        xof.initShake256().absorb(seed, seedOff, CRHBYTES).absorbU16(nonce);
        int ctr = 0;
        while (ctr < N) {
            int t = xof.squeezeByte();
            if (t >= 243) {
                continue;
            }
            for (int d = 0; d < 5 && ctr < N; d++) {
                if (d > 0) {
                    t = (t * 171) >>> 9;
                }
                a[ctr++] = centeredMod3(t);
            }
        }
    }

    /** t mod 3 mapped to {0, 1, -1}. */
    private static int centeredMod3(int t) {
        int r = t % 3;
        return r == 2 ? -1 : r;
    }

    /** Computes c for modes 2 and 3 (weight tau) or 5 (balanced binary) from the transcript and mu. */
    static void challenge(int[] c, Keccak xof, HaetaeParameterSet p, byte[] transcript, byte[] mu) {
        xof.initShake256().absorb(transcript, 0, p.highbitsBytes).absorb(mu, 0, SEEDBYTES);
        challengeFromXof(c, xof, p);
    }

    /** Squeezes the challenge from an XOF that has absorbed transcript || mu (incremental hashing). */
    static void challengeFromXof(int[] c, Keccak xof, HaetaeParameterSet p) {
        if (p.k != 4) {
            java.util.Arrays.fill(c, 0);
            for (int i = N - p.tau; i < N; i++) {
                int b;
                do {
                    b = xof.squeezeByte();
                } while (b > i);
                c[i] = c[b];
                c[b] = 1;
            }
        } else {
            int hwt = 0;
            int first = 0;
            // 32 bytes; their weight decides whether to complement so that the weight is at most 128
            for (int i = 0; i < 32; i++) {
                int v = xof.squeezeByte();
                if (i == 0) {
                    first = v;
                }
                hwt += Integer.bitCount(v);
                for (int j = 0; j < 8; j++) {
                    c[8 * i + j] = (v >>> j) & 1;
                }
            }
            int flip = hwt > 128 ? 1 : hwt < 128 ? 0 : (first & 1);
            if (flip != 0) {
                for (int i = 0; i < N; i++) {
                    c[i] ^= 1;
                }
            }
        }
    }

    /** Next uniform coefficient mod q from a SHAKE128 stream (16-bit little-endian rejection). */
    static int nextUniform(Keccak xof) {
        while (true) {
            int t = xof.squeezeU16();
            if (t < Q) {
                return t;
            }
        }
    }

    /** HighBits for the hint: round(r / alpha_h) with the top value folded to 0. */
    static int highbitsHint(int r, HaetaeParameterSet p) {
        int hb = (r + (p.alphaHint >> 1)) >> p.logAlphaHint;
        int edge = (p.hintModulus - (hb + 1)) >> 31;
        return hb - (p.hintModulus & edge);
    }

    /** High part of r = hb * 256 + lb with -128 &lt;= lb &lt; 128. */
    static int highbitsZ1(int r) {
        return (r + 128) >> 8;
    }

    /** Low part of r = hb * 256 + lb with -128 &lt;= lb &lt; 128. */
    static int lowbitsZ1(int r) {
        int lb = r & 255;
        int center = (128 - (lb + 1)) >> 31;
        return lb - (256 & center);
    }

    /** Rounds a fixed-point (13 fractional bits) value to the nearest integer, ties up. */
    static int fixRound(int v) {
        return (v + HaetaeParameterSet.LN / 2) >> HaetaeParameterSet.LNBITS;
    }
}
