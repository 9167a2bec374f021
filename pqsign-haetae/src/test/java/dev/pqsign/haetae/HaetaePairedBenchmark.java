package dev.pqsign.haetae;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.params.ParametersWithContext;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyPairGenerator;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;

/**
 * Paired signing benchmark: the two implementations sign the same message with the same key and the
 * same 32 bytes of randomness, one right after the other, so they produce the same signature after the
 * same number of rejection-sampling attempts (checked). The per-signature time ratio then measures the
 * implementations alone, without the spread of the attempt count, and both sides of a pair see the
 * same machine load. Thread CPU time, after warm-up (a first, unreported pass over all rows,
 * then each row's own warm-up round).
 *
 * <ul>
 * <li>BouncyCastle 1.87 (which signs like v1.1.2), then FAST with the v1.1.2 sampler;</li>
 * <li>FAST, then COMPACT, per sampler.</li>
 * </ul>
 *
 * <p>Usage: {@code java [--add-modules jdk.incubator.vector -Dpqsign.haetae.vector=true] -cp <test classpath>
 * dev.pqsign.haetae.HaetaePairedBenchmark [signatures [bc]]}; with {@code bc} only the BouncyCastle rows.
 */
public final class HaetaePairedBenchmark {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private HaetaePairedBenchmark() {}

    /** A SecureRandom that hands out the bytes last set, for BouncyCastle's per-signature randomness. */
    static final class ReplayRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;
        byte[] next;

        @Override
        public void nextBytes(byte[] out) {
            System.arraycopy(next, 0, out, 0, out.length);
        }
    }

    interface Signer {
        void sign(byte[] msg, byte[] rnd, byte[] sigOut);
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        boolean bcOnly = args.length > 1 && args[1].equals("bc");
        System.out.println("java " + System.getProperty("java.version") + ", FAST engine: " + VectorSupport.describe()
                + ", " + n + " paired signatures per row (thread CPU time, microseconds; ratio = second / first)");
        System.out.println("set       first           second                median1   median2     mean1     mean2"
                + "  ratio of medians  median ratio  ratio of means");
        // Pass 0 only warms up: every row once, unreported. With the vector module the JIT needs a few
        // hundred signatures per set, and recompiles when the next set's streams change the profile.
        for (int pass = 0; pass < 2; pass++) {
            rows(n, bcOnly, pass == 1);
        }
    }

    private static void rows(int n, boolean bcOnly, boolean report) {
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            byte[] seed = new byte[32];
            seed[0] = (byte) p.ordinal();
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.fromSeed(p, seed);
            byte[] sk = kp.privateKey().getEncoded();
            byte[] none = new byte[0];

            HAETAEKeyPairGenerator g = new HAETAEKeyPairGenerator();
            g.init(new HAETAEKeyGenerationParameters(new FixedRandom(seed), BouncyCastleCrossTest.bc(p)));
            AsymmetricCipherKeyPair bcKeys = g.generateKeyPair();
            ReplayRandom replay = new ReplayRandom();
            HAETAESigner bc = new HAETAESigner();
            bc.init(
                    true,
                    new ParametersWithContext(
                            new ParametersWithRandom(bcKeys.getPrivate(), replay), BouncyCastleCrossTest.pre(none)));
            Signer bcSigner = (msg, rnd, out) -> {
                replay.next = rnd;
                byte[] s = bc.generateSignature(msg);
                System.arraycopy(s, 0, out, 0, s.length);
            };

            run(
                    p,
                    "BC 1.87",
                    bcSigner,
                    "FAST v1.1.2",
                    engine(HaetaeEngine.FAST, p, HaetaeSampler.V1_1_2, sk),
                    n,
                    report);
            for (HaetaeSampler s : bcOnly ? new HaetaeSampler[0] : HaetaeSampler.values()) {
                String v = s == HaetaeSampler.V1_2_0 ? "v1.2.0" : "v1.1.2";
                run(
                        p,
                        "FAST " + v,
                        engine(HaetaeEngine.FAST, p, s, sk),
                        "COMPACT " + v,
                        engine(HaetaeEngine.COMPACT, p, s, sk),
                        Math.max(100, n / 2),
                        report);
            }
        }
    }

    private static Signer engine(HaetaeEngine e, HaetaeParameterSet p, HaetaeSampler s, byte[] sk) {
        byte[] none = new byte[0];
        return (msg, rnd, out) -> e.sign(p, s, sk, msg, 0, msg.length, none, 0, 0, rnd, out, 0);
    }

    private static void run(
            HaetaeParameterSet p, String name1, Signer first, String name2, Signer second, int n, boolean report) {
        SplittableRandom r = new SplittableRandom(0xBE7C4 + p.ordinal());
        byte[] msg = new byte[64];
        byte[] rnd = new byte[32];
        byte[] sig1 = new byte[p.signatureBytes()];
        byte[] sig2 = new byte[p.signatureBytes()];
        long[] t1 = new long[n];
        long[] t2 = new long[n];
        double[] ratio = new double[n];
        for (int round = 0; round < 2; round++) { // round 0 warms up
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < msg.length; j++) {
                    msg[j] = (byte) r.nextInt();
                }
                for (int j = 0; j < rnd.length; j++) {
                    rnd[j] = (byte) r.nextInt();
                }
                long a = MX.getCurrentThreadCpuTime();
                first.sign(msg, rnd, sig1);
                long b = MX.getCurrentThreadCpuTime();
                second.sign(msg, rnd, sig2);
                long c = MX.getCurrentThreadCpuTime();
                if (!Arrays.equals(sig1, sig2)) {
                    throw new AssertionError(p + ": " + name1 + " and " + name2 + " signed differently");
                }
                t1[i] = b - a;
                t2[i] = c - b;
                ratio[i] = (double) (c - b) / (b - a);
            }
        }
        if (!report) {
            return;
        }
        long sum1 = 0;
        long sum2 = 0;
        for (int i = 0; i < n; i++) {
            sum1 += t1[i];
            sum2 += t2[i];
        }
        Arrays.sort(t1);
        Arrays.sort(t2);
        Arrays.sort(ratio);
        System.out.printf(
                Locale.ROOT,
                "%-9s %-15s %-18s %9.1f %9.1f %9.1f %9.1f %17.2f %13.2f %15.2f%n",
                p.setName(),
                name1,
                name2,
                t1[n / 2] / 1e3,
                t2[n / 2] / 1e3,
                sum1 / 1e3 / n,
                sum2 / 1e3 / n,
                (double) t2[n / 2] / t1[n / 2],
                ratio[n / 2],
                (double) sum2 / sum1);
    }
}
