package dev.pqsign.telemetry;

import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.keys.SignedKeyHandover;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * A sensor key that rolls over by itself: the current key of a {@link SensorKeyDirectory}, moved to
 * the next one by a {@link KeyRollover} policy. The sensor signs with {@link #current()}, calls
 * {@link #afterSignature()} after each reading under its publication lock, and when that returns a
 * handover it publishes the handover record and switches to {@link #current()} before the next
 * reading. Also estimates the time left from the observed signing rate.
 */
public final class RollingSensorKey implements AutoCloseable {
    private final SensorKeyDirectory dir;
    private final KeyRollover rollover;
    private SensorKey current;
    /** Exponentially smoothed signatures per second. */
    private double rate;

    private long lastNanos;

    public RollingSensorKey(SensorKeyDirectory dir, KeyRollover rollover) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.rollover = Objects.requireNonNull(rollover, "rollover");
        this.current = sensorKey();
    }

    private SensorKey sensorKey() {
        return new SensorKey(
                dir.currentSigner(), KeyId.ofPublicKey(dir.currentKey().rawEncoding()));
    }

    /** The key signing now. */
    public synchronized SensorKey current() {
        return current;
    }

    /** The latest handover record (to publish at start-up: an operator may have missed it). */
    public Optional<SignedKeyHandover> latestHandover() {
        return dir.latestHandover();
    }

    /**
     * Called after each signature: updates the rate estimate, prepares the next key when due and
     * hands over when due.
     *
     * @return the handover to publish before the next reading; {@link #current()} is then the new key
     */
    public synchronized Optional<SignedKeyHandover> afterSignature() throws IOException {
        long now = System.nanoTime();
        if (lastNanos != 0) {
            double instant = 1e9 / Math.max(1, now - lastNanos);
            rate = rate == 0 ? instant : 0.95 * rate + 0.05 * instant;
        }
        lastNanos = now;
        Optional<SignedKeyHandover> h = rollover.afterSignature();
        if (h.isPresent()) {
            current = sensorKey();
        }
        return h;
    }

    /** The key's state for the sensor's key nodes and logs. */
    public synchronized KeyRollover.Status status() {
        return rollover.status();
    }

    /**
     * Seconds until the current key runs out at the observed rate (NaN before two signatures): the
     * sensor publishes it, and operators warn when it gets short without a next key ready.
     */
    public synchronized double secondsLeft() {
        return rate > 0 ? dir.currentSigner().remaining() / rate : Double.NaN;
    }

    /** The key directory. */
    public SensorKeyDirectory directory() {
        return dir;
    }

    @Override
    public void close() {
        rollover.close();
        dir.close();
    }
}
