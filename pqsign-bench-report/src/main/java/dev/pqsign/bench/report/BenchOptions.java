package dev.pqsign.bench.report;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a report run measures and for how long.
 *
 * <p>Each (scheme, operation, implementation) is first warmed up for {@code warmupMs} (at least
 * {@code minWarmup} calls), then sampled until {@code measureMs} have passed and at least
 * {@code minSamples} samples exist, or {@code maxSamples} samples exist. One thread; XMSS keygen is
 * measured both with all cores and with one thread.
 *
 * @param schemes scheme names to run (XMSS^MT set names, HAETAE-2/3/5, ML-DSA-44/65/87); empty: all
 * @param warmupMs warm-up time per case
 * @param minWarmup warm-up calls per case at least
 * @param measureMs measuring time per case
 * @param minSamples samples per case at least
 * @param maxSamples samples per case at most
 * @param bouncyCastle also measure BouncyCastle 1.87
 * @param hashCounts run the child JVM that counts SHA-256 compressions per XMSS operation
 * @param hashSigns signatures per set in the counting pass
 * @param opcua run the OPC UA demo over the ethernet and 5g link profiles
 * @param opcuaReadings readings per set and link in the OPC UA demo (5g: at most this)
 * @param opcuaWarmup warm-up readings per set in the OPC UA demo
 * @param command the command line to print in the report header
 * @param log progress lines (never null)
 */
