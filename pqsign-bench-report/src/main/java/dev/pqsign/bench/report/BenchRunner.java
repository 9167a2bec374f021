package dev.pqsign.bench.report;

import dev.pqsign.bench.report.BenchReport.HashCount;
import dev.pqsign.bench.report.BenchReport.OpcuaRun;
import dev.pqsign.bench.report.haetae.WorkAreaRecorder;
import dev.pqsign.demo.LinkProfile;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.xmss.XmssParameterSet;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Runs the report's measurements: keygen, sign and verify of XMSS^MT, LMS / HSS, HAETAE and ML-DSA, pqsign
 * beside BouncyCastle 1.87, all on the calling thread, followed by the hash-count child JVM and the
 * OPC UA demo.
 */
public final class BenchRunner {
    /** A telemetry-sized message, as signed by the sensor. */
    static final byte[] MESSAGE = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);

    private final BenchOptions o;
    private final Measurements m;

    /**
     * A part of the report that may not have run: its rows, or a note why not.
     *
     * @param rows what was measured (empty if nothing)
     * @param note why the rows are missing, or {@code null}
     */
    private record Part<T>(List<T> rows, String note) {}

    private BenchRunner(BenchOptions o) {
        this.o = o;
        this.m = new Measurements(o);
    }

    /**
     * Runs everything {@code options} asks for.
     *
     * @param options what to measure and for how long
     * @return the measurements; a hash-count or OPC UA part that was not run or failed has a note instead
     * @throws Exception if a timed case fails, or a signature made there does not verify
     */
    public static BenchReport run(BenchOptions options) throws Exception {
        // keep the HAETAE work areas this thread's engines create, for the working-set rows
        WorkAreaRecorder.record(true);
        try {
            return new BenchRunner(options).runAll();
        } finally {
            WorkAreaRecorder.record(false);
            WorkAreaRecorder.clear();
        }
    }

    private BenchReport runAll() throws Exception {
        String started = Instant.now().toString();
        double loadStart = MachineInfo.loadAverage();
        long t0 = System.nanoTime();
        HaetaeRows haetae = timedRows();
        List<String> xmssSets = selected(BenchOptions.XMSS_SETS);
        Part<HashCount> hashes = hashCounts(xmssSets);
        Part<OpcuaRun> opcua = opcua(xmssSets);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new BenchReport(
                o.command(),
                MachineInfo.describe(loadStart, MachineInfo.loadAverage()),
                started,
                seconds,
                m.results(),
                m.sizes(),
                haetae.workingSets(),
                haetae.workingSetNote(),
                hashes.rows(),
                hashes.note(),
                opcua.rows(),
                opcua.note(),
                m.notes());
    }

    /** The schemes of {@code all} that the options select, in that order. */
    private List<String> selected(List<String> all) {
        return all.stream().filter(o::includes).toList();
    }

    /** The timed rows on this thread, family by family; returns the HAETAE rows for their working sets. */
    private HaetaeRows timedRows() throws Exception {
        List<String> xmssSets = selected(BenchOptions.XMSS_SETS);
        XmssRows xmss = new XmssRows(m);
        if (!xmssSets.isEmpty()) {
            xmss.warmUp();
        }
        for (String s : xmssSets) {
            xmss.run(XmssParameterSet.byName(s).orElseThrow());
        }
        for (String s : selected(BenchOptions.LMS_SETS)) {
            new LmsRows(o, m.results(), m.sizes(), m.notes())
                    .run(HssParameterSet.byName(s).orElseThrow());
        }
        List<HaetaeParameterSet> haetaeSets = Arrays.stream(HaetaeParameterSet.values())
                .filter(p -> o.includes(p.setName()))
                .toList();
        HaetaeRows haetae = new HaetaeRows(m);
        // FAST runs one path for the whole JVM, fixed at start (scalar unless opted in to the Vector
        // API path); the report's JVM line says which.
        haetae.warmUpVectorPath(haetaeSets);
        for (HaetaeParameterSet p : haetaeSets) {
            haetae.run(p);
        }
        if (o.bouncyCastle()) {
            for (String s : selected(BenchOptions.MLDSA_SETS)) {
                BcLatticeRows.mldsa(m, s);
            }
        }
        if (Arrays.stream(HaetaeEngine.values()).noneMatch(e -> e.name().equals("COMPACT"))) {
            m.note("The HAETAE compact engine is not in this build.");
        }
        if (!haetae.workingSets().isEmpty()) {
            m.note("HAETAE working set: JOL deep size of each engine's per-thread work area (pqsign-haetae "
                    + "HaetaeWorkAreaProbe) after the timed operations, without the shared parameter-set constant; "
                    + "fast engine: one area per set for all operations, compact engine: one per operation for all "
                    + "sets.");
        }
        return haetae;
    }

    /** SHA-256 work per operation, counted in child JVMs: the XMSS^MT sets, then the LMS / HSS sets. */
    private Part<HashCount> hashCounts(List<String> xmssSets) {
        Part<HashCount> xmss = xmssHashCounts(xmssSets);
        List<String> lmsSets = selected(BenchOptions.LMS_SETS).stream()
                .filter(s -> !s.equals(BenchOptions.LMS_ON_REQUEST))
                .toList();
        if (!o.hashCounts() || lmsSets.isEmpty()) {
            return xmss;
        }
        Part<HashCount> all = xmss;
        o.log().accept("hash counts: child JVM with " + LmsHashCounts.FLAG);
        try {
            List<HashCount> counts = new ArrayList<>(xmss.rows());
            counts.addAll(HashCounts.runChild(LmsHashCounts.class, LmsHashCounts.FLAG, lmsSets, o.hashSigns()));
            // the LMS counts fill the table when no XMSS set was selected; an XMSS failure keeps its note
            all = new Part<>(counts, xmssSets.isEmpty() ? null : xmss.note());
        } catch (Exception e) {
            m.note("LMS hash counts: child JVM failed: " + e.getMessage());
            o.log().accept("LMS hash counts failed: " + e.getMessage());
        }
        if (o.includes(BenchOptions.LMS_ON_REQUEST)) {
            m.note(BenchOptions.LMS_ON_REQUEST + ": no hash counts (the counting JVM would build its 2^20-leaf "
                    + "tree twice on one thread).");
        }
        return all;
    }

    private Part<HashCount> xmssHashCounts(List<String> xmssSets) {
        if (!o.hashCounts()) {
            return new Part<>(List.of(), "not run (disabled)");
        }
        if (xmssSets.isEmpty()) {
            return new Part<>(List.of(), "not run (no XMSS set selected)");
        }
        o.log().accept("hash counts: child JVM with -Dpqsign.xmss.countHashes=true");
        try {
            return new Part<>(HashCounts.runChild(xmssSets, o.hashSigns()), null);
        } catch (Exception e) {
            o.log().accept("hash counts failed: " + e.getMessage());
            return new Part<>(List.of(), "child JVM failed: " + e.getMessage());
        }
    }

    /** The OPC UA demo over every link profile, for the study's three XMSS^MT sets among those selected. */
    private Part<OpcuaRun> opcua(List<String> xmssSets) {
        List<String> studySets =
                xmssSets.stream().filter(s -> !s.equals("XMSSMT-SHA2_20/2_256")).toList();
        if (!o.opcua()) {
            return new Part<>(List.of(), "not run (disabled)");
        }
        if (studySets.isEmpty()) {
            return new Part<>(List.of(), "not run (none of the study's three XMSS^MT sets selected)");
        }
        try {
            List<OpcuaRun> runs = OpcuaLatency.run(studySets, o);
            m.note("OPC UA link profiles (pqsign-demo LinkProfile): " + linkProfiles() + ". The latency chart is the "
                    + "empirical distribution of every accepted reading's end-to-end latency per set and link.");
            return new Part<>(runs, null);
        } catch (Exception e) {
            String note = "OPC UA demo failed: " + e;
            o.log().accept(note);
            return new Part<>(List.of(), note);
        }
    }

    private static String linkProfiles() {
        StringBuilder links = new StringBuilder();
        for (LinkProfile l : OpcuaLatency.LINKS) {
            links.append(links.length() == 0 ? "" : "; ")
                    .append(String.format(
                            Locale.ROOT,
                            "%s: %.2f ms one way, jitter up to %.2f ms, %.2f Mbit/s",
                            l.name(),
                            l.oneWayDelayMs(),
                            l.jitterMs(),
                            l.bandwidthMbitPerS()));
        }
        return links.toString();
    }
}
