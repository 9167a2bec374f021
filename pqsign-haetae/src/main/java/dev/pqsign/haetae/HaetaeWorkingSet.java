package dev.pqsign.haetae;

import java.util.Objects;

/**
 * The per-thread work areas the engines reuse across calls, exposed so that tools can measure their
 * retained size (the benchmark report takes their deep size with JOL). Neither engine allocates its
 * buffers per call: {@link HaetaeEngine#FAST} keeps one work area per thread and parameter set, shared
 * by key generation, signing and verification; {@link HaetaeEngine#COMPACT} keeps one per thread and
 * operation, sized for the largest set and shared by all sets. Those objects are an engine's working
 * set on the Java heap, besides the read-only static tables every thread shares.
 *
 * <p>For measurement only. The returned object is of an internal type and opaque without reflection;
 * it belongs to the calling thread, whose next HAETAE operation overwrites it.
 */
public final class HaetaeWorkingSet {

    /** An operation, for engines that keep one work area per operation. */
    public enum Operation {
        KEYGEN, SIGN, VERIFY
    }

    private HaetaeWorkingSet() {
    }

    /**
     * The calling thread's work area that {@code engine} uses for {@code operation} on {@code set},
     * created if the thread has not used it yet. FAST ignores {@code operation} (one area per set);
     * COMPACT ignores {@code set} (one area per operation).
     */
    public static Object forThread(HaetaeEngine engine, HaetaeParameterSet set, Operation operation) {
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(operation, "operation");
        switch (Objects.requireNonNull(engine, "engine")) {
            case FAST:
                return HaetaeContext.forThread(set);
            case COMPACT:
                return CompactEngine.forThread(CompactEngine.Op.valueOf(operation.name()));
            default:
                throw new IllegalArgumentException("unknown engine " + engine);
        }
    }
}
