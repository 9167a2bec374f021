package dev.pqsign.cli;

import dev.pqsign.core.Verifier;
import dev.pqsign.keys.PublicKeyFile;
import dev.pqsign.x509.CertificateChainVerifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.ChainVerificationResult;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** Certificate input for the other commands: turns the x509 module's exceptions into CLI errors. */
final class CertificateSupport {
    private CertificateSupport() {}

    static PqCertificate read(Path file) {
        return read(file, KeyFiles.readSmall(file, "certificate"));
    }

    static PqCertificate read(Path file, byte[] bytes) {
        try {
            return PqCertificate.read(bytes);
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage(file + ": certificate: " + e.getMessage());
        }
    }

    /**
     * A certificate file's chain, leaf first: PEM may hold several certificates, DER holds one.
     */
    static List<PqCertificate> readChain(Path file, byte[] bytes) {
        if (!PublicKeyFile.looksLikePem(bytes)) {
            return List.of(read(file, bytes));
        }
        try {
            List<PqCertificate> chain = Pem.readCertificates(new String(bytes, StandardCharsets.US_ASCII));
            if (chain.isEmpty()) {
                throw CliException.usage(file + ": certificate: no certificate in the PEM file");
            }
            return chain;
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage(file + ": certificate: " + e.getMessage());
        }
    }

    /**
     * The verifier of a certificate's subject key, after its chain to the trusted root {@code trust}
     * verified now (signatures, validity periods, CA rules). Without {@code trust} the certificate is
     * refused: nothing in it could be checked, so using its key would trust it silently.
     */
    static Verifier trustedVerifier(Path file, byte[] pem, Path trust, byte[] context) {
        if (trust == null) {
            throw CliException.usage(file + ": is a certificate; give --trust ROOT (the trusted root certificate)"
                    + " to verify its chain before its key is used, or give the bare public key file");
        }
        List<PqCertificate> chain = readChain(file, pem);
        PqCertificate root = read(trust);
        ChainVerificationResult r = CertificateChainVerifier.verify(chain, root, Instant.now());
        if (!r.isValid()) {
            throw new CliException(CliException.FAILED, file + ": certificate not trusted: " + describe(r));
        }
        PqPublicKey key = chain.get(0).publicKey();
        if (key.haetae().isPresent()) {
            return KeyFiles.haetaeVerifier(key.haetae().get(), context);
        }
        return key.verifier();
    }

    /** A failed chain check in one line: the reason's name in words, then the details. */
    static String describe(ChainVerificationResult r) {
        return r.reason().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": " + r.message();
    }

    static String describe(Path file, byte[] pem) {
        PqCertificate cert = read(file, pem);
        try {
            return file + ": X.509 certificate\n" + PublicKeys.describe(cert);
        } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
            throw CliException.usage(file + ": certificate: " + e.getMessage());
        }
    }
}
