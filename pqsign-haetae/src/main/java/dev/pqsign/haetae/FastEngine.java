package dev.pqsign.haetae;

import static dev.pqsign.haetae.HaetaeParameterSet.CRHBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.LN;
import static dev.pqsign.haetae.HaetaeParameterSet.N;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYC_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.POLYETA_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.POLY_HIGHBITS_PACKEDBYTES;
import static dev.pqsign.haetae.HaetaeParameterSet.Q;
import static dev.pqsign.haetae.HaetaeParameterSet.SEEDBYTES;

import java.util.Arrays;

/**
 * The fast engine: whole vectors in memory, same data flow as the reference (KeyGenInternal,
 * SignInternal, VerifyInternal). All state lives in a {@link HaetaeContext}.
 */
final class FastEngine {
    private FastEngine() {}

    // ---------------------------------------------------------------- key generation

    /** Derives (pk, sk) from a 32-byte seed into the given buffers. */
    static void keyPair(HaetaeContext ctx, byte[] seed, int seedOff, byte[] pk, int pkOff, byte[] sk, int skOff) {
        HaetaeParameterSet p = ctx.p;
        Keccak xof = ctx.xof;
        byte[] buf = ctx.rhoSigmaKey;
        xof.initShake256().absorb(seed, seedOff, SEEDBYTES).squeeze(buf, 0, buf.length);
        // buf = rho (32) || sigma (64) || key (32)
        for (int i = 0; i < p.k; i++) {
            for (int j = 0; j < p.m; j++) {
                Poly.uniform(ctx.a0[i][j], xof, buf, 0, (i << 8) + j);
            }
        }
        int[][] b = ctx.vk;
        int[][] s1hat = ctx.y1; // l >= m rows, reuse as scratch
        int counter = 0;
        if (p.roundedKey()) {
            int[][] avec = ctx.vk2;
            for (int i = 0; i < p.k; i++) {
                Poly.uniform(avec[i], xof, buf, 0, (p.k << 8) + p.m + i);
            }
            while (true) {
                expandS(ctx, buf, SEEDBYTES, counter);
                counter += p.m + p.k;
                for (int j = 0; j < p.m; j++) {
                    System.arraycopy(ctx.s1[j], 0, s1hat[j], 0, N);
                    Ntt.forward(s1hat[j]);
                }
                for (int i = 0; i < p.k; i++) {
                    int[] bi = b[i];
                    Ntt.pointwise(bi, ctx.a0[i][0], s1hat[0]);
                    for (int j = 1; j < p.m; j++) {
                        Ntt.pointwiseAcc(bi, ctx.a0[i][j], s1hat[j]);
                    }
                    Ntt.inverseToMont(bi);
                    int[] s2i = ctx.s2[i];
                    int[] ai = avec[i];
                    for (int n = 0; n < N; n++) {
                        int v = Reduce.freeze(bi[n] + s2i[n] + ai[n]);
                        // round off one bit: v = 2 b1 + b0 with b0 in {-1, 0, 1}
                        int b0 = v & 1;
                        b0 -= ((v >> 1) & b0) << 1;
                        bi[n] = (v - b0) >> 1;
                        s2i[n] -= b0;
                    }
                }
                long sv = Fft.skSingularValue(p, ctx.s1, ctx.s2, ctx.fftRe, ctx.fftIm, ctx.fftSum, ctx.fftBest);
                if (!(sv > p.gamma * p.gamma * N)) {
                    break;
                }
            }
        } else {
            int[][] s2hat = ctx.vk2;
            while (true) {
                expandS(ctx, buf, SEEDBYTES, counter);
                counter += p.m + p.k;
                long sv = Fft.skSingularValue(p, ctx.s1, ctx.s2, ctx.fftRe, ctx.fftIm, ctx.fftSum, ctx.fftBest);
                if (!(sv > p.gamma * p.gamma * N)) {
                    break;
                }
            }
            for (int j = 0; j < p.m; j++) {
                System.arraycopy(ctx.s1[j], 0, s1hat[j], 0, N);
                Ntt.forward(s1hat[j]);
            }
            for (int i = 0; i < p.k; i++) {
                System.arraycopy(ctx.s2[i], 0, s2hat[i], 0, N);
                Ntt.forward(s2hat[i]);
                int[] bi = b[i];
                Ntt.pointwise(bi, ctx.a0[i][0], s1hat[0]);
                for (int j = 1; j < p.m; j++) {
                    Ntt.pointwiseAcc(bi, ctx.a0[i][j], s1hat[j]);
                }
                for (int n = 0; n < N; n++) {
                    int v = Reduce.montgomery((long) bi[n] * Reduce.MONTSQ) + s2hat[i][n];
                    v = Reduce.montgomery((long) v * Reduce.MONT * -2);
                    bi[n] = Reduce.caddq(v);
                }
            }
        }
        // pk = rho || b ; sk = pk || s1 || s2 || key
        System.arraycopy(buf, 0, pk, pkOff, SEEDBYTES);
        for (int i = 0; i < p.k; i++) {
            Packing.packPolyQ(pk, pkOff + SEEDBYTES + i * p.polyQPackedBytes, b[i], p.roundedKey());
        }
        System.arraycopy(pk, pkOff, sk, skOff, p.pkBytes);
        int o = skOff + p.pkBytes;
        for (int j = 0; j < p.m; j++) {
            Packing.packEta(sk, o, ctx.s1[j]);
            o += POLYETA_PACKEDBYTES;
        }
        for (int i = 0; i < p.k; i++) {
            if (p.roundedKey()) {
                Packing.pack2Eta(sk, o, ctx.s2[i]);
            } else {
                Packing.packEta(sk, o, ctx.s2[i]);
            }
            o += p.poly2EtaPackedBytes;
        }
        System.arraycopy(buf, SEEDBYTES + CRHBYTES, sk, o, SEEDBYTES);
        ctx.aValid = false;
        ctx.wipe();
    }

