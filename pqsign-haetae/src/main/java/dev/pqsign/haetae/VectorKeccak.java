package dev.pqsign.haetae;

import static jdk.incubator.vector.VectorOperators.AND_NOT;
import static jdk.incubator.vector.VectorOperators.ROL;
import static jdk.incubator.vector.VectorOperators.XOR;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Keccak-f[1600] on {@link #W} independent states at once with the incubating Vector API: lane i of
 * state j is {@code s[i * W + j]}, so each of the 25 lanes is one vector of W 64-bit words (8 with
 * AVX-512, 4 with AVX2). Same round structure as the scalar {@code Keccak} permutation.
 *
 * <p>Only {@link VectorSupport} may load this class, and only after checking that the
 * {@code jdk.incubator.vector} module is in the boot layer: without it, linking this class fails.
 */
final class VectorKeccak {
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    /** States per call (vector length in 64-bit lanes). */
    static final int W = S.length();

    private VectorKeccak() {}

    /** Length of the array {@link #permute} works on: the interleaved states and as much scratch. */
    static final int STATE_LONGS = 2 * 25 * W;

    /**
     * Applies Keccak-f[1600] to each of the W interleaved states in {@code s[0 .. 25 * W)}; the upper
     * half of {@code s} (length {@link #STATE_LONGS}) is scratch.
     *
     * <p>Why the state goes through memory: with all 25 lanes held in vector variables, C2 runs out of
     * the 32 vector registers and keeps most of the state in 64-byte stack spill slots, and the very
     * same compiled method ran at two speeds depending on its caller (the two "levels" of FAST signing;
     * likely because a frame is only 16-byte aligned, so depending on the caller every spill may
     * straddle two cache lines). Here each round reads the 25 lanes from one half of {@code s} and
     * writes its result to the other half, one output plane (five lanes) at a time, so only D, the five
     * lanes of a plane and the next round's column parities are live, and the speed no longer depends
     * on the caller. The five planes are written out because their rotation amounts must be constants
     * (one rotate instruction each): a loop over the planes with the amounts and sources from tables
     * and D in memory was slower. The measurements behind this are in docs/measurements/haetae.md
     * ("The two speed levels, found and removed").
     */
    static void permute(long[] s) {
        LongVector c0 = column(s, 0), c1 = column(s, 1), c2 = column(s, 2), c3 = column(s, 3), c4 = column(s, 4);
        int src = 0;
        int dst = 25 * W;
        for (int round = 0; round < 24; round++) {
            // theta: D from the column parities of the state being read
            LongVector d0 = c4.lanewise(XOR, c1.lanewise(ROL, 1)), d1 = c0.lanewise(XOR, c2.lanewise(ROL, 1));
            LongVector d2 = c1.lanewise(XOR, c3.lanewise(ROL, 1)), d3 = c2.lanewise(XOR, c4.lanewise(ROL, 1));
            LongVector d4 = c3.lanewise(XOR, c0.lanewise(ROL, 1));
            LongVector b0, b1, b2, b3, b4, e;
            // output plane 0: rho and pi gather its five lanes, chi combines them
            b0 = LongVector.fromArray(S, s, src + 0 * W).lanewise(XOR, d0); // aba
            b1 = LongVector.fromArray(S, s, src + 6 * W).lanewise(XOR, d1).lanewise(ROL, 44); // age
            b2 = LongVector.fromArray(S, s, src + 12 * W).lanewise(XOR, d2).lanewise(ROL, 43); // aki
            b3 = LongVector.fromArray(S, s, src + 18 * W).lanewise(XOR, d3).lanewise(ROL, 21); // amo
            b4 = LongVector.fromArray(S, s, src + 24 * W).lanewise(XOR, d4).lanewise(ROL, 14); // asu
            e = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1)).lanewise(XOR, Keccak.RC[round]);
            e.intoArray(s, dst + 0 * W);
            c0 = e;
            e = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            e.intoArray(s, dst + 1 * W);
            c1 = e;
            e = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            e.intoArray(s, dst + 2 * W);
            c2 = e;
            e = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            e.intoArray(s, dst + 3 * W);
            c3 = e;
            e = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));
            e.intoArray(s, dst + 4 * W);
            c4 = e;
            // output plane 1: rho and pi gather its five lanes, chi combines them
            b0 = LongVector.fromArray(S, s, src + 3 * W).lanewise(XOR, d3).lanewise(ROL, 28); // abo
            b1 = LongVector.fromArray(S, s, src + 9 * W).lanewise(XOR, d4).lanewise(ROL, 20); // agu
            b2 = LongVector.fromArray(S, s, src + 10 * W).lanewise(XOR, d0).lanewise(ROL, 3); // aka
            b3 = LongVector.fromArray(S, s, src + 16 * W).lanewise(XOR, d1).lanewise(ROL, 45); // ame
            b4 = LongVector.fromArray(S, s, src + 22 * W).lanewise(XOR, d2).lanewise(ROL, 61); // asi
            e = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            e.intoArray(s, dst + 5 * W);
            c0 = c0.lanewise(XOR, e);
            e = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            e.intoArray(s, dst + 6 * W);
            c1 = c1.lanewise(XOR, e);
            e = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            e.intoArray(s, dst + 7 * W);
            c2 = c2.lanewise(XOR, e);
            e = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            e.intoArray(s, dst + 8 * W);
            c3 = c3.lanewise(XOR, e);
            e = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));
            e.intoArray(s, dst + 9 * W);
            c4 = c4.lanewise(XOR, e);
            // output plane 2: rho and pi gather its five lanes, chi combines them
            b0 = LongVector.fromArray(S, s, src + 1 * W).lanewise(XOR, d1).lanewise(ROL, 1); // abe
            b1 = LongVector.fromArray(S, s, src + 7 * W).lanewise(XOR, d2).lanewise(ROL, 6); // agi
            b2 = LongVector.fromArray(S, s, src + 13 * W).lanewise(XOR, d3).lanewise(ROL, 25); // ako
            b3 = LongVector.fromArray(S, s, src + 19 * W).lanewise(XOR, d4).lanewise(ROL, 8); // amu
            b4 = LongVector.fromArray(S, s, src + 20 * W).lanewise(XOR, d0).lanewise(ROL, 18); // asa
            e = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            e.intoArray(s, dst + 10 * W);
            c0 = c0.lanewise(XOR, e);
            e = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            e.intoArray(s, dst + 11 * W);
            c1 = c1.lanewise(XOR, e);
            e = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            e.intoArray(s, dst + 12 * W);
            c2 = c2.lanewise(XOR, e);
            e = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            e.intoArray(s, dst + 13 * W);
            c3 = c3.lanewise(XOR, e);
            e = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));
            e.intoArray(s, dst + 14 * W);
            c4 = c4.lanewise(XOR, e);
            // output plane 3: rho and pi gather its five lanes, chi combines them
            b0 = LongVector.fromArray(S, s, src + 4 * W).lanewise(XOR, d4).lanewise(ROL, 27); // abu
            b1 = LongVector.fromArray(S, s, src + 5 * W).lanewise(XOR, d0).lanewise(ROL, 36); // aga
            b2 = LongVector.fromArray(S, s, src + 11 * W).lanewise(XOR, d1).lanewise(ROL, 10); // ake
            b3 = LongVector.fromArray(S, s, src + 17 * W).lanewise(XOR, d2).lanewise(ROL, 15); // ami
            b4 = LongVector.fromArray(S, s, src + 23 * W).lanewise(XOR, d3).lanewise(ROL, 56); // aso
            e = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            e.intoArray(s, dst + 15 * W);
            c0 = c0.lanewise(XOR, e);
            e = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            e.intoArray(s, dst + 16 * W);
            c1 = c1.lanewise(XOR, e);
            e = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            e.intoArray(s, dst + 17 * W);
            c2 = c2.lanewise(XOR, e);
            e = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            e.intoArray(s, dst + 18 * W);
            c3 = c3.lanewise(XOR, e);
            e = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));
            e.intoArray(s, dst + 19 * W);
            c4 = c4.lanewise(XOR, e);
            // output plane 4: rho and pi gather its five lanes, chi combines them
            b0 = LongVector.fromArray(S, s, src + 2 * W).lanewise(XOR, d2).lanewise(ROL, 62); // abi
            b1 = LongVector.fromArray(S, s, src + 8 * W).lanewise(XOR, d3).lanewise(ROL, 55); // ago
            b2 = LongVector.fromArray(S, s, src + 14 * W).lanewise(XOR, d4).lanewise(ROL, 39); // aku
            b3 = LongVector.fromArray(S, s, src + 15 * W).lanewise(XOR, d0).lanewise(ROL, 41); // ama
            b4 = LongVector.fromArray(S, s, src + 21 * W).lanewise(XOR, d1).lanewise(ROL, 2); // ase
            e = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            e.intoArray(s, dst + 20 * W);
            c0 = c0.lanewise(XOR, e);
            e = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            e.intoArray(s, dst + 21 * W);
            c1 = c1.lanewise(XOR, e);
            e = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            e.intoArray(s, dst + 22 * W);
            c2 = c2.lanewise(XOR, e);
            e = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            e.intoArray(s, dst + 23 * W);
            c3 = c3.lanewise(XOR, e);
            e = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));
            e.intoArray(s, dst + 24 * W);
            c4 = c4.lanewise(XOR, e);

            int t = src;
            src = dst;
            dst = t;
        }
    }

    /** Parity of column x (lanes x, x + 5, ..., x + 20) of the states in s. */
    private static LongVector column(long[] s, int x) {
        return LongVector.fromArray(S, s, x * W)
                .lanewise(XOR, LongVector.fromArray(S, s, (x + 5) * W))
                .lanewise(XOR, LongVector.fromArray(S, s, (x + 10) * W))
                .lanewise(XOR, LongVector.fromArray(S, s, (x + 15) * W))
                .lanewise(XOR, LongVector.fromArray(S, s, (x + 20) * W));
    }
}
