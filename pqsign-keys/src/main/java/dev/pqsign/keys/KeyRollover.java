package dev.pqsign.keys;

import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * When a sensor rolls its key over: the next key is prepared in the background once the current key
 * has {@code prepareAt} signatures left, and the handover happens when {@code switchAt} are left,
 * so the current key is used almost to the end and a few indices stay spare for a handover that a
 * crash interrupted. The sensor calls {@link #afterSignature} after each reading it signs, under its
 * publication lock, and publishes the handover it returns before the next reading.
 *
 * <p>Preparing early costs nothing but a stored key; preparing late risks a key that runs out (a
 * single-tree key of height 20 takes minutes to generate). So by default the next key is prepared
 * right after the current key's first signature, and a preparation that fails (disk full) is retried
 * at most once every {@link #RETRY_INTERVAL} and reported by {@link #status()} while the current key
 * still works.
 */
public final class KeyRollover implements AutoCloseable {
    /** Default spare indices at handover time (a crash between signing and storing a statement costs one). */
    public static final long DEFAULT_SWITCH_AT = 8;
    /** A failed preparation is tried again no sooner than this. */
    public static final Duration RETRY_INTERVAL = Duration.ofSeconds(5);

    /** What the sensor publishes about its key (nodes, logs) and {@code pqsign inspect} shows. */
    public record Status(
            String parameterSet,
            byte[] keyId,
            long generation,
            long remaining,
            boolean nextKeyReady,
            Optional<String> preparationFailure) {
        public Status {
            keyId = keyId.clone();
        }

        @Override
        public byte[] keyId() {
            return keyId.clone();
        }
    }

    /**
     * Certifies each next key before it is announced: a sensor that runs a PKI has its device CA
     * issue the key's certificate ({@link DeviceCa#certify}). Must be idempotent: it is called in
     * the background once the next key is durable and, if that failed, again right before the
     * handover, which does not happen until it succeeds.
     */
    @FunctionalInterface
    public interface Certifier {
        /** Makes sure generation {@code generation}'s key {@code key} has its certificate stored durably. */
        void certify(long generation, PqPublicKey key) throws IOException;

        /** For sensors without certificates. */
        Certifier NONE = (generation, key) -> {};
    }

    private final SensorKeyDirectory dir;
    private final Certifier certifier;
    /** The prepared next key is certified (set by the preparation, cleared by each handover). */
    private volatile boolean nextCertified;

    private final long prepareAt;
    private final long switchAt;
    private final Clock clock;
    private final ExecutorService background;
    private CompletableFuture<Void> preparing;
    /** Destroying the retired key's state after a handover, in the background, or null. */
    private CompletableFuture<Void> retiring;

    private volatile String preparationFailure;
    private Instant lastFailure = Instant.MIN;

    private KeyRollover(SensorKeyDirectory dir, long prepareAt, long switchAt, Clock clock, Certifier certifier) {
        this.dir = dir;
        this.certifier = certifier;
        this.prepareAt = prepareAt;
        this.switchAt = switchAt;
        this.clock = clock;
        this.background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "pqsign-key-rollover");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * A rollover policy for the key directory {@code dir}.
     *
     * @param prepareAt prepare the next key when this many signatures are left; 0 for the default
     *     (right after the key's first signature)
     * @param switchAt hand over when this many are left (at least 1: the statement needs an index)
     */
    public static KeyRollover of(SensorKeyDirectory dir, long prepareAt, long switchAt, Clock clock) {
        return of(dir, prepareAt, switchAt, clock, Certifier.NONE);
    }

    /**
     * As {@link #of(SensorKeyDirectory, long, long, Clock)}, and every next key is certified by
     * {@code certifier} before it is handed over to.
     */
    public static KeyRollover of(
            SensorKeyDirectory dir, long prepareAt, long switchAt, Clock clock, Certifier certifier) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(certifier, "certifier");
        if (switchAt < 1) {
            throw new IllegalArgumentException("switchAt must be >= 1, got " + switchAt);
        }
        long capacity = dir.currentKey().xmss().orElseThrow().parameterSet().maxSignatures();
        if (switchAt >= capacity) {
            throw new IllegalArgumentException(
                    "switchAt " + switchAt + " leaves no signature of a " + capacity + "-signature key");
        }
        long prepare = prepareAt == 0 ? capacity - 1 : prepareAt;
        if (prepare <= switchAt) {
            throw new IllegalArgumentException("prepareAt (" + prepare + ") must be above switchAt (" + switchAt + ")");
        }
        return new KeyRollover(dir, prepare, switchAt, Objects.requireNonNull(clock, "clock"), certifier);
    }

    /** The key directory this policy rolls over. */
    public SensorKeyDirectory directory() {
        return dir;
    }

    public long prepareAt() {
        return prepareAt;
    }

    public long switchAt() {
        return switchAt;
    }

    /**
     * Starts preparing the next key if it is time, and hands over if it is time and the next key is
     * ready (waiting for a preparation still running). Call after each signature.
     *
     * @return the handover to publish before the next reading, if one happened
     * @throws IOException if the handover statement could not be stored (the current key stays
     *     current; its burned index is lost, and the next call tries again)
     */
    public Optional<SignedKeyHandover> afterSignature() throws IOException {
        if (preparing != null && preparing.isDone()) {
            awaitPreparation();
        }
        long remaining = dir.currentSigner().remaining();
        if (remaining <= prepareAt && preparing == null && (!dir.nextKeyLoaded() || !nextCertified)) {
            startPreparing(remaining <= switchAt);
        }
        if (remaining > switchAt) {
            return Optional.empty();
        }
        if (preparing != null) {
            awaitPreparation();
        }
        if (!dir.nextKeyReady()) {
            return Optional.empty();
        }
        if (!nextCertified) {
            certifyNext(); // the background attempt failed: no handover without the certificate
        }
        awaitRetiring();
        SignedKeyHandover h = dir.handOver(clock.instant());
        nextCertified = false;
        // Wiping the retired state costs fsyncs: not on the signing thread (a crash before it is
        // done leaves the state for the next open to destroy).
        retiring = CompletableFuture.runAsync(
                () -> {
                    try {
                        dir.destroyRetired();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                background);
        return Optional.of(h);
    }

    private void awaitRetiring() {
        if (retiring == null) {
            return;
        }
        try {
            retiring.get();
        } catch (ExecutionException e) {
            // The state stays on disk; the next open destroys it.
            System.getLogger(KeyRollover.class.getName())
                    .log(System.Logger.Level.WARNING, "cannot destroy the retired key state: {0}", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            retiring = null;
        }
    }

    private void startPreparing(boolean urgent) {
        Instant now = clock.instant();
        if (!urgent && now.isBefore(lastFailure.plus(RETRY_INTERVAL))) {
            return;
        }
        preparing = CompletableFuture.runAsync(
                () -> {
                    try {
                        dir.prepareNext();
                        dir.prepareNext();
                        certifyNext();
                        // The next key's signer builds its trees now, not at the handover.
                        dir.loadNext();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                background);
        if (urgent) {
            awaitPreparation();
        }
    }

    private void certifyNext() throws IOException {
        long next = dir.generation() + 1;
        PqPublicKey key = dir.nextKey().orElseThrow(() -> new IOException("generation " + next + " is not prepared"));
        certifier.certify(next, key);
        nextCertified = true;
    }

    private void awaitPreparation() {
        try {
            preparing.get();
            preparationFailure = null;
        } catch (ExecutionException e) {
            Throwable cause =
                    e.getCause() instanceof UncheckedIOException ? e.getCause().getCause() : e.getCause();
            preparationFailure = "cannot prepare the next key: " + cause.getMessage();
            lastFailure = clock.instant();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            preparing = null;
        }
    }

    /** The current key's state as the sensor publishes it. */
    public Status status() {
        var key = dir.currentKey();
        return new Status(
                key.parameterSet().setName(),
                PublicKeys.keyId(key),
                dir.generation(),
                dir.currentSigner().remaining(),
                dir.nextKeyReady(),
                Optional.ofNullable(preparationFailure));
    }

    /** Waits for a running preparation and stops the background thread; the directory stays open. */
    @Override
    public void close() {
        if (preparing != null) {
            awaitPreparation();
        }
        awaitRetiring();
        background.shutdown();
    }
}
