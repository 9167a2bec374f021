package dev.pqsign.demo;

import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.operator.Observation;

/**
 * Watches a demo run as it happens, e.g. to show it on a live console. Every sensor of every set
 * is named {@code SET/sensor-N} here (the operator of each set knows it as {@code sensor-N}), so the
 * sensors of different sets stay apart. Called from the demo's and the operator's threads; an
 * implementation must be thread-safe and must not block.
 */
public interface DemoObserver {
    /** Observes nothing. */
    DemoObserver NONE = new DemoObserver() {
        @Override
        public void connectionState(String sensor, String state) {}

        @Override
        public void keyState(String sensor, String parameterSet, KeyId keyId, long remaining) {}

        @Override
        public void observation(Observation observation) {}
    };

    /**
     * A sensor's connection: {@code connecting}, {@code connected}, then {@code closed} when its set ends.
     *
     * @param sensor the sensor, {@code SET/sensor-N}
     * @param state the new state
     */
    void connectionState(String sensor, String state);

    /**
     * What a sensor's key has left: when the sensor connects and after its set's readings.
     *
     * @param sensor the sensor, {@code SET/sensor-N}
     * @param parameterSet the set's name ({@link DemoRunner.SchemeSetup#name()})
     * @param keyId the key's id (SHA-256 of its public key encoding)
     * @param remaining signatures left, or -1 for a stateless (HAETAE) key
     */
    void keyState(String sensor, String parameterSet, KeyId keyId, long remaining);

    /**
     * Every verdict of the operator (warm-up, genuine, injected tampered and replayed readings, gaps),
     * with the sensor named as above.
     *
     * @param observation the operator's observation, its sensor renamed to {@code SET/sensor-N}
     */
    void observation(Observation observation);
}
