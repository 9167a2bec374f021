package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.core.Signer;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A per-sensor issuing key: a long-lived XMSS^MT key certified once by the plant root as a CA with
 * path length 0, which certifies each new key of its sensor (layout: docs/key-directory.md; roles
 * and the operator's rules: docs/certificates.md). Every certificate it issues burns one of its indices durably before the signature exists,
 * like every signature of a stateful key.
 *
 * <p>Not thread-safe: the sensor calls it from its rollover thread, one certificate at a time.
 */
public final class DeviceCa implements AutoCloseable {
    /** The device CA's certificate, issued by the plant root. */
    public static final String CERTIFICATE = "device-ca.pem";

    /**
     * The parameter set a device CA gets unless told otherwise. A device CA certifies one key per
     * rollover for the sensor's whole life, so it needs far more signatures than any sensor key:
     * 2^40 lasts for ever even at one rollover per second, and its subtrees of height 10 make the key
     * as quick to generate as the smallest sensor key. Its signatures (9,893 bytes) are what each
     * certificate costs on the wire; the 8-layer set with the same capacity would double that.
     */
    public static final String DEFAULT_PARAMETER_SET = "XMSSMT-SHA2_40/4_256";

    /** Longest validity of a sensor key's certificate; never beyond the device CA's own notAfter. */
    public static final Duration KEY_CERTIFICATE_VALIDITY = Duration.ofDays(365);

    private final Path dir;
    private final PqCertificate certificate;
    private final FileStateStore store;
    private final XmssStatefulSigner signer;
    private final Clock clock;

    private DeviceCa(
            Path dir, PqCertificate certificate, FileStateStore store, XmssStatefulSigner signer, Clock clock) {
        this.dir = dir;
        this.certificate = certificate;
        this.store = store;
        this.signer = signer;
        this.clock = clock;
    }

    /**
     * Creates a device CA directory: generates an XMSS / XMSS^MT key of {@code set}, has the plant
     * root ({@code rootSigner}, holding the key of {@code rootCertificate}) issue it a CA certificate
     * with path length 0 described by {@code template}, and makes {@code key.pub}, {@code key.state}
     * and {@value #CERTIFICATE} appear together (temporary directory, fsync, rename). A crash or a
     * failed write after the root signed costs the root that one index and nothing else.
     *
     * @param dir the directory to create; its parent is created if missing
     * @param set the device CA key's parameter set, e.g. {@link #DEFAULT_PARAMETER_SET}
     * @param rootSigner the plant root's signer
     * @param rootCertificate the plant root's certificate
     * @param template subject and validity of the CA certificate; CA and path length are set here
     * @return the device CA's certificate
     * @throws UnsupportedAlgorithmException if {@code set} has no RFC 9802 encoding (checked before
     *     the root signs anything)
     * @throws FileAlreadyExistsException if {@code dir} exists
     * @throws IllegalArgumentException if the root cannot issue the certificate (not a CA, validity
     *     beyond the root's, signer does not hold the root's key)
     * @throws IOException if a file cannot be written; the temporary directory is removed
     */
    public static PqCertificate create(
            Path dir,
            XmssParameterSet set,
            Signer rootSigner,
            PqCertificate rootCertificate,
            CertificateTemplate template)
            throws IOException {
        Objects.requireNonNull(set, "set");
        PublicKeys.requireRegistered(set);
        Path abs = dir.toAbsolutePath();
        if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(dir.toString(), null, "already exists");
        }
        Path parent = abs.getParent();
        Files.createDirectories(parent);
        XmssPrivateKey key = XmssKeyGenerator.generate(set);
        byte[] state = XmssKeyState.fresh(key).encode();
        Path tmp = Files.createTempDirectory(parent, "." + abs.getFileName() + ".new-");
        try {
            DurableFiles.createAtomically(
                    tmp.resolve(SensorKeyDirectory.PUBLIC_KEY), key.publicKey().encoded());
            DurableFiles.createAtomically(tmp.resolve(SensorKeyDirectory.STATE), state);
            DurableFiles.probeWritable(tmp.resolve(CERTIFICATE)); // before the root spends an index
            PqCertificate cert = Certificates.issue(
                    rootSigner,
                    rootCertificate,
                    PqPublicKey.of(key.publicKey()),
                    template.ca(true).pathLength(0));
            DurableFiles.createAtomically(
                    tmp.resolve(CERTIFICATE), Pem.write(cert).getBytes(StandardCharsets.US_ASCII));
            DurableFiles.forceDirectory(tmp);
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE);
            DurableFiles.forceDirectory(parent);
            return cert;
        } catch (IOException | RuntimeException e) {
            StateDestruction.destroy(tmp.resolve(SensorKeyDirectory.STATE));
            Files.deleteIfExists(tmp.resolve(SensorKeyDirectory.PUBLIC_KEY));
            Files.deleteIfExists(tmp.resolve(CERTIFICATE));
            Files.deleteIfExists(tmp);
            throw e;
        } finally {
            Secrets.wipe(state);
            key.destroy();
        }
    }

    /**
     * Opens a device CA directory and takes its key's lock for as long as it is open.
     *
     * @param dir the directory made by {@link #create}
     * @param lockTimeout the longest time to wait for the key's lock
     * @param clock gives the validity start of the certificates it issues
     * @return the open device CA; close it to release the lock
     * @throws KeyFormatException if the directory is incomplete, its certificate is not a CA with
     *     path length 0, or the certificate is not for the directory's key
     * @throws IOException if the certificate cannot be read or the state file's directory does not exist
     * @throws dev.pqsign.core.StatePersistenceException if the key state cannot be read or locked within
     *     {@code lockTimeout}
     */
    public static DeviceCa open(Path dir, Duration lockTimeout, Clock clock) throws IOException {
        Path certFile = dir.resolve(CERTIFICATE);
        PqCertificate cert;
        try {
            cert = PqCertificate.read(DurableFiles.readAll(certFile, 1 << 20));
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw new KeyFormatException(certFile + ": " + e.getMessage());
        }
        if (!cert.isCa() || !cert.pathLengthConstraint().equals(Optional.of(0))) {
            throw new KeyFormatException(
                    certFile + ": " + cert.subject() + " is not a device CA certificate (cA TRUE, path length 0)");
        }
        FileStateStore store = FileStateStore.open(dir.resolve(SensorKeyDirectory.STATE), lockTimeout);
        try {
            XmssStatefulSigner signer = XmssStatefulSigner.open(store);
            if (!PqPublicKey.of(signer.publicKey()).equals(cert.publicKey())) {
                signer.close();
                throw new KeyFormatException(certFile + " certifies another key than " + dir.resolve("key.state"));
            }
            return new DeviceCa(dir, cert, store, signer, Objects.requireNonNull(clock, "clock"));
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * The device CA's certificate (issued by the plant root).
     *
     * @return the CA certificate
     */
    public PqCertificate certificate() {
        return certificate;
    }

    /**
     * Certificates this device CA can still issue.
     *
     * @return the device CA key's indices left
     */
    public long remaining() {
        return signer.remaining();
    }

    /**
     * The certificate chain of a sensor key, stored in {@code file}: read if the file exists (it
     * must certify {@code key} and be issued by this device CA), otherwise issued now (one index of
     * this CA burned durably first) as an end-entity certificate for digital signatures, valid for
     * {@link #KEY_CERTIFICATE_VALIDITY} or until this CA's notAfter if sooner, and stored durably as
     * PEM (the key's certificate, then this CA's) before it is returned.
     *
     * @param key the sensor key to certify
     * @param subjectDn the distinguished name of the key's certificate
     * @param file where the chain is stored as PEM
     * @return the key's certificate, then this CA's
     * @throws KeyFormatException if {@code file} exists but does not hold such a chain
     * @throws IOException if the file cannot be written (the burned index is lost)
     */
    public KeyCertificateChain certify(PqPublicKey key, String subjectDn, Path file) throws IOException {
        Objects.requireNonNull(key, "key");
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return readCertificates(file, key);
        }
        Instant now = clock.instant();
        Instant notAfter = now.plus(KEY_CERTIFICATE_VALIDITY);
        if (notAfter.isAfter(certificate.notAfter())) {
            notAfter = certificate.notAfter();
        }
        if (!notAfter.isAfter(now)) {
            throw new IOException("device CA " + certificate.subject() + " expired at " + certificate.notAfter());
        }
        CertificateTemplate t = CertificateTemplate.of(subjectDn, now.minus(CertificateTemplate.BACKDATE), notAfter)
                .ca(false);
        DurableFiles.probeWritable(file);
        PqCertificate leaf = Certificates.issue(signer, certificate, key, t);
        KeyCertificateChain chain = KeyCertificateChain.of(List.of(leaf, certificate));
        DurableFiles.createAtomically(file, Pem.write(chain.certificates()).getBytes(StandardCharsets.US_ASCII));
        return chain;
    }

    private KeyCertificateChain readCertificates(Path file, PqPublicKey key) throws IOException {
        KeyCertificateChain chain;
        try {
            chain = KeyCertificateChain.of(
                    Pem.readCertificates(new String(DurableFiles.readAll(file, 1 << 20), StandardCharsets.US_ASCII)));
        } catch (CertificateFormatException | UnsupportedAlgorithmException | IllegalArgumentException e) {
            throw new KeyFormatException(file + ": " + e.getMessage());
        }
        if (!chain.leaf().publicKey().equals(key)) {
            throw new KeyFormatException(file + " certifies another key");
        }
        if (chain.certificates().size() != 2 || !chain.certificates().get(1).equals(certificate)) {
            throw new KeyFormatException(file + " was not issued by the device CA " + dir);
        }
        return chain;
    }

    /** Closes the signer (unused reserved indices stay burned) and releases the key's lock. */
    @Override
    public void close() {
        try {
            signer.close();
        } finally {
            store.close();
        }
    }

    @Override
    public String toString() {
        return "DeviceCa[" + certificate.subject() + ", " + dir + "]";
    }
}
