package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A sensor's XMSS / XMSS^MT keys over their lifetime, in one directory (layout:
 * docs/key-directory.md). Generation 0 is the key {@code pqsign keygen} made ({@code key.pub},
 * {@code key.state}); every later generation lives in {@code generations/NNNNNNNNNNNN/} and becomes
 * current when its {@code handover.pqho}, signed by the previous generation, is durable.
 *
 * <p>Rollover, step by step ({@link RolloverStep}): the next key is generated and its directory made
 * durable (under a temporary name, then renamed) before anyone hears of it; the current key signs the
 * handover statement under a durably reserved index; the statement is stored durably, which makes the
 * next key current; the retired key's state is wiped and removed. After a crash at any point,
 * {@link #open} finds the same current key (the highest generation with a durable handover), deletes
 * what a crash left half made, and destroys retired states, so no index of either key is ever reused.
 *
 * <p>Retired generations below the current one are compacted ({@link #compact}): their handover
 * records move into the append-only handover log {@value #HANDOVER_LOG} and their directories are
 * removed, so the directory stays small however long the sensor runs. Every reader of the chain
 * ({@link #handoversAfter}, {@link #certificate}, {@link #inspect}, {@link KeyDirectoryAudit})
 * reads the log's generations first, then the directories'.
 *
 * <p>Not thread-safe: one thread at a time uses it ({@link KeyRollover} hands over on its
 * background thread while the sensor waits).
 */
public final class SensorKeyDirectory implements AutoCloseable {
    /** A generation's public key (its standard encoding); generation 0's is the key operators pin. */
    public static final String PUBLIC_KEY = "key.pub";
    /** A generation's secret key state (docs/formats/xmss-state.md), destroyed once the generation is retired. */
    public static final String STATE = "key.state";
    /** The signed handover record (docs/formats/key-handover.md) that made a generation from 1 on current. */
    public static final String HANDOVER = "handover.pqho";
    /** The subdirectory holding generations 1 and later, one directory named with twelve digits each. */
    public static final String GENERATIONS = "generations";
    /** A generation's certificate chain (PEM: the key's certificate, then its device CA's), with a device CA. */
    public static final String CERTIFICATE = "certificate.pem";
    /**
     * The log of compacted generations (docs/formats/handover-log.md): the handover records (and
     * certificate chains) of retired generations whose directories are gone.
     */
    public static final String HANDOVER_LOG = "handovers.pqhc";

    /** Hears of each completed rollover step. */
    @FunctionalInterface
    public interface Observer {
        /**
         * Called on the thread that ran the step, right after it is complete.
         *
         * @param step the step just completed
         * @param generation the next key's generation for the steps up to {@link RolloverStep#HANDOVER_DURABLE},
         *     the retired key's for {@link RolloverStep#RETIRED_KEY_DESTROYED}
         */
        void stepDone(RolloverStep step, long generation);

        /**
         * Called on the thread that compacts, right after a compaction step is complete.
         *
         * @param step the step just completed
         * @param generation the generation being compacted
         */
        default void compactionStepDone(CompactionStep step, long generation) {}

        /** Hears nothing. */
        Observer NONE = (step, generation) -> {};
    }

    /** What the directory needs besides its path. */
    public static final class Options {
        private final XmssStatefulSigner.Options signer;
        private final Duration lockTimeout;
        private final Observer observer;

        private Options(XmssStatefulSigner.Options signer, Duration lockTimeout, Observer observer) {
            this.signer = signer;
            this.lockTimeout = lockTimeout;
            this.observer = observer;
        }

        /**
         * The defaults.
         *
         * @return the signer's {@link XmssStatefulSigner.Options#defaults()}, the state files' lock
         *     timeout {@link FileStateStore#DEFAULT_LOCK_TIMEOUT}, and {@link Observer#NONE}
         */
        public static Options defaults() {
            return new Options(
                    XmssStatefulSigner.Options.defaults(), FileStateStore.DEFAULT_LOCK_TIMEOUT, Observer.NONE);
        }

        /**
         * How the keys' signers are opened (a next key that {@link #loadNext} opens ahead of its
         * handover gets one thread, beside the signing key).
         *
         * @param signerOptions the signers' options
         * @return a new value with only that option changed
         */
        public Options withSigner(XmssStatefulSigner.Options signerOptions) {
            return new Options(Objects.requireNonNull(signerOptions, "signerOptions"), lockTimeout, observer);
        }

        /**
         * How long each operation on a key's state file (reading it, reserving indices) waits for the
         * file's locks, which another process or another store of this JVM may hold, before it fails.
         *
         * @param timeout the longest wait
         * @return a new value with only that option changed
         */
        public Options withLockTimeout(Duration timeout) {
            return new Options(signer, Objects.requireNonNull(timeout, "timeout"), observer);
        }

        /**
         * Who hears of each completed rollover step.
         *
         * @param o the observer
         * @return a new value with only that option changed
         */
        public Options withObserver(Observer o) {
            return new Options(signer, lockTimeout, Objects.requireNonNull(o, "observer"));
        }

        XmssStatefulSigner.Options signer() {
            return signer;
        }

        Duration lockTimeout() {
            return lockTimeout;
        }

        Observer observer() {
            return observer;
        }
    }

    private final Path dir;
    private final byte[] chainId;
    /** This process's ownership of the directory, held until {@link #close}. */
    private final KeyDirectoryOwner owner;
    /** Moves retired generations into the handover log, and reads each generation's record back. */
    private final Compaction compaction;
    /** The current key, the prepared next one and the retired one. */
    private final GenerationLifecycle lifecycle;

    private SensorKeyDirectory(
            Path dir, Options options, PqPublicKey firstKey, KeyDirectoryOwner owner, Generations found)
            throws IOException {
        this.dir = dir;
        this.chainId = PublicKeys.keyId(firstKey);
        this.owner = owner;
        this.compaction = new Compaction(dir, firstKey, options.observer, found.log());
        this.lifecycle = new GenerationLifecycle(dir, options, chainId, found);
    }

    /**
     * Creates a sensor key directory holding {@code key} as generation 0: {@code key.pub} and a fresh
     * {@code key.state}, written into a temporary directory, fsynced, and renamed to {@code dir}, so
     * the directory appears whole or not at all.
     *
     * @param dir the directory to create (its parent is created if missing)
     * @param key generation 0's private key, just made by {@link XmssKeyGenerator} (one read from a key
     *     state is refused: some of its indices may be used); the caller still owns and destroys it
     * @throws java.nio.file.FileAlreadyExistsException if {@code dir} exists
     * @throws IOException if a write, fsync or the rename fails (the temporary directory is removed)
     */
    public static void create(Path dir, XmssPrivateKey key) throws IOException {
        GenerationLifecycle.createFirst(dir, key);
    }

    /**
     * Opens a key directory: finds the current generation, removes a half-made next key left by a
     * crash, destroys the secret state of every retired generation, and opens the current key's
     * signer (which takes the state file's lock).
     *
     * @param dir the key directory
     * @param options the signers' options, the state files' lock timeout and the rollover observer
     * @return the directory, its current key's signer open; {@link #close} it
     * @throws KeyFormatException if the directory is not a complete sensor key directory
     * @throws KeyDirectoryInUseException if another process owns the directory ({@link
     *     KeyDirectoryOwner}) for all of the options' lock timeout
     * @throws IOException if a file of the directory cannot be read, written or removed
     * @throws dev.pqsign.core.StatePersistenceException if the current key's state cannot be read (its
     *     locks not obtained within the lock timeout, for one)
     */
    public static SensorKeyDirectory open(Path dir, Options options) throws IOException {
        Objects.requireNonNull(options, "options");
        Optional<Path> enclosing = enclosingKeyDirectory(dir);
        if (enclosing.isPresent()) {
            // its key.pub and key.state would start a second chain inside the first one
            throw new KeyFormatException(
                    dir + ": generation " + Long.parseLong(dir.getFileName().toString())
                            + " of the key directory " + enclosing.get() + ", not a key directory of its own; open "
                            + enclosing.get() + " (it continues with its current generation)");
        }
        PqPublicKey firstKey = Generations.readFirstKey(dir);
        KeyDirectoryOwner owner = KeyDirectoryOwner.acquire(dir, options.lockTimeout);
        try {
            Generations found = CrashRecovery.recover(dir, firstKey);
            return new SensorKeyDirectory(dir, options, firstKey, owner, found);
        } catch (IOException | RuntimeException e) {
            owner.close();
            throw e;
        }
    }

    /**
     * What {@code pqsign inspect DIR} shows of a key directory, read without taking its lock.
     *
     * @param parameterSet the keys' parameter-set name (every generation has the same)
     * @param chainId the chain id: the key id of generation 0
     * @param generation the current generation
     * @param currentKeyId the current key's key id
     * @param remaining signatures left in the current key's state file (indices a running signer has
     *     reserved count as used)
     * @param nextKeyReady whether the next generation's key is prepared
     * @param handovers the number of durable handovers (equal to the current generation)
     * @param compacted how many of them are in the handover log ({@value #HANDOVER_LOG}), their
     *     generations' directories removed
     */
    public record Inspection(
            String parameterSet,
            byte[] chainId,
            long generation,
            byte[] currentKeyId,
            long remaining,
            boolean nextKeyReady,
            long handovers,
            long compacted) {
        /**
         * Copies the two key ids, so that the inspection cannot change after it is made.
         *
         * @param parameterSet the keys' parameter-set name
         * @param chainId the chain id
         * @param generation the current generation
         * @param currentKeyId the current key's key id
         * @param remaining signatures left in the current key's state file
         * @param nextKeyReady whether the next generation's key is prepared
         * @param handovers the number of durable handovers
         * @param compacted how many of them are in the handover log
         * @throws NullPointerException if {@code chainId} or {@code currentKeyId} is {@code null}
         */
        public Inspection {
            chainId = chainId.clone();
            currentKeyId = currentKeyId.clone();
        }

        /**
         * The chain id: the key id of generation 0.
         *
         * @return a new copy of the chain id
         */
        @Override
        public byte[] chainId() {
            return chainId.clone();
        }

        /**
         * The current key's key id.
         *
         * @return a new copy of the key id
         */
        @Override
        public byte[] currentKeyId() {
            return currentKeyId.clone();
        }
    }

    /**
     * Describes a key directory without opening a signer (no lock, nothing changed): the current
     * generation, its key, the signatures it has left, whether the next key is prepared.
     *
     * @param dir the key directory
     * @return what the directory's files say now (a running sensor may change it at any moment)
     * @throws KeyFormatException if the directory is not a sensor key directory
     * @throws IOException if a file cannot be read
     */
    public static Inspection inspect(Path dir) throws IOException {
        return KeyDirectoryInspector.inspect(dir);
    }

    /**
     * The chain id (key id of generation 0): the sensor's identity in handover statements.
     *
     * @return a new copy of the {@link PublicKeys#KEY_ID_BYTES}-byte chain id
     */
    public byte[] chainId() {
        return chainId.clone();
    }

    /**
     * The generation now signing (0 until the first rollover).
     *
     * @return the current generation
     */
    public long generation() {
        return lifecycle.generation();
    }

    /**
     * The public key now signing.
     *
     * @return the current generation's public key
     */
    public PqPublicKey currentKey() {
        return lifecycle.currentKey();
    }

    /**
     * The signer of the current key (index reserved durably before every signature).
     *
     * @return the directory's signer: the directory closes it, after a handover retires its key or in
     *     {@link #close}
     */
    public XmssStatefulSigner currentSigner() {
        return lifecycle.currentSigner();
    }

    /**
     * The handover that made the current key current; empty for generation 0.
     *
     * @return the signed handover to the current generation, or empty
     */
    public Optional<SignedKeyHandover> latestHandover() {
        return lifecycle.latestHandover();
    }

    /**
     * {@code true} if the next generation's key is prepared (durable, not yet announced).
     *
     * @return whether the next generation's directory holds both its public key and its state file
     */
    public boolean nextKeyReady() {
        return lifecycle.nextKeyReady();
    }

    /**
     * The prepared next key's public key, if one is prepared.
     *
     * @return the next generation's public key, or empty if no next key is prepared
     * @throws IOException if its public key file cannot be read
     */
    public Optional<PqPublicKey> nextKey() throws IOException {
        return lifecycle.nextKey();
    }

    /**
     * Path of generation {@code g}'s certificate chain ({@value #CERTIFICATE}; present only with a device CA).
     *
     * @param g a generation, 0 or more
     * @return the file's path, whether or not the file exists
     */
    public Path certificateFile(long g) {
        return generationDir(g).resolve(CERTIFICATE);
    }

    /**
     * Generates the next generation's key (same parameter set) and makes its directory durable: a
     * temporary directory with the public key and the fresh state, fsynced, renamed into place, the
     * parent fsynced. Safe to call while the current key signs (it touches nothing the signer uses);
     * not while another {@code prepareNext} or {@link #handOver} runs.
     *
     * @return {@code false} if the next key was already prepared
     * @throws IOException if a write, fsync or the rename fails (a temporary directory left behind is
     *     wiped by the next {@link #open}), or the next generation's directory exists without both its
     *     public key and its state (it is never reused: an operator must remove it)
     */
    public boolean prepareNext() throws IOException {
        return lifecycle.prepareNext();
    }

    /**
     * Opens the prepared next key's signer now (locks its state, builds its trees: about as much
     * work as generating the key), so that {@link #handOver} does not do it on the signing thread.
     * Safe to call while the current key signs; not while {@link #prepareNext} or
     * {@link #handOver} runs.
     *
     * @return {@code false} if no next key is prepared or it is loaded already
     * @throws IOException if the next key's public key cannot be read
     * @throws dev.pqsign.core.StatePersistenceException if the next key's state cannot be read (its
     *     locks not obtained within the lock timeout, for one)
     * @throws KeyFormatException if the next key's state belongs to another key than its public key
     */
    public boolean loadNext() throws IOException {
        return lifecycle.loadNext();
    }

    /**
     * {@code true} if the prepared next key's signer is open ({@link #loadNext}).
     *
     * @return whether the next key's signer is open
     */
    public boolean nextKeyLoaded() {
        return lifecycle.nextKeyLoaded();
    }

    /**
     * Hands the chain over to the prepared next key: the current key signs the handover statement
     * (its index reserved durably first), the signed statement is stored durably (from then on the
     * next key is current, also after a crash), and the new key's signer takes over (the one
     * {@link #loadNext} opened, else it is opened now). The retired key's state is left for
     * {@link #destroyRetired}, to be wiped off the signing thread; should that never run, the next
     * {@link #open} destroys it.
     *
     * @param now the statement's issue time
     * @return the signed handover, to be published before any reading of the new key
     * @throws IllegalStateException if no next key is prepared
     * @throws IOException if the next key's public key cannot be read or the signed statement cannot
     *     be stored durably (the current key stays current; the index the statement took is spent),
     *     or, the handover already durable, the new key's signer cannot be opened
     */
    public SignedKeyHandover handOver(Instant now) throws IOException {
        return lifecycle.handOver(now);
    }

    /**
     * Wipes and removes the state of the key the last {@link #handOver} retired, if not done yet.
     * Safe to call while the new key signs; not while {@link #prepareNext}, {@link #loadNext} or
     * {@link #handOver} runs.
     *
     * @throws IOException if the retired state file cannot be overwritten, fsynced or removed (the
     *     next call, or the next {@link #open}, tries again)
     */
    public void destroyRetired() throws IOException {
        lifecycle.destroyRetired();
    }

    /**
     * Every durable handover of this directory, oldest first (for audit and for operators catching up).
     *
     * @return the handovers to generations 1 to the current one; empty for generation 0
     * @throws IOException if a handover record cannot be read
     */
    public List<SignedKeyHandover> handovers() throws IOException {
        return handoversAfter(0);
    }

    /**
     * The durable handovers to generations after {@code sequence}, oldest first (for a sensor
     * restoring the handovers its history lost).
     *
     * @param sequence the last generation whose handover the caller has (0: none)
     * @return the handovers to generations {@code sequence + 1} to the current one; empty if
     *     {@code sequence} is the current generation or later
     * @throws IOException if a handover record cannot be read
     */
    public List<SignedKeyHandover> handoversAfter(long sequence) throws IOException {
        List<SignedKeyHandover> out = new ArrayList<>();
        for (long g = Math.max(1, sequence + 1); g <= lifecycle.generation(); g++) {
            out.add(SignedKeyHandover.decode(compaction.handoverRecord(g)));
        }
        return out;
    }

    /**
     * Generation {@code g}'s certificate chain as stored: its {@value #CERTIFICATE}, or, once the
     * generation is compacted, the copy in the handover log. Safe while a compaction runs on
     * another thread (see {@link #handoversAfter}).
     *
     * @param g a generation, 0 or more
     * @return the PEM bytes, or empty if the generation has no certificate chain
     * @throws IOException if the file or the log cannot be read
     */
    public Optional<byte[]> certificate(long g) throws IOException {
        return compaction.certificate(g);
    }

    /**
     * Compacts the retired generations (docs/key-directory.md, "Bounded layout"): for each one from
     * the first still in a directory up to the generation before the current one whose state is
     * destroyed, appends its handover record (and certificate chain) to the handover log
     * ({@value #HANDOVER_LOG}, created by the first compaction) and fsyncs the log, then removes its
     * directory and fsyncs {@code generations/}. The current and the prepared generation are never
     * compacted. After a crash between the two steps, {@link #open} finds the generation in both
     * places, checks they are equal and removes the directory. Safe to call while the current key
     * signs; not while {@link #prepareNext}, {@link #loadNext}, {@link #handOver} or
     * {@link #destroyRetired} runs.
     *
     * @return the number of generations compacted
     * @throws KeyFormatException if a retired generation's directory holds a file that is not a
     *     generation's, a public key other than its handover record's, or a record that does not
     *     continue the log's chain (it stays; later generations wait for it)
     * @throws IOException if a file cannot be read, the log not appended or fsynced, or a file not
     *     removed (the next call tries again)
     */
    public long compact() throws IOException {
        return compaction.compactBelow(lifecycle.generation());
    }

    /**
     * Path of generation {@code g}'s directory (generation 0: the directory itself).
     *
     * @param g a generation, 0 or more
     * @return the directory's path, whether or not it exists
     */
    public Path generationDir(long g) {
        return KeyDirectoryLayout.generationDir(dir, g);
    }

    /**
     * The key directory that {@code dir} is a generation directory of: {@code dir} is
     * {@code DIR/generations/N} (twelve digits) and {@code DIR} holds a {@code key.pub}.
     *
     * @param dir a directory, e.g. the one a {@code key.state} was given in
     * @return {@code DIR} (in the form {@code dir} was given in), or empty if {@code dir} is no
     *     generation directory
     */
    public static Optional<Path> enclosingKeyDirectory(Path dir) {
        return KeyDirectoryLayout.enclosingKeyDirectory(dir);
    }

    /**
     * Closes the current signer and the loaded next one (unused reserved indices stay burned) and
     * releases their state locks, then the ownership of the directory ({@link KeyDirectoryOwner}).
     */
    @Override
    public void close() {
        try {
            lifecycle.close();
        } finally {
            owner.close(); // last: the directory is ours until every state is closed
        }
    }
}
