package dev.pqsign.haetae.internal;

import dev.pqsign.core.Hex;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Writes NIST-format known-answer files ({@code PQCsignKAT_haetae_modeN.rsp}) exactly as the HAETAE
 * reference generator does: CTR_DRBG seeded with bytes 0..47 produces 100 (seed, message) pairs with
 * mlen = 33 (i + 1); each record reseeds the DRBG with its seed and draws, in order, the 32-byte key
 * generation seed, the 32-byte signing randomness, one byte of context length and that many context
 * bytes (a zero-length draw still advances the DRBG).
 *
 * <p>Internal: for pqsign's tests and the CLI's {@code kat} command. It signs through the public
 * {@link HaetaeSigner} with a {@code SecureRandom} that replays the DRBG's 32 bytes, so the files
 * check exactly the code path callers use.
 */
public final class HaetaeKat {
    /** Number of records in a KAT file. */
    public static final int RECORDS = 100;

    private HaetaeKat() {}

    /** Writes the full 100-record response file for {@code params} signed with {@code sampler}. */
    public static void write(HaetaeParameterSet params, HaetaeSampler sampler, PrintStream out) {
        write(params, sampler, HaetaeEngine.FAST, RECORDS, out);
    }

    /** Writes the first {@code records} records (at most 100) using {@code engine}. */
    public static void write(
            HaetaeParameterSet params, HaetaeSampler sampler, HaetaeEngine engine, int records, PrintStream out) {
        if (records < 0 || records > RECORDS) {
            throw new IllegalArgumentException("records must be in [0, 100], got " + records);
        }
        byte[] entropy = new byte[48];
        for (int i = 0; i < 48; i++) {
            entropy[i] = (byte) i;
        }
        CtrDrbg drbg = new CtrDrbg(entropy);
        byte[][] seeds = new byte[RECORDS][48];
        byte[][] msgs = new byte[RECORDS][];
        for (int i = 0; i < RECORDS; i++) {
            drbg.nextBytes(seeds[i]);
            msgs[i] = new byte[33 * (i + 1)];
            drbg.nextBytes(msgs[i]);
        }
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("# ").append(params.katName()).append("\n\n");
        out.print(sb);
        for (int i = 0; i < records; i++) {
            sb.setLength(0);
            drbg.reseed(seeds[i]);
            byte[] kgSeed = new byte[32];
            drbg.nextBytes(kgSeed);
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(params, kgSeed, engine);
            byte[] rnd = new byte[32];
            drbg.nextBytes(rnd);
            byte[] len = new byte[1];
            drbg.nextBytes(len);
            byte[] ctx = new byte[len[0] & 0xff];
            drbg.nextBytes(ctx);
            HaetaeSigner signer = new HaetaeSigner(kp.privateKey(), ctx, sampler, engine, new ReplayedRandom(rnd));
            byte[] sig = signer.sign(msgs[i], ctx);
            sb.append("count = ").append(i).append('\n');
            sb.append("seed = ").append(upper(seeds[i])).append('\n');
            sb.append("mlen = ").append(msgs[i].length).append('\n');
            sb.append("msg = ").append(upper(msgs[i])).append('\n');
            sb.append("pk = ").append(upper(kp.publicKey().getEncoded())).append('\n');
            sb.append("sk = ").append(upper(kp.privateKey().getEncoded())).append('\n');
            sb.append("siglen = ").append(sig.length).append('\n');
            sb.append("sig = ").append(upper(sig)).append("\n\n");
            out.print(sb);
        }
        out.flush();
    }

    private static String upper(byte[] b) {
        return Hex.encode(b).toUpperCase(Locale.ROOT);
    }
}
