package dev.pqsign.haetae.internal;

import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeParameterSet;
import java.util.Objects;

/**
 * The per-thread work areas the engines reuse across calls, so that tools can measure their retained
 * size (the benchmark report takes their deep size with JOL). Neither engine allocates its buffers
 * per call: {@link HaetaeEngine#FAST} keeps one work area per thread and parameter set, shared by key
 * generation, signing and verification; {@link HaetaeEngine#COMPACT} keeps one per thread and
 * operation, sized for the largest set and shared by all sets. Those objects are an engine's working
 * set on the Java heap, besides the read-only static tables every thread shares.
 *
 * <p>Internal, for measurement only: the returned object is the calling thread's live work area (it
 * may hold secret intermediate values while an operation runs, and the thread's next HAETAE
 * operation overwrites it). The engines live in {@code dev.pqsign.haetae}, which installs the lookup
 * here once, when {@link HaetaeEngine} is initialised.
 */
public final class HaetaeWorkingSet {

    /** An operation, for engines that keep one work area per operation. */
    public enum Operation {
        KEYGEN,
        SIGN,
        VERIFY
    }

    /** The engines' side of the lookup; implemented in {@code dev.pqsign.haetae} only. */
    public interface Lookup {
        /** The calling thread's work area (see {@link HaetaeWorkingSet#forThread}). */
        Object forThread(HaetaeEngine engine, HaetaeParameterSet set, Operation operation);
    }

    private static volatile Lookup lookup;

    private HaetaeWorkingSet() {}

    /**
     * Installs the engines' lookup; called once by {@link HaetaeEngine}'s initialisation.
     *
     * @throws IllegalStateException if a lookup is installed already
     */
    public static synchronized void install(Lookup engines) {
        if (lookup != null) {
            throw new IllegalStateException("the HAETAE working-set lookup is installed already");
        }
        lookup = Objects.requireNonNull(engines, "engines");
    }

    /**
     * The calling thread's work area that {@code engine} uses for {@code operation} on {@code set},
     * created if the thread has not used it yet. FAST ignores {@code operation} (one area per set);
     * COMPACT ignores {@code set} (one area per operation).
     */
    public static Object forThread(HaetaeEngine engine, HaetaeParameterSet set, Operation operation) {
        Objects.requireNonNull(engine, "engine"); // a constant of HaetaeEngine: the lookup is installed
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(operation, "operation");
        return lookup.forThread(engine, set, operation);
    }
}
