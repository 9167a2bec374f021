package dev.pqsign.cli;

import dev.pqsign.core.Signer;
import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.CertificateChainVerifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.ChainVerificationResult;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pqsign cert}: RFC 9802 certificates signed with XMSS / XMSS^MT (or HAETAE) keys. */
@Command(name = "cert", description = "Create and verify X.509 certificates (RFC 9802 XMSS / XMSS^MT, HAETAE).",
        subcommands = {CertCommand.SelfSigned.class, CertCommand.Issue.class, CertCommand.Verify.class})
final class CertCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getErr());
        throw CliException.usage("missing subcommand: self-signed, issue or verify");
    }

    /** Runs {@code body} with a signer for a private key file; XMSS signers burn one index per certificate. */
    static PqCertificate withSigner(Path keyFile, int lockTimeout, SignerBody body) throws IOException {
        byte[] head = KeyFiles.readSmall(keyFile, "private key");
        try {
            if (XmssKeyState.hasMagic(head)) {
                try (FileStateStore store = FileStateStore.open(keyFile, Duration.ofSeconds(lockTimeout));
                        XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
                    return body.apply(signer, PqPublicKey.of(signer.publicKey()));
                }
            }
            if (HaetaeKeyFile.hasMagic(head)) {
                HaetaePrivateKey sk = HaetaeKeyFile.decode(head);
                try {
                    return body.apply(new HaetaeSigner(sk), PqPublicKey.of(sk.publicKey()));
                } finally {
                    sk.destroy();
                }
            }
        } catch (UnsupportedAlgorithmException | CertificateFormatException | IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        } finally {
            java.util.Arrays.fill(head, (byte) 0);
        }
        throw CliException.usage(keyFile + " is not a pqsign private key (XMSS key.state or HAETAE key.sk)");
    }

    @FunctionalInterface
    interface SignerBody {
        PqCertificate apply(Signer signer, PqPublicKey ownKey);
    }

    static void write(Path out, PqCertificate cert, CommandLine.Model.CommandSpec spec) throws IOException {
        KeygenCommand.writePublic(out, Pem.write(cert).getBytes(StandardCharsets.US_ASCII));
        spec.commandLine().getOut().printf("%s: %s, issued by %s, valid until %s%n", out, cert.subject(),
                cert.issuer(), cert.notAfter());
        spec.commandLine().getOut().flush();
    }

    static void checkDays(int days) {
        if (days < 1) {
            throw CliException.usage("--days must be at least 1, got " + days);
        }
    }

    @Command(name = "self-signed", description = "Create a self-signed CA certificate (burns one index of an XMSS key).")
    static final class SelfSigned implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--key", required = true, description = "DIR/key.state (XMSS / XMSS^MT) or DIR/key.sk (HAETAE).")
        Path key;

        @Option(names = "--subject", required = true, description = "Distinguished name, e.g. \"CN=Plant Root CA,O=Example\".")
        String subject;

        @Option(names = "--days", defaultValue = "3650", description = "Validity in days (default 3650).")
        int days;

        @Option(names = "--out", required = true, description = "Output PEM file.")
        Path out;

        @Option(names = "--lock-timeout", defaultValue = "10", description = "Seconds to wait for the key's lock.")
        int lockTimeout;

        @Override
        public Integer call() throws IOException {
            checkDays(days);
            PqCertificate cert = withSigner(key, lockTimeout, (signer, own) -> Certificates.selfSigned(signer, own,
                    CertificateTemplate.forDays(subject, days, Clock.systemUTC()).ca(true)));
            write(out, cert, spec);
            return 0;
        }
    }

    @Command(name = "issue", description = "Issue a certificate for a public key, signed by a CA key.")
    static final class Issue implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--ca-key", required = true, description = "The CA's DIR/key.state (or key.sk).")
        Path caKey;

        @Option(names = "--ca-cert", required = true, description = "The CA's certificate (PEM or DER).")
        Path caCert;

        @Option(names = "--pub", required = true, description = "Subject public key: key.pub of an XMSS / XMSS^MT or HAETAE key.")
        Path pub;

        @Option(names = "--params", description = "Parameter set of --pub when its type code is ambiguous (XMSS vs XMSS^MT).")
        String params;

        @Option(names = "--subject", required = true, description = "Distinguished name of the subject.")
        String subject;

        @Option(names = "--days", defaultValue = "365", description = "Validity in days (default 365).")
        int days;

        @Option(names = "--ca", description = "Issue a CA certificate (basic constraints cA = TRUE).")
        boolean ca;

        @Option(names = "--out", required = true, description = "Output PEM file.")
        Path out;

        @Option(names = "--lock-timeout", defaultValue = "10", description = "Seconds to wait for the CA key's lock.")
        int lockTimeout;

        @Override
        public Integer call() throws IOException {
            checkDays(days);
            PqCertificate issuer = CertificateSupport.read(caCert);
            PqPublicKey subjectKey = KeyFiles.publicKey(pub, params);
            PqCertificate cert = withSigner(caKey, lockTimeout,
                    (signer, own) -> Certificates.issue(signer, issuer, subjectKey, subject, days, ca));
            write(out, cert, spec);
            return 0;
        }
    }

    @Command(name = "verify", description = "Verify a certificate chain against a trusted root. Exit 0 valid, 1 invalid, 2 error.")
    static final class Verify implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--cert", required = true, description = "The certificate (PEM may hold the chain, leaf first).")
        Path cert;

        @Option(names = "--trust", required = true, description = "The trusted root certificate.")
        Path trust;

        @Override
        public Integer call() {
            byte[] bytes = KeyFiles.readSmall(cert, "certificate");
            List<PqCertificate> chain;
            if (KeyFiles.looksLikePem(bytes)) {
                try {
                    chain = Pem.readCertificates(new String(bytes, StandardCharsets.US_ASCII));
                } catch (CertificateFormatException | UnsupportedAlgorithmException e) {
                    throw CliException.usage("certificate " + cert + ": " + e.getMessage());
                }
            } else {
                chain = List.of(CertificateSupport.read(cert, bytes));
            }
            PqCertificate root = CertificateSupport.read(trust);
            ChainVerificationResult r = CertificateChainVerifier.verify(chain, root, Instant.now());
            if (r.isValid()) {
                spec.commandLine().getOut().println("valid: " + chain.get(0).subject() + " (trusted root "
                        + root.subject() + ")");
                spec.commandLine().getOut().flush();
                return 0;
            }
            spec.commandLine().getErr().println("invalid: " + r.reason() + ": " + r.message());
            spec.commandLine().getErr().flush();
            return CliException.FAILED;
        }
    }
}