    private static void expandS(HaetaeContext ctx, byte[] seed, int off, int nonce) {
        HaetaeParameterSet p = ctx.p;
        int n = nonce;
        for (int j = 0; j < p.m; j++) {
            Poly.uniformEta(ctx.s1[j], ctx.xof, seed, off, n++ & 0xffff);
        }
        for (int i = 0; i < p.k; i++) {
            Poly.uniformEta(ctx.s2[i], ctx.xof, seed, off, n++ & 0xffff);
        }
    }

    // ---------------------------------------------------------------- public matrix

    /** Expands A1 = (2(a - 2b) | 2 A0) (modes 2/3) or (NTT(-2b) | 2 A0) (mode 5), NTT domain; cached per key. */
    static void expandPublic(HaetaeContext ctx, byte[] pk, int pkOff) {
        HaetaeParameterSet p = ctx.p;
        if (ctx.aValid && Arrays.equals(ctx.aKey, 0, p.pkBytes, pk, pkOff, pkOff + p.pkBytes)) {
            return;
        }
        ctx.aValid = false;
        Keccak xof = ctx.xof;
        for (int i = 0; i < p.k; i++) {
            for (int j = 0; j < p.m; j++) {
                int[] aij = ctx.a[i][j + 1];
                Poly.uniform(aij, xof, pk, pkOff, (i << 8) + j);
                for (int n = 0; n < N; n++) {
                    aij[n] *= 2;
                }
            }
        }
        for (int i = 0; i < p.k; i++) {
            int[] ai0 = ctx.a[i][0];
            Packing.unpackPolyQ(ai0, pk, pkOff + SEEDBYTES + i * p.polyQPackedBytes, p.roundedKey());
            if (p.roundedKey()) {
                int[] av = ctx.t0;
                Poly.uniform(av, xof, pk, pkOff, (p.k << 8) + p.m + i);
                for (int n = 0; n < N; n++) {
                    ai0[n] = 2 * (av[n] - 2 * ai0[n]);
                }
                Ntt.forward(ai0);
            }
        }
        System.arraycopy(pk, pkOff, ctx.aKey, 0, p.pkBytes);
        ctx.pkAbsorbed.initShake256().absorb(pk, pkOff, p.pkBytes);
        ctx.aValid = true;
    }

