package dev.pqsign.bench.report;

import dev.pqsign.haetae.HaetaeEngine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine and JVM a report was measured on. */
final class MachineInfo {
    private MachineInfo() {}

    static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    /** The machine, the JVM and which HAETAE FAST code path this JVM runs (fixed when it starts). */
    static BenchReport.Machine describe(double loadStart, double loadEnd) {
        return new BenchReport.Machine(
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                        + System.getProperty("java.vendor") + ")" + haetaePath(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                Runtime.getRuntime().maxMemory(),
                loadStart,
                loadEnd);
    }

    /** Which HAETAE FAST signing path this JVM measures. */
    static String haetaePath() {
        return "; HAETAE FAST engine: " + HaetaeEngine.fastPathDescription();
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
