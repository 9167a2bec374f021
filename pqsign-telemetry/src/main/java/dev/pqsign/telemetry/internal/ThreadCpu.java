package dev.pqsign.telemetry.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** The calling thread's CPU time, for costs measured in the product itself (time waiting for a core not counted). */
public final class ThreadCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean SUPPORTED = THREADS.isCurrentThreadCpuTimeSupported();

    private ThreadCpu() {}

    /**
     * The calling thread's CPU time so far.
     *
     * @return nanoseconds, comparable only with other values of the same thread; 0 where the JVM cannot tell
     */
    public static long nanos() {
        return SUPPORTED ? THREADS.getCurrentThreadCpuTime() : 0;
    }
}
