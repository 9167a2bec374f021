package dev.pqsign.keys;

import dev.pqsign.core.Signer;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.PqPublicKey;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A private key file opened by {@link PrivateKeys#open}, with its public key. For a key state it
 * holds the stateful signer and its {@link FileStateStore}; for a HAETAE key the decoded private key.
 * {@link #close()} closes the signer and then the store (a signer that reserved indices ahead gives
 * the unused ones back), or destroys the HAETAE key. Its {@link #toString()} names the file, format
 * and parameter set, never key material.
 */
public final class OpenedPrivateKey implements AutoCloseable {
    private final Path file;
    private final PrivateKeyFormat format;
    private final PqPublicKey publicKey;
    private final Signer signer;
    private final StatefulSigner stateful;
    private final FileStateStore store;
    private final HaetaePrivateKey haetae;
    private boolean closed;

    private OpenedPrivateKey(
            Path file,
            PrivateKeyFormat format,
            PqPublicKey publicKey,
            Signer signer,
            StatefulSigner stateful,
            FileStateStore store,
            HaetaePrivateKey haetae) {
        this.file = file;
        this.format = format;
        this.publicKey = publicKey;
        this.signer = signer;
        this.stateful = stateful;
        this.store = store;
        this.haetae = haetae;
    }

    static OpenedPrivateKey stateful(
            Path file, PrivateKeyFormat format, StatefulSigner signer, PqPublicKey publicKey, FileStateStore store) {
        return new OpenedPrivateKey(file, format, publicKey, signer, signer, store, null);
    }

    static OpenedPrivateKey haetae(Path file, HaetaePrivateKey key) {
        return new OpenedPrivateKey(
                file,
                PrivateKeyFormat.HAETAE_KEY_FILE,
                PqPublicKey.of(key.publicKey()),
                new HaetaeSigner(key),
                null,
                null,
                key);
    }

    /**
     * The file the key was opened from.
     *
     * @return the path given to {@link PrivateKeys#open}
     */
    public Path file() {
        return file;
    }

    /**
     * The file's format.
     *
     * @return the format its magic names
     */
    public PrivateKeyFormat format() {
        return format;
    }

    /**
     * The key's public key.
     *
     * @return the public key
     */
    public PqPublicKey publicKey() {
        return publicKey;
    }

    /**
     * A signer of the key: the stateful signer of a key state, or a HAETAE signer with the default
     * settings (empty context, the current sampler, the fast engine).
     *
     * @return the signer; it stops working when this key is closed
     */
    public Signer signer() {
        return signer;
    }

    /**
     * The stateful signer of a key state: every index is written durably before its signature
     * exists.
     *
     * @return the signer, or empty for a HAETAE key
     */
    public Optional<StatefulSigner> statefulSigner() {
        return Optional.ofNullable(stateful);
    }

    /**
     * The decoded HAETAE private key, for a HAETAE signer with other settings (a context, another
     * sampler or engine).
     *
     * @return the key, destroyed when this is closed; empty for a key state
     */
    public Optional<HaetaePrivateKey> haetaeKey() {
        return Optional.ofNullable(haetae);
    }

    /** Closes the signer then the store of a key state, or destroys the HAETAE key; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (haetae != null) {
            haetae.destroy();
            return;
        }
        try {
            stateful.close();
        } finally {
            store.close();
        }
    }

    @Override
    public String toString() {
        return "OpenedPrivateKey[" + file + ", " + format + ", "
                + signer.parameterSet().setName() + "]";
    }
}
