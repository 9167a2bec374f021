package dev.pqsign.telemetry;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * A sensor key that rolls over by itself: the current key of a {@link SensorKeyDirectory}, moved to
 * the next one by a {@link KeyRollover} policy. Under its publication lock the sensor calls {@link
 * #beforeSignature()}, publishes the handover it returns (if any), signs with {@link #current()},
 * and calls {@link #afterSignature()}. Also estimates the time left from the observed signing rate.
 */
public final class RollingSensorKey implements AutoCloseable {
    private final SensorKeyDirectory dir;
    private final KeyRollover rollover;
    private SensorKey current;
    private Optional<KeyCertificateChain> certificates;
    /** Exponentially smoothed signatures per second. */
    private double rate;

    private long lastNanos;

    /**
     * A key that signs with {@code dir}'s current key and moves on as {@code rollover} decides.
     *
     * @param dir the sensor's open key directory; {@link #close} closes it
     * @param rollover the rollover policy over the same directory; {@link #close} closes it
     * @throws IOException if the current generation's certificate file exists but cannot be read
     * @throws KeyFormatException if that file does not hold a valid certificate chain
     */
    public RollingSensorKey(SensorKeyDirectory dir, KeyRollover rollover) throws IOException {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.rollover = Objects.requireNonNull(rollover, "rollover");
        this.current = sensorKey();
    }

    /** The current key, with its certificate if its generation has one (a sensor with a device CA). */
    private SensorKey sensorKey() throws IOException {
        certificates = readCertificates(dir.generation());
        return new SensorKey(
                dir.currentSigner(),
                KeyId.ofPublicKey(dir.currentKey().rawEncoding()),
                certificates.map(c -> c.leaf().encoded()).orElse(new byte[0]));
    }

    /** Generation {@code g}'s chain from its directory, or from the handover log once it is compacted. */
    private Optional<KeyCertificateChain> readCertificates(long g) throws IOException {
        Optional<byte[]> pem = dir.certificate(g);
        if (pem.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    KeyCertificateChain.of(Pem.readCertificates(new String(pem.get(), StandardCharsets.US_ASCII))));
        } catch (CertificateFormatException | UnsupportedAlgorithmException | IllegalArgumentException e) {
            throw new KeyFormatException(dir.certificateFile(g) + ": " + e.getMessage());
        }
    }

    /**
     * The current key's certificate chain (its certificate, then its device CA's), if the sensor
     * has a device CA: published with each handover and on the key-certificates node.
     *
     * @return the current key's chain; empty without a device CA, or if the new key's certificate
     *     file could not be read at the last handover
     */
    public synchronized Optional<KeyCertificateChain> certificates() {
        return certificates;
    }

    /**
     * The certificate chain of generation {@code generation}'s key as its key directory keeps it (in the
     * generation's directory, or in the handover log once it is compacted), if
     * it has one (a sensor with a device CA): for operators that catch up on several rollovers.
     *
     * @param generation a generation of the key directory
     * @return that generation's chain, or empty if it has no certificate file
     * @throws IOException if the certificate file exists but cannot be read
     * @throws KeyFormatException if it does not hold a valid certificate chain
     */
    public Optional<KeyCertificateChain> certificates(long generation) throws IOException {
        return readCertificates(generation);
    }

    /**
     * The key signing now.
     *
     * @return the current key's signer, key id and certificate (if any); a new one after each
     *     handover that {@link #beforeSignature} or {@link #handoverIfDone} returns
     */
    public synchronized SensorKey current() {
        return current;
    }

    /**
     * The latest handover record (to publish at start-up: an operator may have missed it).
     *
     * @return the signed handover to the current generation, or empty for generation 0
     */
    public Optional<SignedKeyHandover> latestHandover() {
        return dir.latestHandover();
    }

    /**
     * Call after each signature: updates the rate estimate, prepares the next key when due and
     * starts the handover when due (see {@link KeyRollover#afterSignature}).
     *
     * @throws IOException if the handover is due and the next key cannot be certified
     */
    public synchronized void afterSignature() throws IOException {
        long now = System.nanoTime();
        if (lastNanos != 0) {
            double instant = 1e9 / Math.max(1, now - lastNanos);
            rate = rate == 0 ? instant : 0.95 * rate + 0.05 * instant;
        }
        lastNanos = now;
        rollover.afterSignature();
    }

    /**
     * Call before each signature: waits for a handover under way and returns it, once; the caller
     * publishes it before the reading it is about to sign, which {@link #current()} (then the new
     * key) signs.
     *
     * @return the handover to publish first, or empty if none was under way
     * @throws IOException if the handover failed: the current key stays current
     */
    public Optional<SignedKeyHandover> beforeSignature() throws IOException {
        return switched(rollover.beforeSignature());
    }

    /**
     * As {@link #beforeSignature}, but only if the handover is durable already (no waiting): for
     * a sensor publishing a finished handover at once.
     *
     * @return the handover to publish, or empty if none is durable yet
     * @throws IOException if the handover failed: the current key stays current
     */
    public Optional<SignedKeyHandover> handoverIfDone() throws IOException {
        return switched(rollover.handoverIfDone());
    }

    /**
     * Runs {@code listener} on a thread of its own when a handover has finished (see {@link
     * KeyRollover#onHandover}).
     *
     * @param listener called once per finished handover, on the rollover's listener thread
     */
    public void onHandover(Runnable listener) {
        rollover.onHandover(listener);
    }

    private synchronized Optional<SignedKeyHandover> switched(Optional<SignedKeyHandover> h) {
        if (h.isPresent()) {
            try {
                current = sensorKey();
            } catch (IOException | KeyFormatException e) {
                // The handover is durable: the new key signs from now on, whatever its certificate file says.
                System.getLogger(RollingSensorKey.class.getName())
                        .log(
                                System.Logger.Level.ERROR,
                                "the new key''s certificate cannot be read: {0}",
                                e.getMessage());
                certificates = Optional.empty();
                current = new SensorKey(
                        dir.currentSigner(), KeyId.ofPublicKey(dir.currentKey().rawEncoding()));
            }
        }
        return h;
    }

    /**
     * The key's state for the sensor's key nodes and logs.
     *
     * @return the rollover's {@link KeyRollover#status()}
     */
    public synchronized KeyRollover.Status status() {
        return rollover.status();
    }

    /**
     * Seconds until the current key runs out at the observed rate (NaN before two signatures): the
     * sensor publishes it, and operators warn when it gets short without a next key ready.
     *
     * @return the signatures the current key has left divided by the signing rate (signatures per
     *     second, exponentially smoothed over the intervals between {@link #afterSignature} calls),
     *     or NaN before two signatures
     */
    public synchronized double secondsLeft() {
        return rate > 0 ? rollover.status().remaining() / rate : Double.NaN;
    }

    /**
     * The key directory.
     *
     * @return the directory given to the constructor
     */
    public SensorKeyDirectory directory() {
        return dir;
    }

    @Override
    public void close() {
        rollover.close();
        dir.close();
    }
}
