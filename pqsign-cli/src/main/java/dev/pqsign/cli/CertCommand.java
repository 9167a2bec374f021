package dev.pqsign.cli;

import dev.pqsign.core.Signer;
import dev.pqsign.keys.DeviceCa;
import dev.pqsign.keys.KeyDirectoryOwner;
import dev.pqsign.keys.OpenedPrivateKey;
import dev.pqsign.keys.PrivateKeyFormat;
import dev.pqsign.keys.XmssScheme;
import dev.pqsign.x509.CertificateChainVerifier;
import dev.pqsign.x509.CertificateFormatException;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.ChainVerificationResult;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.x509.UnsupportedAlgorithmException;
import dev.pqsign.xmss.XmssParameterSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pqsign cert}: RFC 9802 certificates signed with XMSS / XMSS^MT, HSS / LMS (or HAETAE) keys. */
@Command(
        name = "cert",
        description = "Create and verify X.509 certificates (RFC 9802 XMSS / XMSS^MT, HSS / LMS; HAETAE).",
        subcommands = {
            CertCommand.SelfSigned.class,
            CertCommand.Issue.class,
            CertCommand.DeviceCaCommand.class,
            CertCommand.Verify.class
        })
final class CertCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw CliException.usage(
                "missing subcommand: self-signed, issue, device-ca or verify (see 'pqsign cert --help')");
    }

    /**
     * Runs {@code body} with a signer for a private key file; stateful (XMSS, HSS) signers burn one
     * index per certificate.
     */
    static PqCertificate withSigner(Path keyFile, int lockTimeout, SignerBody body) {
        Optional<PrivateKeyFormat> format = KeyFiles.privateKeyFormat(keyFile, "private key");
        if (format.isEmpty()) {
            throw CliException.usage(keyFile + ": not a pqsign private key (XMSS or HSS key.state, or HAETAE key.sk)");
        }
        try {
            if (format.get().isKeyState()) {
                KeyDirectoryOwner owner = KeyFiles.ownKeyDirectory(keyFile, lockTimeout);
                try (OpenedPrivateKey key = StatefulKeys.open(keyFile, 1, lockTimeout)) {
                    return body.apply(key.signer(), key.publicKey());
                } catch (IOException e) {
                    throw new CliException(CliException.FAILED, keyFile + ": " + OutputFiles.reason(e), e);
                } finally {
                    if (owner != null) {
                        owner.close();
                    }
                }
            }
            try (OpenedPrivateKey key = KeyFiles.openHaetaeKey(keyFile, "private key")) {
                return body.apply(key.signer(), key.publicKey());
            }
        } catch (UnsupportedAlgorithmException | CertificateFormatException | IllegalArgumentException e) {
            throw CliException.usage(keyFile + ": " + e.getMessage());
        }
    }

    @FunctionalInterface
    interface SignerBody {
        PqCertificate apply(Signer signer, PqPublicKey ownKey);
    }

    /**
     * Checks, before the key signs anything, that {@code out} may be written: {@code -} (stdout), or
     * a file that is no input, no file of the signing key's directory, no link or special file.
     */
    static void checkOutput(Path out, Path keyFile, Path... otherInputs) {
        List<Path> inputs = new ArrayList<>(OutputFiles.keyFiles(keyFile));
        inputs.addAll(Arrays.asList(otherInputs));
        OutputFiles.check(out, inputs);
        if (!OutputFiles.isStdout(out)) {
            OutputFiles.removeStaleTemps(out);
        }
    }

    static void write(Path out, PqCertificate cert, CommandLine.Model.CommandSpec spec) {
        String pem = Pem.write(cert);
        String summary = String.format(
                "%s: %s, issued by %s, valid until %s%n", out, cert.subject(), cert.issuer(), cert.notAfter());
        if (OutputFiles.isStdout(out)) {
            spec.commandLine().getOut().print(pem);
            spec.commandLine().getOut().flush();
            spec.commandLine().getErr().print(summary);
            spec.commandLine().getErr().flush();
            return;
        }
        try {
            OutputFiles.write(out, pem.getBytes(StandardCharsets.US_ASCII), true);
        } catch (CliException e) {
            throw new CliException(
                    CliException.FAILED,
                    e.getMessage() + "; the certificate is lost"
                            + cert.signatureIndex()
                                    .map(i -> " (index " + i + " of the key is used up)")
                                    .orElse(""),
                    e.getCause());
        }
        spec.commandLine().getOut().print(summary);
        spec.commandLine().getOut().flush();
    }

    /** Longest validity pqsign issues: a hundred years, well inside X.509's dates (year 9999). */
    static final int MAX_DAYS = 36_525;

    static void checkDays(int days) {
        Bounds.check("--days", days, 1, MAX_DAYS);
    }

    /** Builds the template now, so that a bad subject is refused before an index is burned. */
    static CertificateTemplate template(String subject, int days) {
        try {
            return CertificateTemplate.forDays(subject, days, Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--subject: " + e.getMessage());
        }
    }

    @Command(
            name = "self-signed",
            description = "Create a self-signed CA certificate (burns one index of an XMSS or HSS key).")
    static final class SelfSigned implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--key",
                required = true,
                description = "DIR/key.state (XMSS / XMSS^MT, HSS / LMS) or DIR/key.sk (HAETAE).")
        Path key;

        @Option(
                names = "--subject",
                required = true,
                description = "Distinguished name, e.g. \"CN=Plant Root CA,O=Example\".")
        String subject;

        @Option(names = "--days", defaultValue = "3650", description = "Validity in days (default 3650).")
        int days;

        @Option(names = "--out", required = true, description = "Output PEM file, or - for stdout.")
        Path out;

        @Option(names = "--lock-timeout", defaultValue = "10", description = "Seconds to wait for the key's lock.")
        int lockTimeout;

        @Override
        public Integer call() {
            checkDays(days);
            Bounds.lockTimeout(lockTimeout);
            CertificateTemplate template = template(subject, days);
            checkOutput(out, key);
            PqCertificate cert = withSigner(
                    key, lockTimeout, (signer, own) -> Certificates.selfSigned(signer, own, template.ca(true)));
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

        @Option(
                names = "--pub",
                required = true,
                description = "Subject public key: key.pub of an XMSS / XMSS^MT, HSS / LMS or HAETAE key.")
        Path pub;

        @Option(
                names = "--params",
                description = "Parameter set of --pub when its type code is ambiguous (XMSS vs XMSS^MT).")
        String params;

        @Option(names = "--subject", required = true, description = "Distinguished name of the subject.")
        String subject;

        @Option(names = "--days", defaultValue = "365", description = "Validity in days (default 365).")
        int days;

        @Option(names = "--ca", description = "Issue a CA certificate (basic constraints cA = TRUE).")
        boolean ca;

        @Option(names = "--out", required = true, description = "Output PEM file, or - for stdout.")
        Path out;

        @Option(names = "--lock-timeout", defaultValue = "10", description = "Seconds to wait for the CA key's lock.")
        int lockTimeout;

        @Override
        public Integer call() {
            checkDays(days);
            Bounds.lockTimeout(lockTimeout);
            template(subject, days);
            PqCertificate issuer = CertificateSupport.read(caCert);
            PqPublicKey subjectKey = KeyFiles.publicKey(pub, params);
            checkOutput(out, caKey, caCert, pub);
            PqCertificate cert = withSigner(
                    caKey,
                    lockTimeout,
                    (signer, own) -> Certificates.issue(signer, issuer, subjectKey, subject, days, ca));
            write(out, cert, spec);
            return 0;
        }
    }

    @Command(
            name = "device-ca",
            description = {
                "Create a sensor's device CA: a new XMSS / XMSS^MT key in DIR, certified by the plant root as a CA with",
                "path length 0 (burns one index of the root key). The sensor's --device-ca DIR then certifies each of its",
                "keys."
            })
    static final class DeviceCaCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--ca-key", required = true, description = "The plant root's DIR/key.state.")
        Path caKey;

        @Option(names = "--ca-cert", required = true, description = "The plant root's certificate (PEM or DER).")
        Path caCert;

        @Option(
                names = "--out",
                required = true,
                paramLabel = "DIR",
                description = "The device CA directory to create (key.pub, key.state, device-ca.pem); must not exist.")
        Path out;

        @Option(
                names = "--subject",
                required = true,
                description = "Distinguished name of the device CA, e.g. \"CN=sensor-17 device CA,O=Plant A\".")
        String subject;

        @Option(
                names = "--params",
                defaultValue = DeviceCa.DEFAULT_PARAMETER_SET,
                description = "Parameter set of the device CA's key (default ${DEFAULT-VALUE}: 2^40 certificates).")
        String params;

        @Option(
                names = "--days",
                description = "Validity in days (default: 3650, or less so as to end with the root's validity).")
        Integer days;

        @Option(names = "--lock-timeout", defaultValue = "10", description = "Seconds to wait for the root key's lock.")
        int lockTimeout;

        @Override
        public Integer call() {
            if (days != null) {
                checkDays(days);
            }
            Bounds.lockTimeout(lockTimeout);
            template(subject, days == null ? 1 : days);
            if (!(KeyFiles.scheme(params) instanceof XmssScheme xmss)) {
                throw CliException.usage("--params: a device CA key is XMSS / XMSS^MT (it is certified by RFC 9802),"
                        + " got " + params);
            }
            XmssParameterSet set = xmss.parameterSet();
            try {
                PublicKeys.requireRegistered(set);
            } catch (UnsupportedAlgorithmException e) {
                throw CliException.usage("--params: " + e.getMessage());
            }
            PqCertificate root = CertificateSupport.read(caCert);
            if (Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
                throw CliException.usage("--out " + out + " already exists");
            }
            CertificateTemplate template = days != null ? template(subject, days) : untilRootExpires(subject, root);
            PqCertificate cert;
            try {
                cert = withSigner(caKey, lockTimeout, (signer, own) -> {
                    try {
                        return DeviceCa.create(out, set, signer, root, template);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw new CliException(
                        CliException.FAILED,
                        out + ": " + OutputFiles.reason(e.getCause()) + "; no device CA was created",
                        e.getCause());
            }
            spec.commandLine()
                    .getOut()
                    .printf(
                            "%s: device CA %s (%s, path length 0), issued by %s, valid until %s%n",
                            out, cert.subject(), set.setName(), cert.issuer(), cert.notAfter());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** The device CA's default validity: ten years, or up to the root's notAfter if that comes sooner. */
    private static CertificateTemplate untilRootExpires(String subject, PqCertificate root) {
        Instant now = Instant.now();
        Instant end = now.plus(Duration.ofDays(3650));
        if (end.isAfter(root.notAfter())) {
            end = root.notAfter();
        }
        if (!end.isAfter(now)) {
            throw CliException.usage("--ca-cert: the root " + root.subject() + " expired at " + root.notAfter());
        }
        try {
            return CertificateTemplate.of(subject, now.minus(CertificateTemplate.BACKDATE), end);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--subject: " + e.getMessage());
        }
    }

    @Command(
            name = "verify",
            description = "Verify a certificate chain against a trusted root. Exit 0 valid, 1 invalid, 2 error.")
    static final class Verify implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--cert",
                required = true,
                description = "The certificate (PEM may hold the chain, leaf first).")
        Path cert;

        @Option(names = "--trust", required = true, description = "The trusted root certificate.")
        Path trust;

        @Override
        public Integer call() {
            List<PqCertificate> chain = CertificateSupport.readChain(cert, KeyFiles.readSmall(cert, "certificate"));
            PqCertificate root = CertificateSupport.read(trust);
            ChainVerificationResult r = CertificateChainVerifier.verify(chain, root, Instant.now());
            if (r.isValid()) {
                spec.commandLine()
                        .getOut()
                        .println("valid: " + chain.get(0).subject() + " (trusted root " + root.subject() + ")");
                spec.commandLine().getOut().flush();
                return 0;
            }
            spec.commandLine().getErr().println("invalid: " + CertificateSupport.describe(r));
            spec.commandLine().getErr().flush();
            return CliException.FAILED;
        }
    }
}
