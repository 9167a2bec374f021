package dev.pqsign.cli;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.StatefulSigner;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.keys.DeviceCa;
import dev.pqsign.keys.KeyDirectoryOwner;
import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.OpenedPrivateKey;
import dev.pqsign.keys.PrivateKeyFormat;
import dev.pqsign.keys.PrivateKeys;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.state.RegularFiles;
import dev.pqsign.telemetry.CertificateEnrolment;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.operator.DeviceCaTrust;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Keys for {@code pqsign sensor} (a durable indexed signer) and {@code pqsign operator} (a pinned key). */
final class TelemetryKeys {
    private TelemetryKeys() {}

    /** Suffix of the HAETAE index counter file kept next to {@code key.sk}. */
    static final String COUNTER_SUFFIX = ".counter";

    /** An open sensor key; {@link #close()} releases the signer (unused reserved XMSS indices are given back). */
    static final class OpenSensorKey implements AutoCloseable {
        final SensorKey sensorKey;
        final String description;
        /** The rolling key when the sensor rolls over by itself, else null. */
        final RollingSensorKey rolling;

        private final AutoCloseable[] resources;
        private boolean closed;

        OpenSensorKey(SensorKey sensorKey, String description, AutoCloseable... resources) {
            this(sensorKey, description, null, resources);
        }

        OpenSensorKey(SensorKey sensorKey, String description, RollingSensorKey rolling, AutoCloseable... resources) {
            this.sensorKey = sensorKey;
            this.description = description;
            this.rolling = rolling;
            this.resources = resources;
        }

