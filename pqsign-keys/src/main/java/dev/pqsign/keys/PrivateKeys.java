package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssSignerOptions;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.state.RegularFiles;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Opens the private key files pqsign writes: an XMSS / XMSS^MT key state ({@code key.state},
 * docs/formats/xmss-state.md, also the current key of a sensor key directory), an LMS / HSS key
 * state ({@code key.state}, docs/formats/hss-state.md) and a HAETAE private key ({@code key.sk},
 * {@link HaetaeKeyFile}), told apart by their magic here, so that no caller guesses a file's scheme.
 *
 * <p>{@link #open} returns the key ready to sign, with its public key; {@link #formatOf} and
 * {@link #summary} only read, for a caller that decides by the kind of key (which options apply,
 * whether a key can be split) before it opens one. None of them takes the ownership of a key
 * directory ({@link KeyDirectoryOwner}): a caller that signs with the current key of one takes it
 * first, for as long as it signs.
 */
public final class PrivateKeys {
    /** Largest private key file read; the largest key state pqsign writes is far smaller. */
    public static final int MAX_FILE_BYTES = 1 << 20;

    /** Bytes of a file's start that tell the formats apart. */
    private static final int MAGIC_BYTES = 4;

    private PrivateKeys() {}

    /**
     * The format of a private key file, from its magic; nothing else of the file is read.
     *
     * @param file the file
     * @return the format, or empty if the file starts with none of the private key magics
     * @throws dev.pqsign.state.NotRegularFileException if it is a directory, FIFO, socket or device
     *     (it is not opened)
     * @throws java.nio.file.NoSuchFileException if it does not exist
     * @throws IOException if it cannot be read
     */
    public static Optional<PrivateKeyFormat> formatOf(Path file) throws IOException {
        try (FileChannel ch = RegularFiles.openForReading(file);
                InputStream in = Channels.newInputStream(ch)) {
            return PrivateKeyFormat.of(in.readNBytes(MAGIC_BYTES));
        }
    }

    /**
     * What a private key file holds, read without opening it for signing (no lock, nothing
     * written): its format, parameter set, public key and, for a key state, the signatures left.
     * The private key is decoded to check the file, then wiped.
     *
     * @param file the file
     * @return the summary, or empty if the file is no pqsign private key (no magic matches)
     * @throws KeyFormatException if the file has a private key magic but is malformed or larger than
     *     {@link #MAX_FILE_BYTES}
     * @throws dev.pqsign.state.NotRegularFileException if it is a directory, FIFO, socket or device
     * @throws java.nio.file.NoSuchFileException if it does not exist
     * @throws IOException if it cannot be read
     */
    public static Optional<PrivateKeySummary> summary(Path file) throws IOException {
        byte[] b = read(file);
        try {
            Optional<PrivateKeyFormat> format = PrivateKeyFormat.of(b);
            if (format.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(
                    switch (format.get()) {
                        case XMSS_KEY_STATE -> xmssSummary(XmssKeyState.decode(b));
                        case HSS_KEY_STATE -> hssSummary(HssKeyState.decode(b));
                        case HAETAE_KEY_FILE -> haetaeSummary(HaetaeKeyFile.decode(b));
                    });
        } finally {
            Secrets.wipe(b);
        }
    }

    private static PrivateKeySummary xmssSummary(XmssKeyState s) {
        try {
            return new PrivateKeySummary(
                    PrivateKeyFormat.XMSS_KEY_STATE,
                    s.key().parameterSet().setName(),
                    PqPublicKey.of(s.key().publicKey()),
                    OptionalLong.of(s.remaining()));
        } finally {
            s.key().destroy();
        }
    }

    private static PrivateKeySummary hssSummary(HssKeyState s) {
        try {
            return new PrivateKeySummary(
                    PrivateKeyFormat.HSS_KEY_STATE,
                    s.key().parameterSet().setName(),
                    PqPublicKey.of(s.key().publicKey()),
                    OptionalLong.of(s.remaining()));
        } finally {
            s.key().destroy();
        }
    }

    private static PrivateKeySummary haetaeSummary(HaetaePrivateKey k) {
        try {
            return new PrivateKeySummary(
                    PrivateKeyFormat.HAETAE_KEY_FILE,
                    k.parameterSet().setName(),
                    PqPublicKey.of(k.publicKey()),
                    OptionalLong.empty());
        } finally {
            k.destroy();
        }
    }

    /**
     * Opens any private key file pqsign writes, ready to sign. A key state is opened over a
     * {@link FileStateStore} of the file, whose lock each reservation takes (waiting up to the
     * options' lock timeout), with a stateful signer of its scheme: every index is written durably
     * before its signature exists. A HAETAE key file is decoded; it is stateless.
     *
     * @param file the key file
     * @param options the lock timeout and the stateful signers' options
     * @return the opened key and its public key; the caller closes it
     * @throws KeyFormatException if the file is no pqsign private key, is malformed, or is larger
     *     than {@link #MAX_FILE_BYTES}
     * @throws dev.pqsign.state.NotRegularFileException if it is a directory, FIFO, socket or device
     * @throws java.nio.file.NoSuchFileException if it does not exist
     * @throws IOException if it cannot be read, or its state store cannot be opened
     */
    public static OpenedPrivateKey open(Path file, Options options) throws IOException {
        Objects.requireNonNull(options, "options");
        byte[] b = read(file);
        PrivateKeyFormat format;
        try {
            format = PrivateKeyFormat.of(b)
                    .orElseThrow(() -> new KeyFormatException(
                            file + " is not a pqsign private key (not an XMSS or HSS key.state, nor a HAETAE key.sk)"));
            if (format == PrivateKeyFormat.HAETAE_KEY_FILE) {
                return OpenedPrivateKey.haetae(file, HaetaeKeyFile.decode(b));
            }
        } finally {
            Secrets.wipe(b);
        }
        // The signer reads the state from the store, under the store's lock: not the bytes read above.
        FileStateStore store = FileStateStore.open(file, options.lockTimeout);
        try {
            StatefulSigner signer;
            PqPublicKey publicKey;
            if (format == PrivateKeyFormat.HSS_KEY_STATE) {
                HssStatefulSigner h = HssStatefulSigner.open(store, options.hss);
                signer = h;
                publicKey = PqPublicKey.of(h.publicKey());
            } else {
                XmssStatefulSigner x = XmssStatefulSigner.open(store, options.xmss);
                signer = x;
                publicKey = PqPublicKey.of(x.publicKey());
            }
            return OpenedPrivateKey.stateful(file, format, signer, publicKey, store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The whole file, at most {@link #MAX_FILE_BYTES}; never a FIFO or a device. */
    private static byte[] read(Path file) throws IOException {
        try (FileChannel ch = RegularFiles.openForReading(file);
                InputStream in = Channels.newInputStream(ch)) {
            // readNBytes grows its buffer as data arrives: a file that lies about its size cannot
            // make this allocate the limit.
            byte[] b = in.readNBytes(MAX_FILE_BYTES + 1);
            if (b.length > MAX_FILE_BYTES) {
                Secrets.wipe(b);
                throw new KeyFormatException(
                        file + ": more than " + MAX_FILE_BYTES + " bytes; no pqsign private key is that large");
            }
            return b;
        }
    }

    /**
     * How {@link #open} opens a key state: the longest wait for the state's lock, and the options
     * of the XMSS and of the HSS stateful signer. A HAETAE key uses none of them.
     */
    public static final class Options {
        private static final Options DEFAULTS =
                new Options(Duration.ofSeconds(10), XmssStatefulSigner.Options.defaults(), HssSignerOptions.defaults());

        private final Duration lockTimeout;
        private final XmssStatefulSigner.Options xmss;
        private final HssSignerOptions hss;

        private Options(Duration lockTimeout, XmssStatefulSigner.Options xmss, HssSignerOptions hss) {
            this.lockTimeout = lockTimeout;
            this.xmss = xmss;
            this.hss = hss;
        }

        /**
         * A lock timeout of 10 seconds and the signers' default options (batch 1: no index lost on
         * a crash).
         *
         * @return the default options
         */
        public static Options defaults() {
            return DEFAULTS;
        }

        /**
         * The longest wait for another process holding the key state's lock.
         *
         * @param timeout the wait, zero or more
         * @return a new value with only that option changed
         * @throws IllegalArgumentException if {@code timeout} is negative
         */
        public Options withLockTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("lock timeout must not be negative, got " + timeout);
            }
            return new Options(timeout, xmss, hss);
        }

        /**
         * The options of an XMSS / XMSS^MT signer.
         *
         * @param options batch, threads, reserving ahead and the other XMSS signer options
         * @return a new value with only that option changed
         */
        public Options withXmss(XmssStatefulSigner.Options options) {
            return new Options(lockTimeout, Objects.requireNonNull(options, "options"), hss);
        }

        /**
         * The options of an LMS / HSS signer.
         *
         * @param options batch, threads, reserving ahead and the other HSS signer options
         * @return a new value with only that option changed
         */
        public Options withHss(HssSignerOptions options) {
            return new Options(lockTimeout, xmss, Objects.requireNonNull(options, "options"));
        }

        /**
         * The longest wait for the key state's lock.
         *
         * @return the timeout
         */
        public Duration lockTimeout() {
            return lockTimeout;
        }

        /**
         * The options an XMSS / XMSS^MT key state is opened with.
         *
         * @return the XMSS signer options
         */
        public XmssStatefulSigner.Options xmss() {
            return xmss;
        }

        /**
         * The options an LMS / HSS key state is opened with.
         *
         * @return the HSS signer options
         */
        public HssSignerOptions hss() {
            return hss;
        }

        @Override
        public String toString() {
            return "PrivateKeys.Options[lockTimeout=" + lockTimeout + ", xmss=" + xmss + ", hss=" + hss + "]";
        }
    }
}