public record BenchOptions(
        List<String> schemes,
        long warmupMs,
        int minWarmup,
        long measureMs,
        int minSamples,
        int maxSamples,
        boolean bouncyCastle,
        boolean hashCounts,
        int hashSigns,
        boolean opcua,
        int opcuaReadings,
        int opcuaWarmup,
        String command,
        Consumer<String> log) {

    /** The XMSS^MT sets of the study, then XMSSMT-SHA2_20/2_256. */
    public static final List<String> XMSS_SETS =
            List.of("XMSSMT-SHA2_10/2_256", "XMSSMT-SHA2_20/4_256", "XMSSMT-SHA2_30/6_256", "XMSSMT-SHA2_20/2_256");

    /** The HAETAE parameter sets, measured with both engines. */
    public static final List<String> HAETAE_SETS = List.of("HAETAE-2", "HAETAE-3", "HAETAE-5");

    /**
     * The LMS / HSS sets (issue 29): three single trees and a two-level hierarchy. The height-20 set
     * is run only when named ({@link #includes}), because a key generation builds all 2^20 leaves.
     */
    public static final List<String> LMS_SETS = List.of(
            "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4",
            "LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W4",
            "LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8",
            "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4");

    /** The LMS set measured only when named explicitly. */
    static final String LMS_ON_REQUEST = "LMS_SHA256_M32_H20/LMOTS_SHA256_N32_W8";

    /** The ML-DSA sets, measured with BouncyCastle only. */
    public static final List<String> MLDSA_SETS = List.of("ML-DSA-44", "ML-DSA-65", "ML-DSA-87");

    /**
     * Checks the options and copies the scheme list.
     *
     * @param schemes scheme names to run; empty: all
     * @param warmupMs warm-up time per case, ms
     * @param minWarmup warm-up calls per case at least
     * @param measureMs measuring time per case, ms
     * @param minSamples samples per case at least (1 or more)
     * @param maxSamples samples per case at most (at least {@code minSamples})
     * @param bouncyCastle also measure BouncyCastle 1.87
     * @param hashCounts run the child JVM that counts SHA-256 compressions per XMSS operation
     * @param hashSigns signatures per set in the counting pass (1 or more)
     * @param opcua run the OPC UA demo over the ethernet and 5g link profiles
     * @param opcuaReadings readings per set and link in the OPC UA demo (1 or more)
     * @param opcuaWarmup warm-up readings per set in the OPC UA demo
     * @param command the command line to print in the report header
     * @param log progress lines
     * @throws IllegalArgumentException if a count or time is out of range (negative; fewer than one
     *     sample, hash signature or OPC UA reading; {@code maxSamples < minSamples}) or a scheme name is unknown
     * @throws NullPointerException if {@code command} or {@code log} is null
     */
    public BenchOptions {
        schemes = List.copyOf(schemes);
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(log, "log");
        if (warmupMs < 0
                || minWarmup < 0
                || measureMs < 0
                || minSamples < 1
                || maxSamples < minSamples
                || hashSigns < 1
                || opcuaReadings < 1
                || opcuaWarmup < 0) {
            throw new IllegalArgumentException("invalid benchmark options");
        }
        for (String s : schemes) {
            if (!XMSS_SETS.contains(s)
                    && !HAETAE_SETS.contains(s)
                    && !MLDSA_SETS.contains(s)
                    && !LMS_SETS.contains(s)) {
                throw new IllegalArgumentException("unknown scheme '" + s + "' (known: " + String.join(", ", XMSS_SETS)
                        + ", " + String.join(", ", HAETAE_SETS) + ", " + String.join(", ", MLDSA_SETS) + ", "
                        + String.join(", ", LMS_SETS) + ")");
            }
        }
    }

    /**
     * The full run (default of {@code pqsign bench}): several minutes (docs/benchmarks.md).
     *
     * @param command the command line to print in the report header
     * @param log receives the progress lines
     * @return every scheme, BouncyCastle, hash counts and the OPC UA demo, with the full time budgets
     */
    public static BenchOptions full(String command, Consumer<String> log) {
        return new BenchOptions(List.of(), 1500, 1, 5000, 10, 5000, true, true, 256, true, 100, 20, command, log);
    }

    /**
     * {@code --quick}: a few minutes, figures less stable (docs/benchmarks.md).
     *
     * @param command the command line to print in the report header
     * @param log receives the progress lines
     * @return every part of {@link #full}, with shorter time budgets and fewer samples
     */
    public static BenchOptions quick(String command, Consumer<String> log) {
        return new BenchOptions(List.of(), 300, 1, 800, 3, 2000, true, true, 64, true, 20, 5, command, log);
    }

    /**
     * Whether the run measures {@code scheme}.
     *
     * @param scheme a scheme name as in {@link #XMSS_SETS}, {@link #HAETAE_SETS} or {@link #MLDSA_SETS}
     * @return true if {@link #schemes} is empty (all but the height-20 LMS set) or names it
     */
    public boolean includes(String scheme) {
        if (scheme.equals(LMS_ON_REQUEST)) {
            return schemes.contains(scheme);
        }
        return schemes.isEmpty() || schemes.contains(scheme);
    }

    /**
     * These options with other schemes.
     *
     * @param s the scheme names to run; empty: all
     * @return the changed copy
     * @throws IllegalArgumentException if a name is unknown
     */
    public BenchOptions withSchemes(List<String> s) {
        return with(d -> d.schemes = s);
    }

    /**
     * These options with the OPC UA demo switched on or off.
     *
     * @param on whether to run the demo
     * @return the changed copy
     */
    public BenchOptions withOpcua(boolean on) {
        return with(d -> d.opcua = on);
    }

    /**
     * These options with the hash-count child JVM switched on or off.
     *
     * @param on whether to count SHA-256 compressions
     * @return the changed copy
     */
    public BenchOptions withHashCounts(boolean on) {
        return with(d -> d.hashCounts = on);
    }

    /**
     * These options with the BouncyCastle measurements switched on or off.
     *
     * @param on whether to measure BouncyCastle beside pqsign
     * @return the changed copy
     */
    public BenchOptions withBouncyCastle(boolean on) {
        return with(d -> d.bouncyCastle = on);
    }

    /**
     * Fixed sample counts and no time budget beyond them, for tests. The hash-count pass signs
     * {@code samples} times per set (at least once).
     *
     * @param warmup warm-up calls per case (0 or more)
     * @param samples samples per case (at least 1)
     * @return the changed copy
     * @throws IllegalArgumentException if {@code warmup} is negative or {@code samples} is below 1
     */
    public BenchOptions withIterations(int warmup, int samples) {
        return with(d -> {
            d.warmupMs = 0;
            d.minWarmup = warmup;
            d.measureMs = 0;
            d.minSamples = samples;
            d.maxSamples = samples;
            d.hashSigns = Math.max(1, samples);
        });
    }

    private BenchOptions with(Consumer<Draft> change) {
        Draft d = new Draft(this);
        change.accept(d);
        return d.build();
    }

    /** A copy of the options that a {@code with…} method changes in place before building the result. */
    private static final class Draft {
        List<String> schemes;
        long warmupMs;
        int minWarmup;
        long measureMs;
        int minSamples;
        int maxSamples;
        boolean bouncyCastle;
        boolean hashCounts;
        int hashSigns;
        boolean opcua;
        final int opcuaReadings;
        final int opcuaWarmup;
        final String command;
        final Consumer<String> log;

        Draft(BenchOptions o) {
            schemes = o.schemes;
            warmupMs = o.warmupMs;
            minWarmup = o.minWarmup;
            measureMs = o.measureMs;
            minSamples = o.minSamples;
            maxSamples = o.maxSamples;
            bouncyCastle = o.bouncyCastle;
            hashCounts = o.hashCounts;
            hashSigns = o.hashSigns;
            opcua = o.opcua;
            opcuaReadings = o.opcuaReadings;
            opcuaWarmup = o.opcuaWarmup;
            command = o.command;
            log = o.log;
        }

        BenchOptions build() {
            return new BenchOptions(
                    schemes,
                    warmupMs,
                    minWarmup,
                    measureMs,
                    minSamples,
                    maxSamples,
                    bouncyCastle,
                    hashCounts,
                    hashSigns,
                    opcua,
                    opcuaReadings,
                    opcuaWarmup,
                    command,
                    log);
        }
    }
}
