package dev.pqsign.bench.report;

import dev.pqsign.bench.report.haetae.WorkAreaRecorder;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeParameterSet;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.openjdk.jol.info.GraphLayout;

/**
 * The HAETAE engines' working sets: the deep size (JOL) of the per-thread work area each engine reuses
 * for keygen, sign and verify, as {@link WorkAreaRecorder} kept them when the engines created them.
 * Run on the thread that ran the timed operations, so the areas exist and have been through every
 * operation; caller buffers are released at the end of each call, so what remains is what the engine
 * keeps.
 */
final class WorkingSets {
    static final String[] OPS = {"keygen", "sign", "verify"};

    private WorkingSets() {}

    /**
     * Measures the fast and compact engines' areas for {@code set}: one row per engine and operation.
     * An area the recorder did not keep (created before recording started) has no row.
     * JOL's start-up warnings (it prints them to {@code System.out}, which is the report's summary
     * stream) go to {@code log} instead.
     */
    static List<BenchReport.WorkingSet> measure(HaetaeParameterSet set, Consumer<String> log) {
        List<BenchReport.WorkingSet> out = new ArrayList<>();
        PrintStream stdout = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            // The fast engine's area refers to its parameter-set constant, which every thread shares.
            // size(area + set) - size(set) leaves it out whether or not the area refers to it; it is
            // arithmetic on two sizes, not JOL's address-based subtract(), which a GC between the two
            // walks could defeat.
            long shared = GraphLayout.parseInstance(set).totalSize();
            for (HaetaeEngine engine : HaetaeEngine.values()) {
                for (String op : OPS) {
                    Object area = WorkAreaRecorder.area(
                            engine == HaetaeEngine.FAST ? "fast " + set.setName() : "compact " + op);
                    if (area == null) {
                        continue;
                    }
                    long bytes = GraphLayout.parseInstance(area, set).totalSize() - shared;
                    out.add(new BenchReport.WorkingSet(set.setName(), op, HaetaeRows.impl(engine, null), bytes));
                }
            }
        } finally {
            System.setOut(stdout);
            for (String line : captured.toString(StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    log.accept("JOL: " + line.strip());
                }
            }
        }
        return out;
    }
}
