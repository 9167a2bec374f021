package dev.pqsign.keys;

import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.io.InterruptedIOException;
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
 * crash interrupted.
 *
 * <p>The sensor calls {@link #beforeSignature} before and {@link #afterSignature} after each
 * reading it signs, under its publication lock. The handover runs on a background thread: the
 * reading that makes it due returns at once, the current key signs the statement and the statement
 * is stored durably while that reading is being published, and the next reading waits for it only
 * if it comes before the handover is durable. {@link #beforeSignature} returns the handover, which
 * the sensor publishes before that reading; a sensor that wants it published without waiting for
 * its next reading registers {@link #onHandover}.
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

    /**
     * What the sensor publishes about its key (nodes, logs) and {@code pqsign inspect} shows.
     *
     * @param parameterSet the current key's parameter-set name
     * @param keyId the current key's key id ({@link PublicKeys#keyId}: SHA-256 of its public key)
     * @param generation the current key's generation in its directory (0: the key {@code pqsign keygen} made)
     * @param remaining signatures the current key can still make
     * @param nextKeyReady whether the next key is prepared (durable, not yet announced)
     * @param preparationFailure why the last attempt to prepare the next key failed; empty if none has
     *     failed since the last one that succeeded
     */
    public record Status(
            String parameterSet,
            byte[] keyId,
            long generation,
            long remaining,
            boolean nextKeyReady,
            Optional<String> preparationFailure) {
        /**
         * Copies {@code keyId}, so that the status cannot change after it is made.
         *
         * @param parameterSet the current key's parameter-set name
         * @param keyId the current key's key id
         * @param generation the current key's generation
         * @param remaining signatures the current key can still make
         * @param nextKeyReady whether the next key is prepared
         * @param preparationFailure why the last preparation failed, or empty
         * @throws NullPointerException if {@code keyId} is {@code null}
         */
        public Status {
            keyId = keyId.clone();
        }

        /**
         * The current key's key id.
         *
         * @return a new copy of the key id
         */
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
        /**
         * Makes sure generation {@code generation}'s key {@code key} has its certificate stored durably.
         *
         * @param generation the key's generation in the sensor's key directory
         * @param key the key's public key
         * @throws IOException if the certificate cannot be issued or stored durably: the handover to
         *     that key waits until a later call succeeds
         */
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
    /** Runs the listener's calls, so that it never holds up the background thread. */
    private final ExecutorService notifier;

    private CompletableFuture<Void> preparing;
    /** Destroying the retired key's state after a handover, in the background, or null. */
    private CompletableFuture<Void> retiring;
    /** The handover under way on the background thread, until a caller has taken it; guarded by this. */
    private CompletableFuture<SignedKeyHandover> handing;
    /** The key's status when the handover under way started (the directory is busy meanwhile). */
    private Status statusDuringHandover;

    private volatile Runnable handoverListener = () -> {};
    /** Whether the next key is prepared (durable): kept here so that a status read touches no file. */
    private volatile boolean nextReady;

    private PqPublicKey keyIdOf;
    private byte[] keyId;

    private volatile String preparationFailure;
    private Instant lastFailure = Instant.MIN;

    private KeyRollover(SensorKeyDirectory dir, long prepareAt, long switchAt, Clock clock, Certifier certifier) {
        this.dir = dir;
        this.certifier = certifier;
        this.prepareAt = prepareAt;
        this.switchAt = switchAt;
        this.clock = clock;
        this.nextReady = dir.nextKeyReady();
        this.background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "pqsign-key-rollover");
            t.setDaemon(true);
            return t;
        });
        this.notifier = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "pqsign-key-handover-listener");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * A rollover policy for the key directory {@code dir}.
     *
     * @param dir the sensor's open key directory (it stays open when the policy is closed)
     * @param prepareAt prepare the next key when this many signatures are left; 0 for the default
     *     (right after the key's first signature)
     * @param switchAt hand over when this many are left (at least 1: the statement needs an index)
     * @param clock the time written into each handover statement and against which a failed
     *     preparation's retry is spaced
     * @return the policy; {@link #close} it before closing the directory
     * @throws IllegalArgumentException if {@code switchAt} is below 1 or not below the signatures a
     *     key of the directory's parameter set can make, or {@code prepareAt} (the default applied)
     *     is not above {@code switchAt}
     */
    public static KeyRollover of(SensorKeyDirectory dir, long prepareAt, long switchAt, Clock clock) {
        return of(dir, prepareAt, switchAt, clock, Certifier.NONE);
    }

    /**
     * As {@link #of(SensorKeyDirectory, long, long, Clock)}, and every next key is certified by
     * {@code certifier} before it is handed over to.
     *
     * @param dir the sensor's open key directory (it stays open when the policy is closed)
     * @param prepareAt prepare the next key when this many signatures are left; 0 for the default
     *     (right after the key's first signature)
     * @param switchAt hand over when this many are left (at least 1: the statement needs an index)
     * @param clock the time written into each handover statement and against which a failed
     *     preparation's retry is spaced
     * @param certifier certifies each next key before the handover to it; {@link Certifier#NONE}
     *     for a sensor without certificates
     * @return the policy; {@link #close} it before closing the directory
     * @throws IllegalArgumentException if {@code switchAt} is below 1 or not below the signatures a
     *     key of the directory's parameter set can make, or {@code prepareAt} (the default applied)
     *     is not above {@code switchAt}
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

    /**
     * The key directory this policy rolls over.
     *
     * @return the directory given to {@code of}
     */
    public SensorKeyDirectory directory() {
        return dir;
    }

    /**
     * When the next key is prepared.
     *
     * @return the number of signatures left on the current key at which its successor is prepared
     *     (with the default: one less than a key's capacity, so right after its first signature)
     */
    public long prepareAt() {
        return prepareAt;
    }

    /**
     * When the current key hands over.
     *
     * @return the number of signatures left on the current key at which the handover starts
     */
    public long switchAt() {
        return switchAt;
    }

    /**
     * Call after each signature: starts preparing the next key when it is time, and when it is
     * time to hand over and the next key is ready, starts the handover on the background thread
     * (the current key signs the statement with its next index, the statement is stored durably).
     * Returns without waiting for either, except when the handover is due and the next key's
     * preparation has not finished (then it waits for the preparation).
     *
     * <p>Until {@link #beforeSignature} has returned the handover, the current key must not sign
     * again: the statement takes the key's next index, and the key is retired at that index.
     *
     * @throws IOException if the handover is due and the next key, prepared but not certified by
     *     the background attempt, cannot be certified now (no handover without its certificate;
     *     the next call tries again)
     */
    public void afterSignature() throws IOException {
        synchronized (this) {
            if (handing != null) {
                return; // a handover is under way: the next beforeSignature completes it
            }
        }
        if (preparing != null && preparing.isDone()) {
            awaitPreparation();
        }
        long remaining = dir.currentSigner().remaining();
        if (remaining <= prepareAt && preparing == null && (!dir.nextKeyLoaded() || !nextCertified)) {
            startPreparing(remaining <= switchAt);
        }
        if (remaining > switchAt) {
            return;
        }
        if (preparing != null) {
            awaitPreparation();
        }
        if (!dir.nextKeyReady()) {
            return;
        }
        if (!nextCertified) {
            certifyNext(); // the background attempt failed: no handover without the certificate
        }
        Status before = status();
        Instant now = clock.instant();
        synchronized (this) {
            statusDuringHandover = before;
            // After a retirement still running (same single background thread): the directory
            // is never used by two background tasks at once.
            handing = CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            return dir.handOver(now);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    },
                    background);
            CompletableFuture<?> unused = handing.whenCompleteAsync((h, e) -> handoverListener.run(), notifier);
        }
    }

    /**
     * Call before each signature: if a handover is under way, waits until it is durable and
     * returns it, once. The caller publishes it before the reading it is about to sign; the
     * directory's current key is then the new one.
     *
     * @return the handover to publish first, or empty if none was under way
     * @throws IOException if the handover failed (its statement could not be signed or stored):
     *     the current key stays current and has lost the index the statement took; the next
     *     {@link #afterSignature} tries again
     */
    public Optional<SignedKeyHandover> beforeSignature() throws IOException {
        return complete(true);
    }

    /**
     * As {@link #beforeSignature}, but without waiting: returns the handover only if it is
     * already durable. For a sensor that publishes a finished handover at once instead of with
     * its next reading (see {@link #onHandover}).
     *
     * @return the handover to publish, or empty if none is under way or it is not durable yet
     * @throws IOException if the handover failed, as for {@link #beforeSignature}
     */
    public Optional<SignedKeyHandover> handoverIfDone() throws IOException {
        return complete(false);
    }

    /**
     * Runs {@code listener} (on a thread of its own, never the caller's) each time a handover
     * started by {@link #afterSignature} has finished, durable or failed; the listener then
     * typically calls {@link #handoverIfDone} under the sensor's publication lock. Replaces the
     * previous listener.
     *
     * @param listener called once per finished handover, on the policy's listener thread
     */
    public void onHandover(Runnable listener) {
        this.handoverListener = Objects.requireNonNull(listener, "listener");
    }

    private Optional<SignedKeyHandover> complete(boolean wait) throws IOException {
        CompletableFuture<SignedKeyHandover> f;
        synchronized (this) {
            f = handing;
        }
        if (f == null || (!wait && !f.isDone())) {
            return Optional.empty();
        }
        SignedKeyHandover h;
        try {
            h = f.get();
        } catch (ExecutionException e) {
            synchronized (this) {
                if (handing != f) {
                    return Optional.empty(); // another thread took the failure and reports it
                }
                handing = null;
                statusDuringHandover = null;
            }
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException("key handover failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the key handover");
        }
        synchronized (this) {
            if (handing != f) {
                return Optional.empty(); // another thread took it
            }
            handing = null;
            statusDuringHandover = null;
            nextCertified = false;
            nextReady = false;
            // Wiping the retired state and compacting the retired generations cost fsyncs: not on
            // the signing thread (a crash before it is done leaves the state for the next open to
            // destroy, the generations for the next compaction).
            retiring = CompletableFuture.runAsync(
                    () -> {
                        try {
                            dir.destroyRetired();
                        } catch (IOException | RuntimeException e) {
                            // The state stays on disk; the next open destroys it.
                            System.getLogger(KeyRollover.class.getName())
                                    .log(
                                            System.Logger.Level.WARNING,
                                            "cannot destroy the retired key state: {0}",
                                            e.toString());
                            return;
                        }
                        try {
                            dir.compact();
                        } catch (IOException | RuntimeException e) {
                            // The generation stays in its directory, complete; the next compaction tries again.
                            System.getLogger(KeyRollover.class.getName())
                                    .log(
                                            System.Logger.Level.WARNING,
                                            "cannot compact the retired generations: {0}",
                                            e.toString());
                        }
                    },
                    background);
        }
        return Optional.of(h);
    }

    private void awaitRetiring() {
        CompletableFuture<Void> r;
        synchronized (this) {
            r = retiring;
            retiring = null;
        }
        if (r != null) {
            r.join(); // the task logs its own failure
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
                        nextReady = true;
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

    /**
     * The current key's state as the sensor publishes it (while a handover is under way: the state
     * when it started, since the directory is busy).
     *
     * @return the current key's parameter set, key id, generation and signatures left, whether the
     *     next key is prepared, and why its last preparation failed (if it did)
     */
    public Status status() {
        synchronized (this) {
            if (statusDuringHandover != null) {
                return statusDuringHandover;
            }
        }
        var key = dir.currentKey();
        return new Status(
                key.parameterSet().setName(),
                keyId(key),
                dir.generation(),
                dir.currentSigner().remaining(),
                nextReady,
                Optional.ofNullable(preparationFailure));
    }

    /** The key id of {@code key}, hashed once per key: the sensor asks for the status after every reading. */
    private synchronized byte[] keyId(PqPublicKey key) {
        if (!key.equals(keyIdOf)) {
            keyIdOf = key;
            keyId = PublicKeys.keyId(key);
        }
        return keyId;
    }

    /**
     * Waits for a running preparation and a handover under way (which is durable then, and the
     * directory's current key the new one, though nobody published it: a sensor that opens the
     * directory again publishes its latest handover) and stops the background threads; the
     * directory stays open.
     */
    @Override
    public void close() {
        if (preparing != null) {
            awaitPreparation();
        }
        try {
            complete(true);
        } catch (IOException e) {
            System.getLogger(KeyRollover.class.getName())
                    .log(System.Logger.Level.WARNING, "key handover failed: {0}", e.getMessage());
        }
        awaitRetiring();
        background.shutdown();
        notifier.shutdown();
    }
}
