package dev.pqsign.haetae;

/**
 * The 83-bit cumulative distribution table of the half-Gaussian D_{Z,16} (rho(k) = exp(-k^2/512))
 * from HAETAE v1.2.0: entry k is floor(CDF(k) * 2^83), split into the upper 19 bits (only the first
 * 76 entries differ from 0x7ffff) and the lower 64 bits. Specification data.
 */
final class Cdt83 {
    static final int LEN = 166;
    static final int HI_LEN = 76;
    static final int HI_SATURATED = 0x7ffff;

    static final int[] HI = {
        0x063a5, 0x0c718, 0x129f6, 0x18bdf, 0x1ec73, 0x24b59, 0x2a83a, 0x302c6,
        0x35ab6, 0x3afc7, 0x401be, 0x4506a, 0x49ba1, 0x4e343, 0x52736, 0x5676c,
        0x5a3dc, 0x5dc86, 0x61172, 0x642ad, 0x6704c, 0x69a68, 0x6c120, 0x6e496,
        0x704ef, 0x72255, 0x73cf1, 0x754f0, 0x76a7c, 0x77dc4, 0x78ef2, 0x79e32,
        0x7abaf, 0x7b78f, 0x7c1fb, 0x7cb17, 0x7d304, 0x7d9e4, 0x7dfd4, 0x7e4f0,
        0x7e950, 0x7ed0d, 0x7f03b, 0x7f2ec, 0x7f531, 0x7f71a, 0x7f8b3, 0x7fa08,
        0x7fb24, 0x7fc0e, 0x7fccf, 0x7fd6e, 0x7fdf0, 0x7fe5a, 0x7feaf, 0x7fef5,
        0x7ff2c, 0x7ff59, 0x7ff7d, 0x7ff99, 0x7ffb0, 0x7ffc2, 0x7ffd0, 0x7ffdb,
        0x7ffe3, 0x7ffea, 0x7ffef, 0x7fff3, 0x7fff6, 0x7fff8, 0x7fffa, 0x7fffb,
        0x7fffd, 0x7fffd, 0x7fffe, 0x7fffe,
    };

