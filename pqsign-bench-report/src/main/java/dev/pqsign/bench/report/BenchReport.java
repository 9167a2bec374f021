package dev.pqsign.bench.report;

import java.util.List;

/**
 * Everything one {@code pqsign bench} run measured.
 *
 * @param command command line that produced it
 * @param machine machine and JVM description
 * @param startedUtc ISO-8601 start time
 * @param seconds wall time of the run
 * @param results timings, one per (scheme, op, impl, threads)
 * @param sizes key, signature and persisted-state sizes per (scheme, impl)
 * @param workingSets HAETAE engines' per-thread work areas (empty if not measured)
 * @param workingSetNote why the working sets are missing, or {@code null}
 * @param hashCounts SHA-256 compressions per XMSS operation (empty if not run)
 * @param hashCountNote why hash counts are missing, or {@code null}
 * @param opcua OPC UA demo results per link profile (empty if not run)
 * @param opcuaNote why the OPC UA results are missing, or {@code null}
 * @param notes further remarks for the report (e.g. unavailable measurements)
 */
public record BenchReport(
        String command,
        Machine machine,
        String startedUtc,
        double seconds,
        List<Result> results,
        List<Sizes> sizes,
        List<WorkingSet> workingSets,
        String workingSetNote,
        List<HashCount> hashCounts,
        String hashCountNote,
        List<OpcuaRun> opcua,
        String opcuaNote,
        List<String> notes) {

    /**
     * Copies the lists, so the report cannot change after it is made.
     *
     * @param command command line that produced it
     * @param machine machine and JVM description
     * @param startedUtc ISO-8601 start time
     * @param seconds wall time of the run
     * @param results timings, one per (scheme, op, impl, threads)
     * @param sizes key, signature and persisted-state sizes per (scheme, impl)
     * @param workingSets HAETAE engines' per-thread work areas (empty if not measured)
     * @param workingSetNote why the working sets are missing, or {@code null}
     * @param hashCounts SHA-256 compressions per XMSS operation (empty if not run)
     * @param hashCountNote why hash counts are missing, or {@code null}
     * @param opcua OPC UA demo results per link profile (empty if not run)
     * @param opcuaNote why the OPC UA results are missing, or {@code null}
     * @param notes further remarks for the report
     */
    public BenchReport {
        results = List.copyOf(results);
        sizes = List.copyOf(sizes);
        workingSets = List.copyOf(workingSets);
        hashCounts = List.copyOf(hashCounts);
        opcua = List.copyOf(opcua);
        notes = List.copyOf(notes);
    }

    /**
     * Timing of one operation.
     *
     * @param scheme parameter-set name
     * @param op keygen, sign or verify
     * @param impl pqsign, pqsign-compact, pqsign-v1.1.2, pqsign-compact-v1.1.2 or bouncycastle
     * @param threads threads the operation may use (XMSS keygen: all cores or 1; else 1)
     * @param stats milliseconds per call
     * @param allocatedBytes median bytes allocated by the measuring thread per call (-1: unknown)
     */
    public record Result(String scheme, String op, String impl, int threads, Stats stats, long allocatedBytes) {}

    /**
     * Sizes in bytes.
     *
     * @param scheme parameter-set name
     * @param impl pqsign or bouncycastle
     * @param publicKeyBytes encoded public key
     * @param privateKeyBytes encoded private key (pqsign XMSS: the persisted key state, which holds the seeds)
     * @param stateBytes persisted signing state (XMSS; pqsign: the 172-byte key state, BouncyCastle: its
     *     serialised private key with the BDS traversal state), -1 for stateless schemes
     * @param signatureMin shortest signature seen
     * @param signatureMax longest signature seen
     */
    public record Sizes(
            String scheme,
            String impl,
            int publicKeyBytes,
            int privateKeyBytes,
            int stateBytes,
            int signatureMin,
            int signatureMax) {}

    /**
     * Retained size of the per-thread work area an engine reuses for an operation
     * (handed to {@code dev.pqsign.bench.report.haetae.WorkAreaRecorder} through {@code dev.pqsign.haetae.HaetaeWorkAreaProbe}), measured with JOL after the operation ran.
     *
     * @param scheme HAETAE parameter set
     * @param op keygen, sign or verify
     * @param impl pqsign (fast engine: one area per set, shared by the three operations) or
     *     pqsign-compact (one area per operation, shared by the three sets)
     * @param bytes deep size of the area (JOL {@code GraphLayout#totalSize}), without the shared
     *     parameter-set constant it refers to
     */
    public record WorkingSet(String scheme, String op, String impl, long bytes) {}

    /**
     * SHA-256 work per XMSS operation, from {@code XmssHashCounter} in a child JVM.
     *
     * @param scheme XMSS^MT set name
     * @param op keygen (1 thread), load (open the stateful signer: rebuild caches), sign, verify
     * @param n operations counted
     * @param callsMean mean hash-function calls per operation
     * @param compressionsMean mean SHA-256 compressions per operation
     * @param compressionsMax most compressions of one operation
     */
    public record HashCount(
            String scheme, String op, int n, double callsMean, double compressionsMean, long compressionsMax) {}

    /**
     * One set of the OPC UA demo over one link profile (sensor server and operator client in this
     * process on loopback, the link emulated by a relay).
     *
     * @param link link profile name (ethernet or 5g)
     * @param scheme XMSS^MT set name
     * @param readings genuine readings published
     * @param accepted genuine readings the operator accepted
     * @param signatureBytes signature length in bytes
     * @param sign signing time (reserve + sign) at the sensor, ms
     * @param verify verification time (policy + durable replay state) at the operator, ms
     * @param transfer publish to the operator holding the values, ms
     * @param endToEnd start of signing to verdict, ms
     * @param endToEndSamplesMs end-to-end latency of each accepted reading (ms, in the order measured),
     *     the samples behind {@code endToEnd}
     */
    public record OpcuaRun(
            String link,
            String scheme,
            int readings,
            long accepted,
            int signatureBytes,
            Stats sign,
            Stats verify,
            Stats transfer,
            Stats endToEnd,
            List<Double> endToEndSamplesMs) {

        /**
         * Copies the samples, so the run cannot change after it is made.
         *
         * @param link link profile name (ethernet or 5g)
         * @param scheme XMSS^MT set name
         * @param readings genuine readings published
         * @param accepted genuine readings the operator accepted
         * @param signatureBytes signature length in bytes
         * @param sign signing time (reserve + sign) at the sensor, ms
         * @param verify verification time (policy + durable replay state) at the operator, ms
         * @param transfer publish to the operator holding the values, ms
         * @param endToEnd start of signing to verdict, ms
         * @param endToEndSamplesMs end-to-end latency of each accepted reading, ms, in the order measured
         */
        public OpcuaRun {
            endToEndSamplesMs = List.copyOf(endToEndSamplesMs);
        }
    }

    /**
     * Machine description.
     *
     * @param cores available processors
     * @param cpuModel the CPU model name ({@code /proc/cpuinfo}), or unknown
     * @param jvm JVM name, version and vendor, and which HAETAE FAST code path it runs
     * @param os OS name, version and architecture
     * @param maxHeapBytes the JVM's maximum heap
     * @param loadStart system load average at the start (negative if unknown)
     * @param loadEnd system load average at the end (negative if unknown)
     */
    public record Machine(
            int cores, String cpuModel, String jvm, String os, long maxHeapBytes, double loadStart, double loadEnd) {}
}
