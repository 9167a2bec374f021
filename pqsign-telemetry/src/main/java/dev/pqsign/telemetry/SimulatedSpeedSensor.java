package dev.pqsign.telemetry;

import java.time.Clock;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * A simulated motor speed sensor: nominal RPM plus Gaussian noise, timestamped with the given clock,
 * paced at a fixed rate (or unpaced). Readings are {@link ReadingText} strings.
 */
public final class SimulatedSpeedSensor implements ReadingSource {

    private final double nominalRpm;
    private final double noiseRpm;
    private final long periodNanos;
    private final Random random;
    private final Clock clock;
    private long nextDue;

    /**
     * A sensor with the given speed, noise and pacing.
     *
     * @param nominalRpm mean speed, non-negative
     * @param noiseRpm standard deviation of the noise, non-negative
     * @param readingsPerSecond pacing; 0 means as fast as the caller asks
     * @param seed seed of the noise generator (reproducible runs)
     * @param clock wall clock used for the timestamps
     */
    public SimulatedSpeedSensor(double nominalRpm, double noiseRpm, double readingsPerSecond, long seed, Clock clock) {
        if (!(nominalRpm >= 0)
                || !(noiseRpm >= 0)
                || !(readingsPerSecond >= 0)
                || Double.isInfinite(readingsPerSecond)) {
            throw new IllegalArgumentException("nominal RPM, noise and rate must be finite and non-negative");
        }
        this.nominalRpm = nominalRpm;
        this.noiseRpm = noiseRpm;
        this.periodNanos = readingsPerSecond == 0 ? 0 : (long) (1e9 / readingsPerSecond);
        this.random = new Random(seed);
        this.clock = clock;
        this.nextDue = System.nanoTime();
    }

    /**
     * A 1500 RPM motor with 5 RPM noise at the given rate, wall-clock timestamps.
     *
     * @param readingsPerSecond the rate, finite and non-negative; 0: no pacing, a reading whenever asked
     * @return the sensor
     * @throws IllegalArgumentException if the rate is negative, NaN or infinite
     */
    public static SimulatedSpeedSensor motor(double readingsPerSecond) {
        return new SimulatedSpeedSensor(1500, 5, readingsPerSecond, System.nanoTime(), Clock.systemUTC());
    }

    @Override
    public synchronized String next() throws InterruptedException {
        if (periodNanos > 0) {
            long wait = nextDue - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            // Schedule from the due time, not from now, so the long-run rate is exact; if the caller
            // fell far behind, restart the schedule instead of bursting to catch up.
            nextDue = Math.max(nextDue + periodNanos, System.nanoTime() - periodNanos);
        }
        double rpm = Math.max(0, nominalRpm + noiseRpm * random.nextGaussian());
        return ReadingText.format(rpm, clock.instant());
    }
}
