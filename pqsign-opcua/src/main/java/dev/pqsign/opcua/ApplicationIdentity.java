package dev.pqsign.opcua;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateBuilder;
import org.eclipse.milo.opcua.stack.core.util.SelfSignedCertificateGenerator;

/**
 * An OPC UA application instance certificate (RSA 2048, self-signed) with its private key,
 * persisted in a PKCS#12 file so the identity, and therefore the peers' trust in it, survives
 * restarts. Used for transport security only; readings are signed with the sensor's post-quantum
 * key.
 */
public final class ApplicationIdentity {

    private static final String ALIAS = "application";

    private final KeyPair keyPair;
    private final X509Certificate certificate;

    private ApplicationIdentity(KeyPair keyPair, X509Certificate certificate) {
        this.keyPair = keyPair;
        this.certificate = certificate;
    }

    /**
     * Loads the identity from {@code pfx}, or creates and stores a new one there (written to a
     * temporary file and moved into place, so a crash never leaves a half-written key store).
     *
     * @param pfx the PKCS#12 key store file
     * @param applicationUri the URI put in the certificate's subjectAltName (must match the
     *     application's configured URI)
     * @param commonName the new certificate's common name
     * @param password protects the PKCS#12 file
     * @return the identity
     * @throws IOException if the file cannot be read or written, or holds no application key entry
     */
    public static ApplicationIdentity loadOrCreate(Path pfx, String applicationUri, String commonName, char[] password)
            throws IOException {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            if (Files.exists(pfx)) {
                try (InputStream in = Files.newInputStream(pfx)) {
                    ks.load(in, password);
                }
                Key key = ks.getKey(ALIAS, password);
                if (!(key instanceof PrivateKey pk) || !(ks.getCertificate(ALIAS) instanceof X509Certificate cert)) {
                    throw new IOException(pfx + " holds no application key entry '" + ALIAS + "'");
                }
                return new ApplicationIdentity(new KeyPair(cert.getPublicKey(), pk), cert);
            }
            KeyPair kp = SelfSignedCertificateGenerator.generateRsaKeyPair(2048);
            X509Certificate cert = new SelfSignedCertificateBuilder(kp)
                    .setCommonName(commonName)
                    .setOrganization("pqsign")
                    .setApplicationUri(applicationUri)
                    .addDnsName("localhost")
                    .addIpAddress("127.0.0.1")
                    .build();
            ks.load(null, password);
            ks.setKeyEntry(ALIAS, kp.getPrivate(), password, new X509Certificate[] {cert});
            Files.createDirectories(pfx.toAbsolutePath().getParent());
            Path tmp = pfx.resolveSibling(pfx.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            try {
                // The key store password is not a secret the operator types in, so the file's
                // permissions are what protects the private key.
                Files.createFile(
                        tmp,
                        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(tmp);
            }
            try (OutputStream out = Files.newOutputStream(tmp)) {
                ks.store(out, password);
            }
            Files.move(tmp, pfx, StandardCopyOption.ATOMIC_MOVE);
            return new ApplicationIdentity(kp, cert);
        } catch (GeneralSecurityException e) {
            throw new IOException(
                    "cannot load or create the application certificate at " + pfx + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot create the application certificate at " + pfx + ": " + e.getMessage(), e);
        }
    }

    /**
     * The key pair.
     *
     * @return the application's RSA key pair
     */
    public KeyPair keyPair() {
        return keyPair;
    }

    /**
     * The self-signed certificate.
     *
     * @return the application certificate
     */
    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * Writes an application certificate (DER) for the peers' trust lists, durably and only if the
     * file does not hold it already.
     *
     * @param cert the certificate
     * @param file where, e.g. {@code DATA_DIR/pki/operator-application.der}
     * @return {@code file}
     * @throws IOException if it cannot be encoded or written
     */
    public static java.nio.file.Path export(X509Certificate cert, java.nio.file.Path file) throws IOException {
        try {
            byte[] der = cert.getEncoded();
            if (!java.nio.file.Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    || !java.util.Arrays.equals(java.nio.file.Files.readAllBytes(file), der)) {
                dev.pqsign.state.DurableFiles.writeAtomically(file, der);
            }
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IOException("cannot encode the application certificate: " + e.getMessage(), e);
        }
        return file;
    }
}
