package dev.pqsign.cli;

import dev.pqsign.core.Verifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.nio.file.Path;

/** Certificate input for the other commands: turns the x509 module's exceptions into CLI errors. */
final class CertificateSupport {
    private CertificateSupport() {
    }

    static PqCertificate read(Path file) {
        return read(file, KeyFiles.readSmall(file, "certificate"));
    }

    static PqCertificate read(Path file, byte[] bytes) {
        try {
            return PqCertificate.read(bytes);
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage("certificate " + file + ": " + e.getMessage());
        }
    }

    /** The verifier of the certificate's subject key (the certificate itself is not validated here). */
    static Verifier verifier(Path file, byte[] pem) {
        PqCertificate cert = read(file, pem);
        try {
            return PublicKeys.verifierFor(cert);
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage("certificate " + file + ": " + e.getMessage());
        }
    }

    static String describe(Path file, byte[] pem) {
        PqCertificate cert = read(file, pem);
        try {
            return file + ": X.509 certificate\n" + PublicKeys.describe(cert);
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage("certificate " + file + ": " + e.getMessage());
        }
    }
}
