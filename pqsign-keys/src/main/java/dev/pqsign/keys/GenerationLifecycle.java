package dev.pqsign.keys;

import static dev.pqsign.keys.KeyDirectoryLayout.generationDir;
import static dev.pqsign.keys.KeyDirectoryLayout.readSmall;
import static dev.pqsign.keys.KeyDirectoryLayout.stateFile;
import static dev.pqsign.keys.SensorKeyDirectory.GENERATIONS;
import static dev.pqsign.keys.SensorKeyDirectory.HANDOVER;
import static dev.pqsign.keys.SensorKeyDirectory.PUBLIC_KEY;
import static dev.pqsign.keys.SensorKeyDirectory.STATE;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Optional;

/**
 * A key directory's generations from prepared to retired (docs/key-directory.md, "Rollover"): the
 * current key and its signer, the next key prepared and loaded ahead of the handover, the handover
 * that makes it current, and the destruction of the retired key's state. Each step is durable
 * before the next starts ({@link RolloverStep}); what a crash leaves between them, the next open
 * recovers ({@link CrashRecovery}). Not thread-safe, as {@link SensorKeyDirectory}.
 */
final class GenerationLifecycle {
    private final Path dir;
    private final SensorKeyDirectory.Options options;
    private final byte[] chainId;

    private long generation;
    private PqPublicKey currentKey;
    private FileStateStore currentStore;
    private XmssStatefulSigner currentSigner;
    /** The prepared next key's store and signer, opened ahead of the handover ({@link #loadNext}), or null. */
    private FileStateStore nextStore;

    private XmssStatefulSigner nextSigner;
    /** The generation the last handover retired whose state {@link #destroyRetired} has not destroyed yet, or -1. */
    private long retiredPending = -1;
    // The retired key's signer and store, closed by destroyRetired (in the background when a
    // KeyRollover hands over): closing waits for the signer's upkeep and releases the state file,
    // which need not delay the new key's first signature.
    private volatile XmssStatefulSigner retiredSigner;
    private volatile FileStateStore retiredStore;

    private volatile Optional<SignedKeyHandover> latestHandover;

    /** Takes up the current generation {@code found} in {@code dir} and opens its key's signer. */
    GenerationLifecycle(Path dir, SensorKeyDirectory.Options options, byte[] chainId, Generations found)
            throws IOException {
        this.dir = dir;
        this.options = options;
        this.chainId = chainId;
        this.generation = found.current();
        this.currentKey = found.key();
        this.latestHandover = Optional.ofNullable(found.latest());
        openCurrentSigner();
    }

