package dev.pqsign.haetae;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyPairGenerator;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;

/**
 * Median timings of key generation, signing and verification: our FAST and COMPACT engines and
 * BouncyCastle 1.87, single thread, after warm-up. Not a JMH benchmark (that lives in pqsign-bench);
 * a quick, dependency-light harness whose output goes into docs/haetae.md.
 *
 * <p>Usage: {@code java -cp <test classpath> dev.pqsign.haetae.HaetaeBenchmark [iterations]}
 */
public final class HaetaeBenchmark {
    private HaetaeBenchmark() {}

    interface Op {
        void run(int i);
    }

    private static final java.lang.management.ThreadMXBean MX =
            java.lang.management.ManagementFactory.getThreadMXBean();
    /** Thread CPU time instead of wall time: robust on a shared machine (set -Dhaetae.bench.wall=true for wall time). */
    private static final boolean WALL = Boolean.getBoolean("haetae.bench.wall");

    private static long now() {
        return WALL ? System.nanoTime() : MX.getCurrentThreadCpuTime();
    }

    static double medianMicros(Op op, int warmup, int n) {
        for (int i = 0; i < warmup; i++) {
            op.run(i);
        }
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = now();
            op.run(i);
            t[i] = now() - t0;
        }
        Arrays.sort(t);
        return t[n / 2] / 1000.0;
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int warm = Math.max(200, n);
        SecureRandom rnd = new SecureRandom();
        System.out.println("java " + System.getProperty("java.version") + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs, " + n + " timed iterations (median "
                + (WALL ? "wall" : "thread CPU") + " time, microseconds)");
        System.out.println("set       impl              keygen      sign    verify  verify (2 keys in turn)");
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            byte[] msg = new byte[64];
            rnd.nextBytes(msg);
            for (HaetaeEngine e : HaetaeEngine.values()) {
                int iters = e == HaetaeEngine.FAST ? n : Math.max(20, n / 10);
                int w = e == HaetaeEngine.FAST ? warm : Math.max(20, warm / 10);
                byte[] seed = new byte[32];
                double kg = medianMicros(
                        i -> {
                            seed[0] = (byte) i;
                            seed[1] = (byte) (i >> 8);
                            HaetaeKeyPairGenerator.fromSeed(p, seed, e);
                        },
                        w,
                        iters);
                HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(p, rnd, e);
                byte[] sig = new byte[p.signatureBytes()];
                byte[] ctx = new byte[0];
                // a second key: verifying under the two keys in turn defeats FAST's per-thread matrix cache
                HaetaeKeyPair kp2 = HaetaeKeyPairGenerator.generate(p, rnd, e);
                byte[] sig2 = new byte[p.signatureBytes()];
                for (HaetaeSampler s : HaetaeSampler.values()) {
                    HaetaeSigner signer = new HaetaeSigner(kp.privateKey(), ctx, s, e, rnd);
                    double sg = medianMicros(
                            i -> {
                                msg[0] = (byte) i;
                                signer.sign(msg, 0, msg.length, ctx, sig, 0);
                            },
                            w,
                            iters);
                    HaetaeVerifier v = new HaetaeVerifier(kp.publicKey(), ctx, e);
                    double vf = medianMicros(
                            i -> {
                                if (!v.verify(msg, 0, msg.length, ctx, sig, 0, sig.length)) {
                                    throw new AssertionError("verification failed");
                                }
                            },
                            w,
                            iters);
                    new HaetaeSigner(kp2.privateKey(), ctx, s, e, rnd).sign(msg, 0, msg.length, ctx, sig2, 0);
                    HaetaeVerifier v2 = new HaetaeVerifier(kp2.publicKey(), ctx, e);
                    double vfAlt = medianMicros(
                            i -> {
                                boolean ok = (i & 1) == 0
                                        ? v.verify(msg, 0, msg.length, ctx, sig, 0, sig.length)
                                        : v2.verify(msg, 0, msg.length, ctx, sig2, 0, sig2.length);
                                if (!ok) {
                                    throw new AssertionError("verification failed");
                                }
                            },
                            w,
                            iters);
                    System.out.printf(
                            Locale.ROOT,
                            "%-9s %-7s %-8s %9.1f %9.1f %9.1f %9.1f%n",
                            p.setName(),
                            e,
                            s,
                            kg,
                            sg,
                            vf,
                            vfAlt);
                }
            }
            // BouncyCastle 1.87 (v1.1.2 sampler)
            HAETAEKeyPairGenerator g = new HAETAEKeyPairGenerator();
            g.init(new HAETAEKeyGenerationParameters(rnd, BouncyCastleCrossTest.bc(p)));
            double kg = medianMicros(i -> g.generateKeyPair(), warm / 2, Math.max(50, n / 2));
            AsymmetricCipherKeyPair kp = g.generateKeyPair();
            HAETAESigner bs = new HAETAESigner();
            bs.init(true, new ParametersWithRandom(kp.getPrivate(), rnd));
            byte[][] last = new byte[1][];
            double sg = medianMicros(
                    i -> {
                        msg[0] = (byte) i;
                        last[0] = bs.generateSignature(msg);
                    },
                    warm / 2,
                    Math.max(50, n / 2));
            HAETAESigner bv = new HAETAESigner();
            bv.init(false, kp.getPublic());
            double vf = medianMicros(
                    i -> {
                        if (!bv.verifySignature(msg, last[0])) {
                            throw new AssertionError("BC verification failed");
                        }
                    },
                    warm / 2,
                    Math.max(50, n / 2));
            System.out.printf(
                    Locale.ROOT, "%-9s %-7s %-8s %9.1f %9.1f %9.1f%n", p.setName(), "BC-1.87", "V1_1_2", kg, sg, vf);
        }
    }
}
