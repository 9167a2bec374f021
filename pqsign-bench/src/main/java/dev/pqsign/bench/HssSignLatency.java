package dev.pqsign.bench;

import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.lms.internal.LmsHashCounter;
import dev.pqsign.testing.MemoryStateStore;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Latency of every signature over a whole HSS key's life (or its first {@code count} signatures):
 * median, p99, p99.9, slowest and slowest/median, after a warm-up run on another key; with
 * {@code -Dpqsign.lms.countHashes=true} also the SHA-256 compressions of each signature (median, p99,
 * slowest), which no other process on a shared machine can disturb.
 *
 * <pre>java [-Dpqsign.lms.countHashes=true] -cp pqsign-bench/target/benchmarks.jar \
 *     dev.pqsign.bench.HssSignLatency count set...</pre>
 *
 * {@code count} 0 means the key's whole life. The state store is in memory, so the figures are the
 * signer's computation, not the disk's fsync.
 */
public final class HssSignLatency {
    private static final byte[] MSG = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);

    private HssSignLatency() {}

    public static void main(String[] args) {
        long count = Long.parseLong(args[0]);
        System.out.printf(
                "%-80s %9s %8s %8s %8s %8s %8s %7s %5s %9s %9s %9s%n",
                "SET", "N", "LOAD s", "p50 ms", "p99 ms", "p999 ms", "max ms", "max/p50", "GCs", "c p50", "c p99",
                "c max");
        for (int a = 1; a < args.length; a++) {
            HssParameterSet p = HssParameterSet.byName(args[a]).orElseThrow(IllegalArgumentException::new);
            long n = count == 0 ? p.maxSignatures() : Math.min(count, p.maxSignatures());
            run(p, Math.min(n, 4096), true);
            run(p, n, false);
        }
    }

    private static void run(HssParameterSet p, long count, boolean warmup) {
        HssPrivateKey key = HssKeyGenerator.generate(
                p, new SecureRandom(), Runtime.getRuntime().availableProcessors(), null);
        long t0 = System.nanoTime();
        HssStatefulSigner signer = HssStatefulSigner.open(
                MemoryStateStore.holding(HssKeyState.fresh(key).encode()));
        double load = (System.nanoTime() - t0) / 1e9;
        int n = (int) count;
        double[] t = new double[n];
        long[] c = new long[n];
        long gcs = collections();
        for (int i = 0; i < n; i++) {
            long h = LmsHashCounter.compressions();
            long s = System.nanoTime();
            signer.sign(MSG);
            t[i] = (System.nanoTime() - s) / 1e6;
            c[i] = LmsHashCounter.compressions() - h;
        }
        gcs = collections() - gcs;
        signer.close();
        if (warmup) {
            return;
        }
        double[] s = t.clone();
        Arrays.sort(s);
        long[] cs = c.clone();
        Arrays.sort(cs);
        boolean counted = LmsHashCounter.enabled();
        System.out.printf(
                "%-80s %9d %8.2f %8.3f %8.3f %8.3f %8.3f %7.1f %5d %9s %9s %9s%n",
                p.setName(),
                n,
                load,
                s[n / 2],
                s[percentile(n, 0.99)],
                s[percentile(n, 0.999)],
                s[n - 1],
                s[n - 1] / s[n / 2],
                gcs,
                counted ? Long.toString(cs[n / 2]) : "-",
                counted ? Long.toString(cs[percentile(n, 0.99)]) : "-",
                counted ? Long.toString(cs[n - 1]) : "-");
    }

    private static int percentile(int n, double q) {
        return Math.max(0, (int) Math.ceil(q * n) - 1);
    }

    private static long collections() {
        long gcs = 0;
        for (java.lang.management.GarbageCollectorMXBean gc :
                java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs += Math.max(0, gc.getCollectionCount());
        }
        return gcs;
    }
}
