package dev.pqsign.haetae;

/**
 * Service provider interface for tools that measure the engines' working sets (the benchmark report
 * takes their deep size with JOL). Neither engine allocates its buffers per call: {@link
 * HaetaeEngine#FAST} keeps one work area per thread and parameter set, shared by key generation,
 * signing and verification; {@link HaetaeEngine#COMPACT} keeps one per thread and operation, sized for
 * the largest set and shared by all sets. Each time an engine creates such an area, it tells every
 * probe found by {@link java.util.ServiceLoader} (looked up once, when the first area is created; a
 * provider that cannot be loaded, or a probe that throws, is ignored, so a probe can never make an
 * operation fail).
 *
 * <p>The area handed over is the creating thread's <em>live</em> work area: it holds secret
 * intermediate values while an operation runs, and the thread's next HAETAE operation overwrites it.
 * A probe must only measure it, never read or change its contents, and should keep it only while a
 * measurement asks for it. Not for applications: the engines work the same with or without a probe.
 */
public interface HaetaeWorkAreaProbe {

    /**
     * The calling thread has just created its {@link HaetaeEngine#FAST} work area for {@code set}.
     *
     * @param set the parameter set the area is for
     * @param area the work area (for size measurement only)
     */
    void fastAreaCreated(HaetaeParameterSet set, Object area);

    /**
     * The calling thread has just created its {@link HaetaeEngine#COMPACT} work area for one
     * operation.
     *
     * @param operation {@code "keygen"}, {@code "sign"} or {@code "verify"}
     * @param area the work area (for size measurement only)
     */
    void compactAreaCreated(String operation, Object area);
}