    /**
     * Absorbs pk || (ctxlen || ctx) || msg and squeezes {@code muLen} bytes into ctx.mu. Must follow
     * {@link #expandPublic} for the same key, whose cached pk absorb it resumes.
     */
    private static void computeMu(
            HaetaeContext ctx, byte[] context, int cOff, int cLen, byte[] msg, int mOff, int mLen, int muLen) {
        ctx.xof.copyFrom(ctx.pkAbsorbed).absorbByte(cLen);
        if (cLen > 0) {
            ctx.xof.absorb(context, cOff, cLen);
        }
        ctx.xof.absorb(msg, mOff, mLen).squeeze(ctx.mu, 0, muLen);
    }

    // ---------------------------------------------------------------- signing

    /** Unpacks s1, s2 and K from sk (ranges were checked when the key was parsed). */
    static void unpackSecret(HaetaeContext ctx, byte[] sk, int skOff) {
        HaetaeParameterSet p = ctx.p;
        int o = skOff + p.pkBytes;
        for (int j = 0; j < p.m; j++) {
            Packing.unpackEta(ctx.s1[j], sk, o);
            o += POLYETA_PACKEDBYTES;
        }
        for (int i = 0; i < p.k; i++) {
            if (p.roundedKey()) {
                Packing.unpack2Eta(ctx.s2[i], sk, o);
            } else {
                Packing.unpackEta(ctx.s2[i], sk, o);
            }
            o += p.poly2EtaPackedBytes;
        }
        System.arraycopy(sk, o, ctx.key, 0, SEEDBYTES);
    }

    /**
     * SignInternal: signs msg under sk with context string and 32 bytes of randomness; writes
     * {@code p.sigBytes} bytes to {@code sig[sigOff..]}. Wipes the context afterwards. Each attempt
     * runs the specification's steps in order: sample y from the hyperball, commit, challenge,
     * response with its rejection test, hint, encode; a rejected attempt starts over with the next
     * nonce.
     */
    static void sign(
            HaetaeContext ctx,
            HaetaeSampler sampler,
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
        HaetaeParameterSet p = ctx.p;
        try {
            expandPublic(ctx, sk, skOff);
            unpackSecret(ctx, sk, skOff);
            computeMu(ctx, context, cOff, cLen, msg, mOff, mLen, CRHBYTES);
            byte[] seed = ctx.seedbuf;
            ctx.xof
                    .initShake256()
                    .absorb(ctx.key, 0, SEEDBYTES)
                    .absorb(rnd, rndOff, SEEDBYTES)
                    .absorb(ctx.mu, 0, CRHBYTES)
                    .squeeze(seed, 0, CRHBYTES);
            for (int[] s : ctx.s1) {
                Ntt.forward(s);
            }
            for (int[] s : ctx.s2) {
                Ntt.forward(s);
            }
            int counter = 0;
            while (true) {
                counter = HyperballSampler.sample(p, sampler, ctx.xof, ctx.sampler, seed, counter, ctx.y1, ctx.y2);
                commit(ctx);
                challenge(ctx);
                if (!response(ctx, ctx.sampler.b)) {
                    continue;
                }
                hint(ctx);
                if (encode(ctx, sig, sigOff)) {
                    return;
                }
            }
        } finally {
            ctx.wipe();
        }
    }

