package dev.pqsign.bench.report.haetae;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeWorkAreaProbe;
import java.util.HashMap;
import java.util.Map;

/**
 * The report's {@link HaetaeWorkAreaProbe} (registered with {@link java.util.ServiceLoader}): keeps
 * the work areas the HAETAE engines create on each thread, but only while {@link #record} is on, so
 * that JVMs that merely have this module on their class path (every CLI command) keep nothing. The
 * areas are only measured (the report's working-set rows), never read. In a package of its own that the module does not export, so the report's API shows no HAETAE type.
 */
public final class WorkAreaRecorder implements HaetaeWorkAreaProbe {
    private static volatile boolean on;
    private static final ThreadLocal<Map<String, Object>> AREAS = ThreadLocal.withInitial(HashMap::new);

    /** Creates the probe; {@link java.util.ServiceLoader} does, when the first HAETAE work area is created. */
    public WorkAreaRecorder() {}

    /** Starts (or stops) keeping the areas created from now on. */
    public static void record(boolean record) {
        on = record;
    }

    /** The calling thread's area for {@code key} ("fast HAETAE-2", "compact sign", ...), or null if none was kept. */
    public static Object area(String key) {
        return AREAS.get().get(key);
    }

    /** Drops the calling thread's areas. */
    public static void clear() {
        AREAS.remove();
    }

    @Override
    public void fastAreaCreated(HaetaeParameterSet set, Object area) {
        if (on) {
            AREAS.get().put("fast " + set.setName(), area);
        }
    }

    @Override
    public void compactAreaCreated(String operation, Object area) {
        if (on) {
            AREAS.get().put("compact " + operation, area);
        }
    }
}
