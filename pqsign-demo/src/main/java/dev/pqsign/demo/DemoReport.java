package dev.pqsign.demo;

import dev.pqsign.telemetry.LatencySeries.Summary;
import java.util.List;
import java.util.Locale;

/**
 * Results of a {@link DemoRunner} run: one row per parameter set, printable as a table in the
 * style of the study's Table 6 and as JSON.
 *
 * @param sets one result per set, in run order
 */
public record DemoReport(List<SetResult> sets) {

    /**
     * Copies the list, so the report cannot change after it is made.
     *
     * @param sets one result per set, in run order
     */
    public DemoReport {
        sets = List.copyOf(sets);
    }

    /**
     * One set's results. Injected readings are not counted in {@code readings} or {@code accepted}.
     *
     * @param name set label
     * @param readings genuine readings published
     * @param accepted genuine readings the operator accepted
     * @param injectedTampered tampered readings injected
     * @param rejectedTampered tampered readings rejected as BAD_SIGNATURE
     * @param injectedReplayed replayed readings injected
     * @param rejectedReplayed replayed readings rejected as REPLAYED
     * @param signatureBytes signature length
     * @param sign signing time (reserve + sign) at the sensor
     * @param verify verification time (policy + durable replay state) at the operator
     * @param transfer publish → operator holds the values
     * @param endToEnd start of signing → verdict
     * @param sensors number of sensors K
     * @param lost genuine readings without a verdict within the timeout
     * @param rejectedGenuine genuine readings rejected (should be 0)
     * @param seconds wall time of the set's run
     * @param readingsPerSecond accepted readings per second over all sensors
     * @param link link profile name
     * @param cpuMsPerReading CPU time of the whole process (sensors, operator, relays) per accepted
     *     reading during the set's run; with the machine's core count it bounds the throughput
     *     independently of other load ({@code NaN} if the JVM cannot tell)
     * @param jitCompileMs time the JIT compiler threads spent compiling during the set's run (part of
     *     {@code cpuMsPerReading}'s CPU that a longer-running process would not pay; {@code NaN} if the
     *     JVM cannot tell)
     * @param endToEndMs end-to-end latency of each accepted reading in milliseconds, in the order
     *     measured (the samples behind {@code endToEnd}, for distribution charts); not in the JSON
     * @param gaps indices the operator reported missing ({@code GAP}; should be 0)
     * @param duplicates readings the operator reported as {@code DUPLICATE}
     */
    public record SetResult(
            String name,
            int readings,
            long accepted,
            long injectedTampered,
            long rejectedTampered,
            long injectedReplayed,
            long rejectedReplayed,
            int signatureBytes,
            Summary sign,
            Summary verify,
            Summary transfer,
            Summary endToEnd,
            int sensors,
            long lost,
            long rejectedGenuine,
            double seconds,
            double readingsPerSecond,
            String link,
            double cpuMsPerReading,
            double jitCompileMs,
            List<Double> endToEndMs,
            long gaps,
            long duplicates) {

        /**
         * Copies the latency samples, so the result cannot change after it is made.
         *
         * @param name set label
         * @param readings genuine readings published
         * @param accepted genuine readings the operator accepted
         * @param injectedTampered tampered readings injected
         * @param rejectedTampered tampered readings rejected as BAD_SIGNATURE
         * @param injectedReplayed replayed readings injected
         * @param rejectedReplayed replayed readings rejected as REPLAYED
         * @param signatureBytes signature length
         * @param sign signing time (reserve + sign) at the sensor
         * @param verify verification time (policy + durable replay state) at the operator
         * @param transfer publish → operator holds the values
         * @param endToEnd start of signing → verdict
         * @param sensors number of sensors K
         * @param lost genuine readings without a verdict within the timeout
         * @param rejectedGenuine genuine readings rejected (should be 0)
         * @param seconds wall time of the set's run
         * @param readingsPerSecond accepted readings per second over all sensors
         * @param link link profile name
         * @param cpuMsPerReading process CPU time per accepted reading during the set's run, ms ({@code NaN} if
         *     unknown)
         * @param jitCompileMs JIT compilation time during the set's run, ms ({@code NaN} if unknown)
         * @param endToEndMs end-to-end latency of each accepted reading, ms, in the order measured
         * @param gaps indices the operator reported missing ({@code GAP}; should be 0)
         * @param duplicates readings the operator reported as {@code DUPLICATE}
         */
        public SetResult {
            endToEndMs = List.copyOf(endToEndMs);
        }
    }