    /**
     * Commitment w = A round(y) mod 2q: round(y1) into {@code ctx.vl} (NTT domain; round(y1[0]) also
     * kept in time domain in {@code ctx.t0}), w into {@code ctx.vk} and HighBits(w) into
     * {@code ctx.hb}.
     */
    private static void commit(HaetaeContext ctx) {
        HaetaeParameterSet p = ctx.p;
        int[][] zr1 = ctx.vl;
        int[][] ay = ctx.vk;
        int[] y0 = ctx.t0;
        for (int i = 0; i < p.l; i++) {
            for (int n = 0; n < N; n++) {
                zr1[i][n] = Poly.fixRound(ctx.y1[i][n]);
            }
        }
        System.arraycopy(zr1[0], 0, y0, 0, N);
        for (int i = 0; i < p.l; i++) {
            Ntt.forward(zr1[i]);
        }
        for (int i = 0; i < p.k; i++) {
            int[] r = ay[i];
            Ntt.pointwise(r, ctx.a[i][0], zr1[0]);
            for (int j = 1; j < p.l; j++) {
                Ntt.pointwiseAcc(r, ctx.a[i][j], zr1[j]);
            }
            Ntt.inverseToMont(r);
            int[] y2i = ctx.y2[i];
            for (int n = 0; n < N; n++) {
                int v = r[n] + 2 * Poly.fixRound(y2i[n]);
                // lift from mod q to mod 2q with the known parity (CRT)
                int parity = i == 0 ? (v ^ y0[n]) & 1 : v & 1;
                v += Q & -parity;
                v = Reduce.freeze2q(v);
                r[n] = v;
                ctx.hb[i][n] = Poly.highbitsHint(v, p);
            }
        }
    }

    /** Challenge c = H(HighBits(w) || LSB(round(y1[0])) || mu) into {@code ctx.c}. */
    private static void challenge(HaetaeContext ctx) {
        writeTranscript(ctx, ctx.hb, ctx.t0);
        Poly.challenge(ctx.c, ctx.xof, ctx.p, ctx.transcript, ctx.mu);
    }

    /**
     * Response z = y + (-1)^b c s into {@code ctx.z1}, {@code ctx.z2} (with c s1[0] = c), then the
     * rejection test on ||z|| and, when bit 1 of b asks for it, on ||2z - y||. Returns false when the
     * attempt is rejected.
     */
    private static boolean response(HaetaeContext ctx, int bBits) {
        HaetaeParameterSet p = ctx.p;
        int sign = 1 - 2 * (bBits & 1);
        System.arraycopy(ctx.c, 0, ctx.chat, 0, N);
        Ntt.forward(ctx.chat);
        long norm = 0;
        long norm2 = 0;
        for (int i = 0; i < p.l; i++) {
            int[] cs = ctx.t1;
            if (i == 0) {
                System.arraycopy(ctx.c, 0, cs, 0, N);
            } else {
                Ntt.pointwise(cs, ctx.chat, ctx.s1[i - 1]);
                Ntt.inverseToMont(cs);
            }
            int[] y = ctx.y1[i];
            int[] z = ctx.z1[i];
            for (int n = 0; n < N; n++) {
                int zv = y[n] + LN * (cs[n] * sign);
                z[n] = zv;
                norm += (long) zv * zv;
                long d = 2L * zv - y[n];
                norm2 += d * d;
            }
        }
        for (int i = 0; i < p.k; i++) {
            int[] cs = ctx.t1;
            Ntt.pointwise(cs, ctx.s2[i], ctx.chat);
            Ntt.inverseToMont(cs);
            int[] y = ctx.y2[i];
            int[] z = ctx.z2[i];
            for (int n = 0; n < N; n++) {
                int zv = y[n] + LN * (cs[n] * sign);
                z[n] = zv;
                norm += (long) zv * zv;
                long d = 2L * zv - y[n];
                norm2 += d * d;
            }
        }
        long reject1 = ((p.b1sq * LN * LN) - norm) >>> 63;
        long reject2 = ((norm2 - p.b0sq * LN * LN) >>> 63) & ((bBits >> 1) & 1);
        return (reject1 | reject2) == 0;
    }

    /** Hint h = HighBits(w) - HighBits(w - 2 round(z2)) mod hintModulus into {@code ctx.vk2}. */
    private static void hint(HaetaeContext ctx) {
        HaetaeParameterSet p = ctx.p;
        for (int i = 0; i < p.k; i++) {
            int[] z = ctx.z2[i];
            int[] w = ctx.vk[i];
            int[] hb = ctx.hb[i];
            int[] h = ctx.vk2[i];
            for (int n = 0; n < N; n++) {
                int v = Reduce.freeze2q(w[n] - 2 * Poly.fixRound(z[n]));
                int hv = hb[n] - Poly.highbitsHint(v, p);
                hv += (hv >> 31) & p.hintModulus;
                h[n] = hv;
            }
        }
    }

