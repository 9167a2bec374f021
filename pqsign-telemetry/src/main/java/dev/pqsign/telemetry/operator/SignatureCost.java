package dev.pqsign.telemetry.operator;

import dev.pqsign.core.Verifier;
import dev.pqsign.telemetry.internal.ThreadCpu;
import java.util.concurrent.atomic.LongAdder;

/**
 * What checking signatures has cost a {@link ReadingVerifier}: how many it checked and the CPU time
 * of the threads while they did (time spent waiting for a core is not counted), so that an operator
 * can tell its own overhead from the cryptography it cannot avoid. Thread-safe.
 */
public final class SignatureCost {
    private final LongAdder checks = new LongAdder();
    private final LongAdder cpuNanos = new LongAdder();

    SignatureCost() {}

    /** Checks one signature with {@code verifier}, counting it and its CPU time. */
    boolean verify(Verifier verifier, byte[] message, byte[] signature) {
        long start = ThreadCpu.nanos();
        try {
            return verifier.verify(message, signature);
        } finally {
            cpuNanos.add(ThreadCpu.nanos() - start);
            checks.increment();
        }
    }

    /**
     * Signatures checked so far (valid or not).
     *
     * @return the count
     */
    public long checks() {
        return checks.sum();
    }

    /**
     * CPU time those checks took.
     *
     * @return nanoseconds; 0 where the JVM cannot measure a thread's CPU time
     */
    public long cpuNanos() {
        return cpuNanos.sum();
    }
}