    /** See {@link SensorKeyDirectory#create}: generation 0, made whole or not at all. */
    static void createFirst(Path dir, XmssPrivateKey key) throws IOException {
        Path abs = dir.toAbsolutePath();
        if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(dir.toString(), null, "already exists");
        }
        Path parent = abs.getParent();
        Files.createDirectories(parent);
        Path tmp = Files.createTempDirectory(parent, "." + abs.getFileName() + KeyDirectoryLayout.TEMP_PREFIX);
        byte[] state = XmssKeyState.fresh(key).encode();
        try {
            DurableFiles.createAtomically(
                    tmp.resolve(PUBLIC_KEY), key.publicKey().encoded());
            DurableFiles.createAtomically(tmp.resolve(STATE), state);
            DurableFiles.forceDirectory(tmp);
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE);
            DurableFiles.forceDirectory(parent);
        } catch (IOException | RuntimeException e) {
            StateDestruction.destroy(tmp.resolve(STATE));
            Files.deleteIfExists(tmp.resolve(PUBLIC_KEY));
            Files.deleteIfExists(tmp);
            throw e;
        } finally {
            Secrets.wipe(state);
        }
    }

    private void openCurrentSigner() throws IOException {
        Opened o = openSigner(generation, currentKey, options.signer());
        this.currentStore = o.store();
        this.currentSigner = o.signer();
    }

    /** A key's locked state store and the signer on it. */
    private record Opened(FileStateStore store, XmssStatefulSigner signer) {}

    private Opened openSigner(long g, PqPublicKey key, XmssStatefulSigner.Options signerOptions) throws IOException {
        Path state = stateFile(dir, g);
        FileStateStore store = FileStateStore.open(state, options.lockTimeout());
        try {
            XmssStatefulSigner signer = XmssStatefulSigner.open(store, signerOptions);
            if (!PqPublicKey.of(signer.publicKey()).equals(key)) {
                signer.close();
                throw new KeyFormatException(state + " belongs to another key than generation " + g + "'s public key");
            }
            return new Opened(store, signer);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    long generation() {
        return generation;
    }

    PqPublicKey currentKey() {
        return currentKey;
    }

    XmssStatefulSigner currentSigner() {
        return currentSigner;
    }

    Optional<SignedKeyHandover> latestHandover() {
        return latestHandover;
    }

    /** See {@link SensorKeyDirectory#nextKeyReady}. */
    boolean nextKeyReady() {
        return Files.isRegularFile(stateFile(dir, generation + 1), LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(
                        generationDir(dir, generation + 1).resolve(PUBLIC_KEY), LinkOption.NOFOLLOW_LINKS);
    }

    /** See {@link SensorKeyDirectory#nextKey}. */
    Optional<PqPublicKey> nextKey() throws IOException {
        if (!nextKeyReady()) {
            return Optional.empty();
        }
        byte[] pub = readSmall(generationDir(dir, generation + 1).resolve(PUBLIC_KEY));
        return Optional.of(PublicKeys.decode(currentKey.parameterSet().setName(), pub));
    }

    /** See {@link SensorKeyDirectory#prepareNext}. */
    boolean prepareNext() throws IOException {
        long next = generation + 1;
        if (nextKeyReady()) {
            return false;
        }
        XmssParameterSet params = currentKey.xmss().orElseThrow().parameterSet();
        // One thread: this runs beside the signing key, which must keep a core for its readings.
        XmssPrivateKey key = XmssKeyGenerator.generate(params, WotsDerivation.SP800_208, new SecureRandom(), 1, null);
        byte[] state = null;
        try {
            options.observer().stepDone(RolloverStep.NEXT_KEY_GENERATED, next);
            Path parent = dir.resolve(GENERATIONS);
            Files.createDirectories(parent);
            Path tmp = Files.createTempDirectory(parent, KeyDirectoryLayout.TEMP_PREFIX);
            state = XmssKeyState.fresh(key).encode();
            DurableFiles.createAtomically(
                    tmp.resolve(PUBLIC_KEY), key.publicKey().encoded());
            DurableFiles.createAtomically(tmp.resolve(STATE), state);
            DurableFiles.forceDirectory(tmp);
            Path target = generationDir(dir, next);
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                // A prepared key whose state was lost cannot be trusted to be fresh; never reuse it.
                throw new IOException(target + " exists but is not a complete prepared key; remove it by hand");
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            DurableFiles.forceDirectory(parent);
            options.observer().stepDone(RolloverStep.NEXT_KEY_DURABLE, next);
            return true;
        } finally {
            Secrets.wipe(state);
            key.destroy();
        }
    }

    /** See {@link SensorKeyDirectory#loadNext}. */
    boolean loadNext() throws IOException {
        if (nextSigner != null || !nextKeyReady()) {
            return false;
        }
        long next = generation + 1;
        PqPublicKey nextKey = PublicKeys.decode(
                currentKey.parameterSet().setName(),
                readSmall(generationDir(dir, next).resolve(PUBLIC_KEY)));
        // Its trees are built on one thread, beside the signing key (see prepareNext).
        Opened o = openSigner(next, nextKey, options.signer().withThreads(1));
        nextStore = o.store();
        nextSigner = o.signer();
        return true;
    }

    boolean nextKeyLoaded() {
        return nextSigner != null;
    }

    /** See {@link SensorKeyDirectory#handOver}. */
    SignedKeyHandover handOver(Instant now) throws IOException {
        long next = generation + 1;
        if (!nextKeyReady()) {
            throw new IllegalStateException("no next key prepared for generation " + next);
        }
        Path nextDir = generationDir(dir, next);
        byte[] pub = readSmall(nextDir.resolve(PUBLIC_KEY));
        PqPublicKey nextKey = PublicKeys.decode(currentKey.parameterSet().setName(), pub);
        SignedKeyHandover signed = SignedKeyHandover.sign(currentSigner, currentKey, chainId, next, nextKey, now);
        options.observer().stepDone(RolloverStep.HANDOVER_SIGNED, next);
        DurableFiles.createAtomically(nextDir.resolve(HANDOVER), signed.encode());
        options.observer().stepDone(RolloverStep.HANDOVER_DURABLE, next);
        long retired = generation;
        closeRetired(); // a previous handover's, if nobody destroyed it yet
        retiredSigner = currentSigner;
        retiredStore = currentStore;
        generation = next;
        currentKey = nextKey;
        latestHandover = Optional.of(signed);
        if (nextSigner != null && PqPublicKey.of(nextSigner.publicKey()).equals(nextKey)) {
            currentStore = nextStore;
            currentSigner = nextSigner;
            nextStore = null;
            nextSigner = null;
        } else {
            closeNext();
            openCurrentSigner();
        }
        retiredPending = retired;
        return signed;
    }

    /** See {@link SensorKeyDirectory#destroyRetired}. */
    void destroyRetired() throws IOException {
        closeRetired();
        long retired = retiredPending;
        if (retired < 0) {
            return;
        }
        StateDestruction.destroy(stateFile(dir, retired));
        retiredPending = -1;
        options.observer().stepDone(RolloverStep.RETIRED_KEY_DESTROYED, retired);
    }

    /** Closes the current signer, the loaded next one and the retired one, each whatever happened to the others. */
    void close() {
        try {
            closeCurrent();
        } finally {
            try {
                closeNext();
            } finally {
                closeRetired();
            }
        }
    }

    private void closeRetired() {
        XmssStatefulSigner signer = retiredSigner;
        FileStateStore store = retiredStore;
        retiredSigner = null;
        retiredStore = null;
        if (store != null) {
            close(signer, store);
        }
    }

    private void closeCurrent() {
        close(currentSigner, currentStore);
    }

    /** Closes a signer and then, whatever happened, its store (which releases the state file). */
    private static void close(XmssStatefulSigner signer, FileStateStore store) {
        try {
            signer.close();
        } finally {
            store.close();
        }
    }

    private void closeNext() {
        if (nextSigner == null) {
            return;
        }
        XmssStatefulSigner signer = nextSigner;
        FileStateStore store = nextStore;
        nextSigner = null;
        nextStore = null;
        close(signer, store);
    }
}