    /** Rounds z1 (into {@code ctx.vl}) and encodes the signature; false if the codes do not fit (retry). */
    private static boolean encode(HaetaeContext ctx, byte[] sig, int sigOff) {
        HaetaeParameterSet p = ctx.p;
        int[][] zr1 = ctx.vl;
        for (int i = 0; i < p.l; i++) {
            for (int n = 0; n < N; n++) {
                zr1[i][n] = Poly.fixRound(ctx.z1[i][n]);
            }
        }
        return packSignature(ctx, zr1, ctx.vk2, sig, sigOff);
    }

    /** Transcript = HighBits slots (288 bytes each) || LSB(round(y1[0])). */
    private static void writeTranscript(HaetaeContext ctx, int[][] highbits, int[] lsbSource) {
        HaetaeParameterSet p = ctx.p;
        for (int i = 0; i < p.k; i++) {
            Packing.packHighbits(ctx.transcript, i * POLY_HIGHBITS_PACKEDBYTES, highbits[i], !p.roundedKey());
        }
        Packing.packLsb(ctx.transcript, p.k * POLY_HIGHBITS_PACKEDBYTES, lsbSource);
    }

    /** Packs c, LowBits(z1), the two rANS streams; false if the encodings do not fit (retry). */
    private static boolean packSignature(HaetaeContext ctx, int[][] z1r, int[][] h, byte[] sig, int sigOff) {
        HaetaeParameterSet p = ctx.p;
        // encode HighBits(z1), all l*n symbols in reverse order
        Rans.Table tHb = Rans.hbZ1Table(p);
        Rans.Encoder enc = ctx.encoder;
        byte[] eb = ctx.encHb;
        enc.init(eb, 0, eb.length);
        for (int idx = p.l * N - 1; idx >= 0; idx--) {
            int s = Poly.highbitsZ1(z1r[idx / N][idx % N]) + p.offsetHbZ1;
            if (s < 0 || s >= p.mHbZ1) {
                return false;
            }
            if (!enc.put(tHb, s)) {
                return false;
            }
        }
        int hbStart = enc.flush();
        int sizeHb = eb.length - hbStart;

        Rans.Table tH = Rans.hTable(p);
        byte[] ehb = ctx.encH;
        enc.init(ehb, 0, ehb.length);
        int cut = (p.mH - 1) >> 1;
        for (int idx = p.k * N - 1; idx >= 0; idx--) {
            int v = h[idx / N][idx % N];
            if (cut < v && v <= cut + p.offsetH) {
                return false;
            }
            int s = v > cut + p.offsetH ? v - p.offsetH : v;
            if (!enc.put(tH, s)) {
                return false;
            }
        }
        int hStart = enc.flush();
        int sizeH = ehb.length - hStart;

        if (sizeH < p.baseEncH || sizeHb < p.baseEncHbZ1 || sizeH > p.baseEncH + 255 || sizeHb > p.baseEncHbZ1 + 255) {
            return false;
        }
        int head = SEEDBYTES + p.l * N + 2;
        if (head + sizeHb + sizeH > p.sigBytes) {
            return false;
        }
        Arrays.fill(sig, sigOff, sigOff + p.sigBytes, (byte) 0);
        for (int i = 0; i < N; i++) {
            sig[sigOff + (i >> 3)] |= (byte) (ctx.c[i] << (i & 7));
        }
        int o = sigOff + POLYC_PACKEDBYTES;
        for (int i = 0; i < p.l; i++) {
            for (int n = 0; n < N; n++) {
                sig[o++] = (byte) Poly.lowbitsZ1(z1r[i][n]);
            }
        }
        sig[o++] = (byte) (sizeHb - p.baseEncHbZ1);
        sig[o++] = (byte) (sizeH - p.baseEncH);
        System.arraycopy(eb, hbStart, sig, o, sizeHb);
        o += sizeHb;
        System.arraycopy(ehb, hStart, sig, o, sizeH);
        return true;
    }

    // ---------------------------------------------------------------- verification

