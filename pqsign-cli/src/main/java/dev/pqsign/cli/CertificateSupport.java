package dev.pqsign.cli;

import dev.pqsign.core.Verifier;
import java.nio.file.Path;

/** Certificate input for the CLI; certificates arrive with the pqsign-x509 module. */
final class CertificateSupport {
    private CertificateSupport() {
    }

    static Verifier verifier(Path file, byte[] pem) {
        throw CliException.usage(file + " is a PEM file; certificate input is not supported by this build");
    }

    static String describe(Path file, byte[] pem) {
        throw CliException.usage(file + " is a PEM file; certificate input is not supported by this build");
    }
}