    static final long[] LO = {
        0x0aa572bc88db1e28L, 0x4f3820e69064b2eeL, 0xd68dc44dd1418704L, 0x6587a04d9b97b1ddL,
        0x9b843ce0a65d0050L, 0x02b62cb869003e7dL, 0x0d44f194f8bf43c6L, 0xfaa0c7acb211b4dbL,
        0xa11387f7f524be80L, 0x18526ca6f2ceb77fL, 0x42a01a906b7dad17L, 0x32e5337a1966b9a7L,
        0x6f00f7ac9735f58aL, 0x0e6c48f40642ba60L, 0xb6192fa1afb5e4ecL, 0x7339dba8ffc2fcf5L,
        0x7746cbe1ac90c9ebL, 0xb83004341d78466fL, 0x781dcca572bb3d8aL, 0xb880376cc82a5384L,
        0x9c68a5c477dfecb9L, 0xbe45ceb02a25fef3L, 0x7d1a8ccd208dbaa1L, 0x452c002b9085e7dbL,
        0xd7ef361c5551378dL, 0x96b4ff49d9e5a8bbL, 0xd337c94ede732d83L, 0x28c75b8d3fe83c38L,
        0xe05d7bd130fe20e0L, 0x6170e60b76d85108L, 0xb0e59892414901ffL, 0xff05cf70b911f3deL,
        0x4501460fdfd508c9L, 0xf20b1303a2a54906L, 0xa7d3badbeb04b20cL, 0x05ce666b741b666dL,
        0x826e689fded20430L, 0x5155d1354fcf6ff6L, 0x55469226a1d318f6L, 0x1c8d3820cfa9cabcL,
        0xe68d83bbf700fc40L, 0xb1152d8944042803L, 0x4c1e741aabe53700L, 0x72b94c56e0f9a967L,
        0xe7e5a80a79e4539cL, 0x9641c5d11feb4d12L, 0xb18b71598b73dde0L, 0xd9112fb5a7904d7eL,
        0x3a4f57cbefabc820L, 0xb314025fd5022976L, 0xf2a2b228aab1981bL, 0x996ce1e60378cd98L,
        0x570ec64b38e3ca90L, 0x0657269615dcd7c6L, 0xc7360038bdc85312L, 0x167fa02a57a8ae1aL,
        0xe380fab2ea9b2befL, 0xa36e6abd6509b5a2L, 0x62bfcf1d6ba81c37L, 0xd4946e8bf96caa93L,
        0x603e6262ea8cda2dL, 0x2d18c8b333ae9203L, 0x2ccdedb5a7718d61L, 0x24333ecab8497c0aL,
        0xb2e06eb33bf2b7d9L, 0x59a5f6c550dfe7e2L, 0x800548f3927f906eL, 0x78cac146b573bc40L,
        0x85e6dadec4b6aff1L, 0xdba17dfa17def8ecL, 0xa33f84d06ce20a93L, 0xfd2fe967c5186746L,
        0x02d37ecd7e9b180fL, 0xc7efafa8bd33f0bbL, 0x5bda826341e791ccL, 0xca6c1c6ce045599fL,
        0x1cc02c0faa9a526eL, 0x59d002901a4a4e52L, 0x86ecbd139ce07540L, 0xa81f9f15ffb47f4cL,
        0xc075b17481687af0L, 0xd23ad13e68301c65L, 0xdf27955fae1c84cbL, 0xe884cdb07368c266L,
        0xef46d4f897fc83f6L, 0xf4227e46663ec049L, 0xf79d091c1b5aff07L, 0xfa183c533c3890a6L,
        0xfbdb8a602066b0f2L, 0xfd1af06df3db86b7L, 0xfdfc1a818587e2aaL, 0xfe9a37a348ac2a93L,
        0xff08d0797970dbfeL, 0xff55df73fd7a00bcL, 0xff8b5aa573bca5ceL, 0xffb053c109f51681L,
        0xffc9c9bd39a036ecL, 0xffdb40bd4ee1f846L, 0xffe72fa859b20a4aL, 0xffef4edda93d266dL,
        0xfff4d07a9fb0d4e0L, 0xfff88868ef31b1ccL, 0xfffb08c16a3f5f0cL, 0xfffcb5d30be5cabfL,
        0xfffdd43465d95fe6L, 0xfffe929a538ad2faL, 0xffff10b1c2119732L, 0xffff63df8795a2c9L,
        0xffff9a87a0a9f2afL, 0xffffbe4df6f0f4a9L, 0xffffd5a10f204910L, 0xffffe4c6f1668b32L,
        0xffffee939680bfafL, 0xfffff4e4216290dbL, 0xfffff8f1c044613eL, 0xfffffb892dc2b174L,
        0xfffffd2fb4188608L, 0xfffffe3bc0a56ebaL, 0xfffffee523b218c6L, 0xffffff4fc31097e3L,
        0xffffff929d76dbebL, 0xffffffbc5e7c0350L, 0xffffffd6586c6684L, 0xffffffe6716865f7L,
        0xfffffff0613c76e2L, 0xfffffff67d62ab64L, 0xfffffffa3b6664c0L, 0xfffffffc83e13d66L,
        0xfffffffde713ef71L, 0xfffffffebe18936fL, 0xffffffff3fbfc997L, 0xffffffff8d9fa29aL,
        0xffffffffbc372590L, 0xffffffffd7fb7dfdL, 0xffffffffe87747f9L, 0xfffffffff2368b89L,
        0xfffffffff7f44d88L, 0xfffffffffb52a49bL, 0xfffffffffd4a9ffbL, 0xfffffffffe700579L,
        0xffffffffff1a287fL, 0xffffffffff7c6f06L, 0xffffffffffb4fa99L, 0xffffffffffd56300L,
        0xffffffffffe7e364L, 0xfffffffffff268d7L, 0xfffffffffff85e8eL, 0xfffffffffffbbb6fL,
        0xfffffffffffd9f49L, 0xfffffffffffeae2cL, 0xffffffffffff453dL, 0xffffffffffff9928L,
        0xffffffffffffc797L, 0xffffffffffffe12fL, 0xffffffffffffef3cL, 0xfffffffffffff6ebL,
        0xfffffffffffffb1bL, 0xfffffffffffffd60L, 0xfffffffffffffe9aL, 0xffffffffffffff43L,
        0xffffffffffffff9eL, 0xffffffffffffffceL, 0xffffffffffffffe7L, 0xfffffffffffffff4L,
        0xfffffffffffffffbL, 0xfffffffffffffffeL,
    };

    /** Bits 41..82 of every entry (42 bits), for the sampler's two-limb comparison. */
    static final long[] TOP42 = new long[LEN];
    /** Bits 0..40 of every entry. */
    static final long[] LOW41 = new long[LEN];

    static final long MASK41 = (1L << 41) - 1;
    /**
     * 2 * TOP42 for the sampler, padded to 168 entries (a multiple of 8 lanes) with 2^83 - 1, which no
     * 83-bit random value exceeds, so padding entries never count.
     */
    static final long[] TOP42X2 = new long[168];
    /** LOW41 padded like {@link #TOP42X2}. */
    static final long[] LOW41_PADDED = new long[168];

    static {
        for (int i = 0; i < LEN; i++) {
            long hi = i < HI_LEN ? HI[i] : HI_SATURATED;
            TOP42[i] = (hi << 23) | (LO[i] >>> 41);
            LOW41[i] = LO[i] & MASK41;
        }
        for (int i = 0; i < TOP42X2.length; i++) {
            TOP42X2[i] = 2 * (i < LEN ? TOP42[i] : (1L << 42) - 1);
            LOW41_PADDED[i] = i < LEN ? LOW41[i] : MASK41;
        }
    }

    private Cdt83() {}
}