    /** VerifyInternal. Never throws for any signature bytes. */
    static boolean verify(
            HaetaeContext ctx,
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
        HaetaeParameterSet p = ctx.p;
        if (sigLen != p.sigBytes || cLen < 0 || cLen > 255) {
            return false;
        }
        expandPublic(ctx, pk, pkOff);
        int[][] z1 = ctx.z1;
        int[][] h = ctx.vk2;
        int[] c = ctx.c;
        for (int i = 0; i < N; i++) {
            c[i] = (sig[sigOff + (i >> 3)] >> (i & 7)) & 1;
        }
        int o = sigOff + POLYC_PACKEDBYTES;
        int lowOff = o;
        o += p.l * N;
        int sizeHb = (sig[o] & 0xff) + p.baseEncHbZ1;
        int sizeH = (sig[o + 1] & 0xff) + p.baseEncH;
        o += 2;
        int used = SEEDBYTES + p.l * N + 2 + sizeHb + sizeH;
        if (used > p.sigBytes) {
            return false;
        }
        // HighBits(z1)
        Rans.Decoder dec = ctx.decoder;
        Rans.Table tHb = Rans.hbZ1Table(p);
        if (!dec.init(sig, o, sizeHb)) {
            return false;
        }
        for (int i = 0; i < p.l; i++) {
            for (int n = 0; n < N; n++) {
                int hbv = dec.next(tHb) - p.offsetHbZ1;
                z1[i][n] = hbv * 256 + sig[lowOff + i * N + n];
            }
        }
        if (!dec.finish()) {
            return false;
        }
        o += sizeHb;
        Rans.Table tH = Rans.hTable(p);
        if (!dec.init(sig, o, sizeH)) {
            return false;
        }
        int cut = (p.mH - 1) >> 1;
        for (int i = 0; i < p.k; i++) {
            for (int n = 0; n < N; n++) {
                int s = dec.next(tH);
                h[i][n] = cut < s ? s + p.offsetH : s;
            }
        }
        if (!dec.finish()) {
            return false;
        }
        o += sizeH;
        int diff = 0;
        for (int end = sigOff + p.sigBytes; o < end; o++) {
            diff |= sig[o];
        }
        if (diff != 0) {
            return false;
        }

        long sqnorm = 0;
        int[] wprime = ctx.t0;
        for (int i = 0; i < p.l; i++) {
            for (int n = 0; n < N; n++) {
                sqnorm += (long) z1[i][n] * z1[i][n];
            }
        }
        for (int n = 0; n < N; n++) {
            wprime[n] = (z1[0][n] - c[n]) & 1;
        }
        for (int i = 0; i < p.l; i++) {
            Ntt.forward(z1[i]);
        }
        int[][] w = ctx.hb;
        for (int i = 0; i < p.k; i++) {
            int[] r = ctx.vk[i];
            Ntt.pointwise(r, ctx.a[i][0], z1[0]);
            for (int j = 1; j < p.l; j++) {
                Ntt.pointwiseAcc(r, ctx.a[i][j], z1[j]);
            }
            Ntt.inverseToMont(r);
            for (int n = 0; n < N; n++) {
                int v = r[n];
                int parity = i == 0 ? (v ^ wprime[n]) & 1 : v & 1;
                v = Reduce.freeze2q(v + (Q & -parity));
                int wv = Poly.highbitsHint(v, p) + h[i][n];
                wv -= ~((wv - p.hintModulus) >> 31) & p.hintModulus;
                w[i][n] = wv;
                int z2 = wv * p.alphaHint - v;
                if (i == 0) {
                    z2 += wprime[n];
                }
                z2 = Reduce.reduce2q(z2) >> 1;
                sqnorm += (long) z2 * z2;
            }
        }
        if (Long.compareUnsigned(sqnorm, p.b2sq) > 0) {
            return false;
        }
        writeTranscript(ctx, w, wprime);
        computeMu(ctx, context, cOff, cLen, msg, mOff, mLen, SEEDBYTES);
        int[] cp = ctx.t1;
        Poly.challenge(cp, ctx.xof, p, ctx.transcript, ctx.mu);
        int d = 0;
        for (int i = 0; i < N; i++) {
            d |= c[i] ^ cp[i];
        }
        return d == 0;
    }
}