        /** Closes signer then store; idempotent. */
        @Override
        public synchronized void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            IOException first = null;
            for (AutoCloseable r : resources) {
                try {
                    r.close();
                } catch (Exception e) {
                    if (first == null) {
                        first = e instanceof IOException ? (IOException) e : new IOException(e.getMessage(), e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }

    /**
     * {@code true} if {@code key} is an XMSS / XMSS^MT {@code key.state} inside a sensor key directory
     * (a {@code key.pub} beside it), which can roll over by itself.
     */
    static boolean isKeyDirectory(Path key) {
        Path parent = key.toAbsolutePath().getParent();
        if (!key.getFileName().toString().equals(SensorKeyDirectory.STATE) || parent == null) {
            return false;
        }
        Path pub = parent.resolve(SensorKeyDirectory.PUBLIC_KEY);
        if (!Files.exists(pub, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try {
            // a key.pub that is a FIFO or a device must not make the directory an ordinary key file
            RegularFiles.requireRegular(pub);
        } catch (IOException e) {
            throw CliException.usage(PqsignCli.message(e));
        }
        return true;
    }

    /** {@code true} if {@code key} is an LMS / HSS key state (key directories roll over XMSS keys only). */
    static boolean isHssKeyState(Path key) {
        return KeyFiles.privateKeyFormat(key, "private key").orElse(null) == PrivateKeyFormat.HSS_KEY_STATE;
    }

    /**
     * Opens the key directory of {@code keyState} with automatic rollover: the current generation
     * signs, the next key is prepared when {@code prepareAt} signatures are left (0: half the key's
     * capacity) and takes over when {@link KeyRollover#DEFAULT_SWITCH_AT} are left.
     */
    static OpenSensorKey openRollingKey(
            Path keyState, SensorSigningOptions signing, int lockTimeoutSeconds, long prepareAt) throws IOException {
        return openRollingKey(keyState, signing, lockTimeoutSeconds, prepareAt, null);
    }

    /**
     * As {@link #openRollingKey(Path, SensorSigningOptions, int, long)}; with {@code deviceCaDir}, the
     * device CA there certifies the current key now (unless its certificate is stored already) and
     * every next key before the handover to it.
     */
    static OpenSensorKey openRollingKey(
            Path keyState, SensorSigningOptions signing, int lockTimeoutSeconds, long prepareAt, Path deviceCaDir)
            throws IOException {
        signing.check();
        Path dir = keyState.toAbsolutePath().getParent();
        SensorKeyDirectory keys;
        try {
            keys = SensorKeyDirectory.open(
                    dir,
                    SensorKeyDirectory.Options.defaults()
                            .withSigner(signing.xmss())
                            .withLockTimeout(Duration.ofSeconds(lockTimeoutSeconds)));
        } catch (KeyFormatException e) {
            throw CliException.usage(dir + ": " + e.getMessage());
        }
        DeviceCa deviceCa = null;
        KeyRollover.Certifier certifier = KeyRollover.Certifier.NONE;
        if (deviceCaDir != null) {
            try {
                deviceCa = openDeviceCa(deviceCaDir, keys, lockTimeoutSeconds);
                DeviceCa ca = deviceCa;
                String chain = Hex.encode(keys.chainId()).substring(0, 16);
                certifier = (g, key) ->
                        ca.certify(key, "CN=pqsign sensor " + chain + " generation " + g, keys.certificateFile(g));
                certifier.certify(keys.generation(), keys.currentKey());
            } catch (IOException | RuntimeException e) {
                if (deviceCa != null) {
                    deviceCa.close();
                }
                keys.close();
                throw e;
            }
        }
        KeyRollover rollover;
        RollingSensorKey rolling;
        try {
            rollover = KeyRollover.of(keys, prepareAt, KeyRollover.DEFAULT_SWITCH_AT, Clock.systemUTC(), certifier);
            rolling = new RollingSensorKey(keys, rollover);
        } catch (IOException | RuntimeException e) {
            if (deviceCa != null) {
                deviceCa.close();
            }
            keys.close();
            if (e instanceof IllegalArgumentException && !(e instanceof KeyFormatException)) {
                throw CliException.usage("--rollover-at: " + e.getMessage());
            }
            throw e;
        }
        KeyRollover.Status st = rolling.status();
        String desc = String.format(
                "%s key generation %d, next index %d, %d signatures left; next key prepared at %d" + " left%s",
                st.parameterSet(),
                st.generation(),
                keys.currentSigner().nextIndex(),
                st.remaining(),
                rollover.prepareAt(),
                st.nextKeyReady() ? " (ready)" : "");
        if (deviceCa == null) {
            return new OpenSensorKey(rolling.current(), desc, rolling, rolling);
        }
        desc += String.format(
                "; certified by device CA %s (%d certificates left)",
                deviceCa.certificate().subject(), deviceCa.remaining());
        // The rollover first (it may still be certifying a next key in the background), then the CA.
        return new OpenSensorKey(rolling.current(), desc, rolling, rolling, deviceCa);
    }

    /**
     * Opens the device CA for a sensor key directory, after checking that the sensor's keys can be
     * certified at all (a set with an RFC 9802 encoding), so a refusal costs nothing.
     */
    private static DeviceCa openDeviceCa(Path deviceCaDir, SensorKeyDirectory keys, int lockTimeoutSeconds)
            throws IOException {
        try {
            PublicKeys.requireRegistered(keys.currentKey().xmss().orElseThrow().parameterSet());
        } catch (UnsupportedAlgorithmException e) {
            throw CliException.usage("--device-ca: the sensor's key set " + e.getMessage());
        }
        try {
            return DeviceCa.open(deviceCaDir, Duration.ofSeconds(lockTimeoutSeconds), Clock.systemUTC());
        } catch (KeyFormatException | NoSuchFileException e) {
            throw CliException.usage("--device-ca " + deviceCaDir + ": " + e.getMessage());
        }
    }

    /**
     * Opens a sensor key: an XMSS / XMSS^MT {@code key.state} (every index reserved durably before its
     * signature, {@code batch} per state write) or a HAETAE {@code key.sk} (indices from a counter file
     * {@code key.sk.counter} next to it, {@code batch} per write). {@code cert}, if given, must certify
     * this key; it is published on the certificate node. {@code signing} also says whether an XMSS key
     * reserves ahead and resumes SHA-256 mid-states.
     */
    static OpenSensorKey openSensorKey(Path key, Path cert, SensorSigningOptions signing, int lockTimeoutSeconds)
            throws IOException {
        signing.check();
        // A key in a key directory (key.pub beside it): the directory is this sensor's for its run.
        KeyDirectoryOwner owner = KeyFiles.ownKeyDirectory(key, lockTimeoutSeconds);
        if (owner == null) {
            return openKeyFile(key, cert, signing, lockTimeoutSeconds);
        }
        try {
            OpenSensorKey k = openKeyFile(key, cert, signing, lockTimeoutSeconds);
            return new OpenSensorKey(k.sensorKey, k.description, k, owner); // the key first, then the directory
        } catch (IOException | RuntimeException e) {
            owner.close();
            throw e;
        }
    }

    private static OpenSensorKey openKeyFile(Path key, Path cert, SensorSigningOptions signing, int lockTimeoutSeconds)
            throws IOException {
        PrivateKeyFormat format = KeyFiles.privateKeyFormat(key, "private key")
                .orElseThrow(() -> CliException.usage(
                        key + " is not a pqsign private key (not an XMSS or HSS key.state, nor a HAETAE key.sk)"));
        if (format == PrivateKeyFormat.HSS_KEY_STATE) {
            requireRecordableName(key);
        }
        if (format.isKeyState()) {
            return stateKey(
                    PrivateKeys.open(
                            key,
                            PrivateKeys.Options.defaults()
                                    .withLockTimeout(Duration.ofSeconds(lockTimeoutSeconds))
                                    .withXmss(signing.xmss())
                                    .withHss(signing.hss())),
                    cert);
        }
        return haetaeKey(KeyFiles.openHaetaeKey(key, "private key"), cert, signing.batch);
    }

    /**
     * A sensor key of an opened HAETAE {@code key.sk}: indices from a counter file {@code
     * key.sk.counter} next to it, {@code batch} per write; its certificate (if any) matched to the
     * key, and the key destroyed if it does not.
     */
    private static OpenSensorKey haetaeKey(OpenedPrivateKey opened, Path cert, int batch) throws IOException {
        HaetaePrivateKey sk = opened.haetaeKey().orElseThrow();
        byte[] pub = sk.publicKey().getEncoded();
        byte[] der;
        try {
            der = certificateFor(cert, pub);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        Path counter = opened.file().resolveSibling(opened.file().getFileName() + COUNTER_SUFFIX);
        SequencedSigner signer;
        try {
            signer = SequencedSigner.openFile(opened.signer(), counter, batch);
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw new IOException("cannot open index counter " + counter + ": " + e.getMessage(), e);
        }
        String desc = String.format(
                "%s, index counter %s, next index %d", sk.parameterSet().setName(), counter, signer.nextIndex());
        return new OpenSensorKey(new SensorKey(signer, KeyId.ofPublicKey(pub), der), desc, signer, opened);
    }

    /**
     * A sensor key of an opened XMSS or HSS {@code key.state}: its certificate (if any) matched to
     * the key, and the key closed if it does not.
     */
    private static OpenSensorKey stateKey(OpenedPrivateKey opened, Path cert) {
        StatefulSigner signer = opened.statefulSigner().orElseThrow();
        byte[] pub = opened.publicKey().rawEncoding();
        byte[] der;
        try {
            der = certificateFor(cert, pub);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        String desc = String.format(
                "%s, next index %d, %d signatures left",
                signer.parameterSet().setName(), signer.nextIndex(), signer.remaining());
        return new OpenSensorKey(new SensorKey(signer, KeyId.ofPublicKey(pub), der), desc, opened);
    }

    /**
     * Refuses, before any index is reserved, an HSS key whose set name a signed reading cannot carry
     * (more than one level).
     */
    private static void requireRecordableName(Path key) {
        String name = KeyFiles.privateKeySummary(key, "private key")
                .orElseThrow(() -> CliException.usage(key + ": changed while it was read (no longer an HSS key state)"))
                .parameterSetName();
        if (name.length() > MAX_RECORD_SET_NAME) {
            throw CliException.usage(key + ": " + name + " has a " + name.length() + "-character name; a signed"
                    + " reading carries at most " + MAX_RECORD_SET_NAME + " (docs/formats/signed-reading.md): a"
                    + " sensor signs with a one-level LMS key");
        }
    }

    /** The longest parameter-set name a signed reading carries (docs/formats/signed-reading.md). */
    static final int MAX_RECORD_SET_NAME = 64;

    private static byte[] certificateFor(Path cert, byte[] publicKey) {
        if (cert == null) {
            return new byte[0];
        }
        PqCertificate c = CertificateSupport.read(cert);
        byte[] certKey;
        try {
            certKey = c.publicKey().rawEncoding();
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage("certificate " + cert + ": " + e.getMessage());
        }
        if (!Arrays.equals(certKey, publicKey)) {
            throw CliException.usage("certificate " + cert + " (" + c.subject() + ") certifies another key than --key");
        }
        return c.encoded();
    }

    /**
     * A sensor key given by certificate: the key, and the binding to the CA that certified it
     * (null for a key pinned as a bare public key); {@code resumed} says why a first chain that is no
     * longer valid now was trusted (the operator enrolled it before), else null.
     */
    record CertifiedKey(PqPublicKey key, DeviceCaTrust deviceCa, String resumed) {}

    /**
     * As {@link #certifiedKey(Path, Path, Path)} for a reader that keeps no enrolments (the chain must
     * be valid now).
     */
    static CertifiedKey certifiedKey(Path certFile, Path rootFile) {
        return certifiedKey(certFile, rootFile, null);
    }

    /**
     * The subject key of {@code certFile} (the sensor's certificate, then its device CA's, if any)
     * after checking that chain against {@code rootFile} with the rules every later key of the
     * sensor must also pass ({@link DeviceCaTrust}: signatures, validity, CA constraints, path
     * length 0 for the device CA).
     *
     * <p>Enrolment: a chain valid now is trusted, and, with {@code chainsDir}, recorded there
     * ({@link CertificateEnrolment}) unless this chain is recorded already. Resumption: a chain that
     * is not valid now only because a certificate of it (or the root) expired is trusted if
     * {@code chainsDir} records this very chain; it is then checked completely at the recorded time
     * (docs/certificates.md, "Restarting after the first certificate expired").
     *
     * @param chainsDir the operator's chains directory, or null to require validity now
     * @throws CliException exit 1 if the chain is not valid under the root, or an enrolment record
     *     cannot be read or written
     */
    static CertifiedKey certifiedKey(Path certFile, Path rootFile, Path chainsDir) {
        List<PqCertificate> chain = CertificateSupport.readChain(certFile, KeyFiles.readSmall(certFile, "certificate"));
        PqCertificate root = CertificateSupport.read(rootFile);
        String refused = "certificate " + certFile + " is not valid under " + rootFile + ": ";
        PqPublicKey key;
        try {
            key = chain.get(0).publicKey();
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            // As the chain check would: a key certificate whose key cannot be used is not valid.
            throw new CliException(CliException.FAILED, refused + e.getMessage());
        }
        Instant now = Instant.now();
        CertificateEnrolment earlier = chainsDir == null ? null : enrolment(chainsDir, chain);
        try {
            DeviceCaTrust trust = DeviceCaTrust.of(chain, root, now);
            if (chainsDir != null && (earlier == null || !earlier.isOf(chain))) {
                try {
                    CertificateEnrolment.of(chain, now).store(chainsDir);
                } catch (IOException e) {
                    throw new CliException(
                            CliException.FAILED,
                            "cannot record the enrolment of " + certFile + " in " + chainsDir + ": " + e.getMessage(),
                            e);
                }
            }
            return new CertifiedKey(key, trust, null);
        } catch (IllegalArgumentException e) {
            String expired = expired(chain, root, now);
            if (expired.isEmpty()) {
                throw new CliException(CliException.FAILED, refused + e.getMessage());
            }
            if (earlier == null || !earlier.isOf(chain)) {
                String why = chainsDir == null
                        ? ""
                        : "; the operator's data directory has no enrolment of this chain ("
                                + CertificateEnrolment.file(chainsDir, CertificateEnrolment.chainId(chain))
                                + "), and a sensor is enrolled only on a first certificate valid now";
                throw new CliException(CliException.FAILED, refused + e.getMessage() + why);
            }
            try {
                DeviceCaTrust trust = DeviceCaTrust.resumed(chain, root, earlier);
                return new CertifiedKey(
                        key,
                        trust,
                        "first certificate chain " + certFile + ": " + expired
                                + "; it was checked valid under " + root.subject() + " at " + earlier.validatedAt()
                                + " and is trusted as then");
            } catch (IllegalArgumentException again) {
                throw new CliException(
                        CliException.FAILED,
                        refused + again.getMessage() + " (checked at " + earlier.validatedAt()
                                + ", when the operator enrolled it)");
            }
        }
    }

    /** The operator's enrolment record of the sensor {@code chain} names, or null if it has none. */
    private static CertificateEnrolment enrolment(Path chainsDir, List<PqCertificate> chain) {
        try {
            return CertificateEnrolment.load(chainsDir, CertificateEnrolment.chainId(chain))
                    .orElse(null);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, e.getMessage(), e);
        }
    }

    /** The certificates of {@code chain} and the root that expired before {@code now}, in words; empty if none. */
    private static String expired(List<PqCertificate> chain, PqCertificate root, Instant now) {
        StringBuilder sb = new StringBuilder();
        List<PqCertificate> all = new ArrayList<>(chain);
        all.add(root);
        for (PqCertificate c : all) {
            if (now.isAfter(c.notAfter())) {
                sb.append(sb.length() == 0 ? "" : ", ")
                        .append(c.subject())
                        .append(" expired at ")
                        .append(c.notAfter());
            }
        }
        return sb.toString();
    }

    /** Pins {@code key}: id = SHA-256 of its raw encoding, index prefix for XMSS / XMSS^MT. */
    static ReadingVerifier.TrustedKey trusted(PqPublicKey key) {
        EmbeddedIndex idx = key.xmss()
                .map(x -> EmbeddedIndex.bigEndianPrefix(x.parameterSet().indexBytes()))
                .orElse(EmbeddedIndex.NONE);
        // An operator verifies a stream of one sensor's signatures: XMSS^MT upper layers once per bottom tree.
        dev.pqsign.core.Verifier verifier = key.xmss()
                .<dev.pqsign.core.Verifier>map(dev.pqsign.xmss.XmssVerifier::withUpperLayerCache)
                .orElseGet(key::verifier);
        return ReadingVerifier.TrustedKey.forPublicKey(key.rawEncoding(), verifier, idx);
    }
}
