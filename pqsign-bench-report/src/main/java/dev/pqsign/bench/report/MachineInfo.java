package dev.pqsign.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine and JVM a report was measured on. */
final class MachineInfo {
    private MachineInfo() {
    }

    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    static BenchReport.Machine describe(double loadStart, double loadEnd) {
        return describe(loadStart, loadEnd, null);
    }

    /**
     * @param haetaeVectorAtStart whether the HAETAE FAST vector path was on when the HAETAE rows
     *        started (null if none ran): the JVM line then says if it switched on during them
     */
    static BenchReport.Machine describe(double loadStart, double loadEnd, Boolean haetaeVectorAtStart) {
        return new BenchReport.Machine(Runtime.getRuntime().availableProcessors(), cpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                        + System.getProperty("java.vendor") + ")" + haetaePath(haetaeVectorAtStart),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                Runtime.getRuntime().maxMemory(), loadStart, loadEnd);
    }

    /** Which HAETAE FAST signing path this JVM measures (the Vector API one needs a JVM flag). */
    static String haetaePath(Boolean vectorAtStart) {
        int lanes = dev.pqsign.haetae.HaetaeEngine.fastVectorLanes();
        if (lanes == 0) {
            return "; HAETAE FAST engine: scalar path (JVM without jdk.incubator.vector)";
        }
        boolean ready;
        try {
            ready = dev.pqsign.haetae.HaetaeEngine.awaitFastVectorPath(0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ready = false;
        }
        if (!ready) {
            return "; HAETAE FAST engine: scalar path (Vector API kernels never ran compiled)";
        }
        if (Boolean.FALSE.equals(vectorAtStart)) {
            return "; HAETAE FAST engine: scalar path for the first HAETAE rows, Vector API path (" + lanes
                    + " lanes) from a later row on (its warm-up finished during the run)";
        }
        return "; HAETAE FAST engine: Vector API path, " + lanes + " lanes (jdk.incubator.vector)";
    }

    /** The first "model name" of /proc/cpuinfo, or "unknown". */
    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    int c = line.indexOf(':');
                    if (c > 0) {
                        return line.substring(c + 1).trim();
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux or not readable
        }
        return "unknown";
    }
}
