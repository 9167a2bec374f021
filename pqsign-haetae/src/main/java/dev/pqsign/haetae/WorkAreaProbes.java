package dev.pqsign.haetae;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** The registered {@link HaetaeWorkAreaProbe}s, told about each work area an engine creates. */
final class WorkAreaProbes {
    private WorkAreaProbes() {}

    /** Loaded when the first work area is created (this class is only touched then). */
    private static final List<HaetaeWorkAreaProbe> PROBES = load();

    private static List<HaetaeWorkAreaProbe> load() {
        List<HaetaeWorkAreaProbe> found = new ArrayList<>();
        try {
            for (HaetaeWorkAreaProbe p :
                    ServiceLoader.load(HaetaeWorkAreaProbe.class, HaetaeWorkAreaProbe.class.getClassLoader())) {
                found.add(p);
            }
        } catch (ServiceConfigurationError e) {
            // a broken provider must not make signing fail: measurement is optional
            return List.of();
        }
        return List.copyOf(found);
    }

    static <T> T fast(HaetaeParameterSet set, T area) {
        for (HaetaeWorkAreaProbe p : PROBES) {
            try {
                p.fastAreaCreated(set, area);
            } catch (RuntimeException e) {
                // ignored: see HaetaeWorkAreaProbe
            }
        }
        return area;
    }

    static <T> T compact(String operation, T area) {
        for (HaetaeWorkAreaProbe p : PROBES) {
            try {
                p.compactAreaCreated(operation, area);
            } catch (RuntimeException e) {
                // ignored: see HaetaeWorkAreaProbe
            }
        }
        return area;
    }
}