    /**
     * The report as JSON of exactly the agreed shape: {@code {"sets":[{"name":…,"readings":…,
     * "accepted":…,"injected_tampered":…,"rejected_tampered":…,"injected_replayed":…,
     * "rejected_replayed":…,"signature_bytes":…,"sign_ms":{"p50":…,"p99":…,"max":…},
     * "verify_ms":{…},"transfer_ms":{…},"end_to_end_ms":{…},"gaps":…,"duplicates":…}]}}. Milliseconds
     * with three decimals.
     *
     * @return the JSON document, one line
     */
    public String toJson() {
        return json(false);
    }

    /**
     * {@link #toJson()} with seven more keys per set after the agreed ones: {@code "sensors"},
     * {@code "lost"}, {@code "rejected_genuine"}, {@code "readings_per_second"}, {@code "link"},
     * {@code "cpu_ms_per_reading"}, {@code "jit_compile_ms"} (the K-sensor throughput report).
     *
     * @return the JSON document, one line
     */
    public String toJsonWithThroughput() {
        return json(true);
    }

    private String json(boolean extras) {
        StringBuilder sb = new StringBuilder("{\"sets\":[");
        for (int i = 0; i < sets.size(); i++) {
            SetResult s = sets.get(i);
            if (i > 0) {
                sb.append(',');
            }
            sb.append("{\"name\":")
                    .append(quote(s.name()))
                    .append(",\"readings\":")
                    .append(s.readings())
                    .append(",\"accepted\":")
                    .append(s.accepted())
                    .append(",\"injected_tampered\":")
                    .append(s.injectedTampered())
                    .append(",\"rejected_tampered\":")
                    .append(s.rejectedTampered())
                    .append(",\"injected_replayed\":")
                    .append(s.injectedReplayed())
                    .append(",\"rejected_replayed\":")
                    .append(s.rejectedReplayed())
                    .append(",\"signature_bytes\":")
                    .append(s.signatureBytes())
                    .append(",\"sign_ms\":")
                    .append(summary(s.sign()))
                    .append(",\"verify_ms\":")
                    .append(summary(s.verify()))
                    .append(",\"transfer_ms\":")
                    .append(summary(s.transfer()))
                    .append(",\"end_to_end_ms\":")
                    .append(summary(s.endToEnd()))
                    .append(",\"gaps\":")
                    .append(s.gaps())
                    .append(",\"duplicates\":")
                    .append(s.duplicates());
            if (extras) {
                sb.append(",\"sensors\":")
                        .append(s.sensors())
                        .append(",\"lost\":")
                        .append(s.lost())
                        .append(",\"rejected_genuine\":")
                        .append(s.rejectedGenuine())
                        .append(",\"readings_per_second\":")
                        .append(num(s.readingsPerSecond()))
                        .append(",\"link\":")
                        .append(quote(s.link()))
                        .append(",\"cpu_ms_per_reading\":")
                        .append(num(s.cpuMsPerReading()))
                        .append(",\"jit_compile_ms\":")
                        .append(num(s.jitCompileMs()));
            }
            sb.append('}');
        }
        return sb.append("]}").toString();
    }

    /**
     * A fixed-width table like the study's Table 6 (averages and percentiles in milliseconds).
     *
     * @return a header line and one line per set, each ending in a line separator
     */
    public String toTable() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "%-24s %9s %9s %9s %9s %9s %9s %8s %7s %7s %9s %10s %7s %7s %5s %5s%n",
                "parameter set",
                "sign avg",
                "verify avg",
                "xfer p50",
                "e2e p50",
                "e2e p99",
                "e2e max",
                "sig B",
                "tamper",
                "replay",
                "accepted",
                "readings/s",
                "cpu ms",
                "jit ms",
                "gaps",
                "dups"));
        for (SetResult s : sets) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-24s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %8d %3d/%-3d %3d/%-3d %9s %10.1f %7.3f %7.0f %5d %5d%n",
                    s.name(),
                    s.sign().mean(),
                    s.verify().mean(),
                    s.transfer().p50(),
                    s.endToEnd().p50(),
                    s.endToEnd().p99(),
                    s.endToEnd().max(),
                    s.signatureBytes(),
                    s.rejectedTampered(),
                    s.injectedTampered(),
                    s.rejectedReplayed(),
                    s.injectedReplayed(),
                    s.accepted() + "/" + s.readings(),
                    s.readingsPerSecond(),
                    s.cpuMsPerReading(),
                    s.jitCompileMs(),
                    s.gaps(),
                    s.duplicates()));
        }
        return sb.toString();
    }

    private static String summary(Summary s) {
        return "{\"p50\":" + num(s.p50()) + ",\"p99\":" + num(s.p99()) + ",\"max\":" + num(s.max()) + "}";
    }

    private static String num(double d) {
        if (!Double.isFinite(d)) {
            return "null";
        }
        return String.format(Locale.ROOT, "%.3f", d);
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
