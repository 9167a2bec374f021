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

    private VectorKeccak() {
    }

    private static LongVector load(long[] s, int lane) {
        return LongVector.fromArray(S, s, lane * W);
    }

    /** Applies Keccak-f[1600] to each of the W interleaved states in {@code s} (length 25 * W). */
    static void permute(long[] s) {
        LongVector aba = load(s, 0), abe = load(s, 1), abi = load(s, 2), abo = load(s, 3), abu = load(s, 4);
        LongVector aga = load(s, 5), age = load(s, 6), agi = load(s, 7), ago = load(s, 8), agu = load(s, 9);
        LongVector aka = load(s, 10), ake = load(s, 11), aki = load(s, 12), ako = load(s, 13), aku = load(s, 14);
        LongVector ama = load(s, 15), ame = load(s, 16), ami = load(s, 17), amo = load(s, 18), amu = load(s, 19);
        LongVector asa = load(s, 20), ase = load(s, 21), asi = load(s, 22), aso = load(s, 23), asu = load(s, 24);
        for (int round = 0; round < 24; round++) {
            LongVector ca = aba.lanewise(XOR, aga).lanewise(XOR, aka).lanewise(XOR, ama).lanewise(XOR, asa);
            LongVector ce = abe.lanewise(XOR, age).lanewise(XOR, ake).lanewise(XOR, ame).lanewise(XOR, ase);
            LongVector ci = abi.lanewise(XOR, agi).lanewise(XOR, aki).lanewise(XOR, ami).lanewise(XOR, asi);
            LongVector co = abo.lanewise(XOR, ago).lanewise(XOR, ako).lanewise(XOR, amo).lanewise(XOR, aso);
            LongVector cu = abu.lanewise(XOR, agu).lanewise(XOR, aku).lanewise(XOR, amu).lanewise(XOR, asu);
            LongVector da = cu.lanewise(XOR, ce.lanewise(ROL, 1));
            LongVector de = ca.lanewise(XOR, ci.lanewise(ROL, 1));
            LongVector di = ce.lanewise(XOR, co.lanewise(ROL, 1));
            LongVector dO = ci.lanewise(XOR, cu.lanewise(ROL, 1));
            LongVector du = co.lanewise(XOR, ca.lanewise(ROL, 1));

            LongVector b0 = aba.lanewise(XOR, da);
            LongVector b1 = age.lanewise(XOR, de).lanewise(ROL, 44);
            LongVector b2 = aki.lanewise(XOR, di).lanewise(ROL, 43);
            LongVector b3 = amo.lanewise(XOR, dO).lanewise(ROL, 21);
            LongVector b4 = asu.lanewise(XOR, du).lanewise(ROL, 14);
            LongVector eba = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1)).lanewise(XOR, Keccak.RC[round]);
            LongVector ebe = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            LongVector ebi = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            LongVector ebo = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            LongVector ebu = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));

            b0 = abo.lanewise(XOR, dO).lanewise(ROL, 28);
            b1 = agu.lanewise(XOR, du).lanewise(ROL, 20);
            b2 = aka.lanewise(XOR, da).lanewise(ROL, 3);
            b3 = ame.lanewise(XOR, de).lanewise(ROL, 45);
            b4 = asi.lanewise(XOR, di).lanewise(ROL, 61);
            LongVector ega = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            LongVector ege = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            LongVector egi = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            LongVector ego = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            LongVector egu = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));

            b0 = abe.lanewise(XOR, de).lanewise(ROL, 1);
            b1 = agi.lanewise(XOR, di).lanewise(ROL, 6);
            b2 = ako.lanewise(XOR, dO).lanewise(ROL, 25);
            b3 = amu.lanewise(XOR, du).lanewise(ROL, 8);
            b4 = asa.lanewise(XOR, da).lanewise(ROL, 18);
            LongVector eka = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            LongVector eke = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            LongVector eki = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            LongVector eko = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            LongVector eku = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));

            b0 = abu.lanewise(XOR, du).lanewise(ROL, 27);
            b1 = aga.lanewise(XOR, da).lanewise(ROL, 36);
            b2 = ake.lanewise(XOR, de).lanewise(ROL, 10);
            b3 = ami.lanewise(XOR, di).lanewise(ROL, 15);
            b4 = aso.lanewise(XOR, dO).lanewise(ROL, 56);
            LongVector ema = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            LongVector eme = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            LongVector emi = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            LongVector emo = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            LongVector emu = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));

            b0 = abi.lanewise(XOR, di).lanewise(ROL, 62);
            b1 = ago.lanewise(XOR, dO).lanewise(ROL, 55);
            b2 = aku.lanewise(XOR, du).lanewise(ROL, 39);
            b3 = ama.lanewise(XOR, da).lanewise(ROL, 41);
            b4 = ase.lanewise(XOR, de).lanewise(ROL, 2);
            LongVector esa = b0.lanewise(XOR, b2.lanewise(AND_NOT, b1));
            LongVector ese = b1.lanewise(XOR, b3.lanewise(AND_NOT, b2));
            LongVector esi = b2.lanewise(XOR, b4.lanewise(AND_NOT, b3));
            LongVector eso = b3.lanewise(XOR, b0.lanewise(AND_NOT, b4));
            LongVector esu = b4.lanewise(XOR, b1.lanewise(AND_NOT, b0));

            aba = eba; abe = ebe; abi = ebi; abo = ebo; abu = ebu;
            aga = ega; age = ege; agi = egi; ago = ego; agu = egu;
            aka = eka; ake = eke; aki = eki; ako = eko; aku = eku;
            ama = ema; ame = eme; ami = emi; amo = emo; amu = emu;
            asa = esa; ase = ese; asi = esi; aso = eso; asu = esu;
        }
        aba.intoArray(s, 0 * W); abe.intoArray(s, 1 * W); abi.intoArray(s, 2 * W); abo.intoArray(s, 3 * W); abu.intoArray(s, 4 * W);
        aga.intoArray(s, 5 * W); age.intoArray(s, 6 * W); agi.intoArray(s, 7 * W); ago.intoArray(s, 8 * W); agu.intoArray(s, 9 * W);
        aka.intoArray(s, 10 * W); ake.intoArray(s, 11 * W); aki.intoArray(s, 12 * W); ako.intoArray(s, 13 * W); aku.intoArray(s, 14 * W);
        ama.intoArray(s, 15 * W); ame.intoArray(s, 16 * W); ami.intoArray(s, 17 * W); amo.intoArray(s, 18 * W); amu.intoArray(s, 19 * W);
        asa.intoArray(s, 20 * W); ase.intoArray(s, 21 * W); asi.intoArray(s, 22 * W); aso.intoArray(s, 23 * W); asu.intoArray(s, 24 * W);
    }
}
