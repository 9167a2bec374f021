package dev.pqsign.bench;

import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Latency of signing across key rollovers, as the sensor signs: one reading after the other on a
 * real {@link SensorKeyDirectory} (real files, fsync) with {@link KeyRollover} deciding when to
 * prepare and hand over, the signer options of {@code pqsign sensor} (batch 1, reservation ahead).
 * One sample is what the signing thread spends per reading: {@link KeyRollover#beforeSignature()}
 * (which waits for a handover still under way), the signature, and {@link
 * KeyRollover#afterSignature()} (which, when a handover is due, starts it on the background
 * thread). Reports the median over all readings and, for each rollover, the time of the reading
 * that took the handover over ("handover ms", also against the median), the median and maximum of
 * the {@value #WINDOW} readings before and after it, and the same maximum for a control window
 * halfway since the previous rollover, so the machine's noise can be told from the rollover's cost.
 *
 * <p>Two modes. Back to back (rate 0, the default): each reading is signed as soon as the previous
 * one is done, so the reading after the one that made the handover due waits for all of it — the
 * worst case, readings arriving faster than a handover takes. Paced (rate R readings/s): reading n
 * arrives at {@code start + n / R}, as from a sensor's source; a sample is the time from its arrival
 * to the end of its {@code afterSignature}, so time a reading spends waiting for a handover counts
 * against it.
 *
 * <pre>java [-DslowMs=X] -cp pqsign-bench/target/benchmarks.jar dev.pqsign.bench.RolloverLatency [rollovers] [set] [dir] [rate]</pre>
 */
public final class RolloverLatency {
    /** Readings on each side of a handover that count as "around the rollover". */
    static final int WINDOW = 32;

    /** With {@code -DslowMs=X}: list the readings slower than X ms around each rollover. */
    private static final double slowMs = Double.parseDouble(System.getProperty("slowMs", "0"));

    /** Rollovers on a separate key directory before the measured run (JIT compilation). */
    private static final int WARMUP_ROLLOVERS = 2;

    private RolloverLatency() {}

    public static void main(String[] args) throws Exception {
        int rollovers = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        XmssParameterSet set = XmssParameterSet.byName(args.length > 1 ? args[1] : "XMSSMT-SHA2_10/2_256")
                .orElseThrow();
        Path base = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("pqsign-rollover-bench");
        double rate = args.length > 3 ? Double.parseDouble(args[3]) : 0;
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be 0 (back to back) or positive, got " + args[3]);
        }
        run(set, WARMUP_ROLLOVERS, base.resolve("warmup"), 0, false);
        run(set, rollovers, base.resolve("measured"), rate, true);
    }

    private static void run(XmssParameterSet set, int rollovers, Path dir, double rate, boolean report)
            throws IOException {
        XmssPrivateKey first = XmssKeyGenerator.generate(set);
        SensorKeyDirectory.create(dir, first);
        first.destroy();
        List<Double> samples = new ArrayList<>();
        List<Integer> handoverAt = new ArrayList<>();
        XmssStatefulSigner.Options signer =
                XmssStatefulSigner.Options.defaults().withBatch(1).withReserveAhead(true);
        try (SensorKeyDirectory keys = SensorKeyDirectory.open(
                        dir, SensorKeyDirectory.Options.defaults().withSigner(signer));
                KeyRollover rollover = KeyRollover.of(keys, 0, KeyRollover.DEFAULT_SWITCH_AT, Clock.systemUTC())) {
            long n = 0;
            long period = rate > 0 ? Math.round(1e9 / rate) : 0;
            long start = System.nanoTime();
            while (handoverAt.size() < rollovers || samples.size() < handoverAt.get(rollovers - 1) + WINDOW) {
                byte[] reading = ("rpm=1500.25;n=" + n).getBytes(StandardCharsets.US_ASCII);
                long t0 = period > 0 ? awaitArrival(start + n * period) : System.nanoTime();
                n++;
                // as the sensor does: a handover under way is completed before the reading is signed
                Optional<?> h = rollover.beforeSignature();
                keys.currentSigner().sign(reading);
                rollover.afterSignature();
                samples.add((System.nanoTime() - t0) / 1e6);
                if (h.isPresent()) {
                    handoverAt.add(samples.size() - 1);
                }
            }
        }
        if (!report) {
            return;
        }
        double median = percentile(samples, 0.5);
        System.out.printf(
                "%s: %d readings, %d rollovers, %s; sign + afterSignature per reading%s: median %.3f ms, p99 %.3f ms,"
                        + " max %.3f ms%n",
                set.setName(),
                samples.size(),
                rollovers,
                rate > 0 ? String.format("paced at %.0f readings/s", rate) : "back to back",
                rate > 0 ? " (from its arrival)" : "",
                median,
                percentile(samples, 0.99),
                percentile(samples, 1.0));
        System.out.printf(
                "%-9s %8s %12s %12s %10s %10s %14s %16s%n",
                "ROLLOVER",
                "READING",
                "handover ms",
                "handover/p50",
                "window p50",
                "window max",
                "window max/p50",
                "control max/p50");
        boolean handoverWithin = true;
        boolean windowWithin = true;
        boolean controlWithin = true;
        for (int r = 0; r < handoverAt.size(); r++) {
            int at = handoverAt.get(r);
            List<Double> window = window(samples, at);
            // A window as wide, centred halfway since the previous rollover: what the machine's
            // noise alone gives, with no rollover in it.
            int previous = r == 0 ? 0 : handoverAt.get(r - 1);
            List<Double> control = window(samples, (previous + at) / 2);
            double max = percentile(window, 1.0);
            if (slowMs > 0) {
                // which readings of the window were slow, by offset from the one that took the handover over
                StringBuilder sb = new StringBuilder("  slower than " + slowMs + " ms at offset:");
                for (int k = Math.max(0, at - WINDOW); k < Math.min(samples.size(), at + WINDOW + 1); k++) {
                    if (samples.get(k) > slowMs) {
                        sb.append(String.format(Locale.ROOT, " %+d=%.2f", k - at, samples.get(k)));
                    }
                }
                System.out.println(sb);
            }
            double controlMax = percentile(control, 1.0);
            handoverWithin &= samples.get(at) <= 3 * median;
            windowWithin &= max <= 3 * median;
            controlWithin &= controlMax <= 3 * median;
            System.out.printf(
                    "%-9d %8d %12.3f %12.2f %10.3f %10.3f %14.2f %16.2f%n",
                    r + 1,
                    at,
                    samples.get(at),
                    samples.get(at) / median,
                    percentile(window, 0.5),
                    max,
                    max / median,
                    controlMax / median);
        }
        if (rate > 0 && median * 1e6 > 1e9 / rate) {
            // readings queued up behind each other: the figures are backlog, not latency
            System.out.printf("the signer did not keep up with %.0f readings/s: no answer at this rate%n", rate);
            return;
        }
        System.out.printf(
                "reading that took each handover over within 3x the median: %s%n", handoverWithin ? "yes" : "NO");
        System.out.printf(
                "slowest reading around every rollover within 3x the median: %s (control windows without a"
                        + " rollover: %s)%n",
                windowWithin ? "yes" : "NO", controlWithin ? "yes" : "NO");
    }

    /** Waits until {@code arrival} (System.nanoTime) unless it has passed; returns the arrival. */
    private static long awaitArrival(long arrival) {
        long wait;
        while ((wait = arrival - System.nanoTime()) > 0) {
            // park for most of the wait, spin the last bit: parking overshoots by tens of microseconds
            if (wait > 200_000) {
                LockSupport.parkNanos(wait - 100_000);
            } else {
                Thread.onSpinWait();
            }
        }
        return arrival;
    }

    /** The samples within {@link #WINDOW} readings either side of {@code centre}. */
    private static List<Double> window(List<Double> samples, int centre) {
        return samples.subList(Math.max(0, centre - WINDOW), Math.min(samples.size(), centre + WINDOW + 1));
    }

    private static double percentile(List<Double> values, double q) {
        double[] s = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(q * s.length) - (q == 0 ? 0 : 1))];
    }
}
