package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A plant PKI made with the CLI for tests: a root in {@code root/} + {@code root.pem}, device CAs under it. */
final class CliPki {
    private final Path dir;

    private CliPki(Path dir) {
        this.dir = dir;
    }

    /** Makes the root: an XMSSMT-SHA2_40/8_256 key (quick to generate) and its self-signed certificate. */
    static CliPki create(Path dir, int days) {
        CliPki pki = new CliPki(dir);
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_40/8_256", "--out", pki.p("root"))
                        .exit());
        CliRunner.Result r = CliRunner.run(
                "cert",
                "self-signed",
                "--key",
                pki.p("root/key.state"),
                "--subject",
                "CN=Plant Root,O=Test",
                "--days",
                Integer.toString(days),
                "--out",
                pki.p("root.pem"));
        assertEquals(0, r.exit(), r.toString());
        return pki;
    }

    /** Runs {@code pqsign cert device-ca} under the root into {@code out}, with {@code extra} options. */
    CliRunner.Result deviceCa(String out, String subject, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "cert",
                "device-ca",
                "--ca-key",
                p("root/key.state"),
                "--ca-cert",
                p("root.pem"),
                "--subject",
                subject,
                "--out",
                p(out)));
        args.addAll(List.of(extra));
        return CliRunner.run(args.toArray(String[]::new));
    }

    /**
     * Certifies {@code key} with the device CA in {@code deviceCa} (made by {@link #deviceCa}) for
     * {@code validity} from now only, as the sensor's first key (end entity, digital signatures),
     * and writes the chain (the key's certificate, then the device CA's) as PEM to {@code out}, where
     * {@code pqsign sensor --device-ca} finds and uses it; returns the key certificate's notAfter.
     */
    Instant certifyBriefly(String deviceCa, PqPublicKey key, Duration validity, String out) throws IOException {
        PqCertificate caCert = Pem.read(dir.resolve(deviceCa).resolve("device-ca.pem"));
        Instant now = Instant.now();
        PqCertificate leaf;
        try (FileStateStore store = FileStateStore.open(dir.resolve(deviceCa).resolve("key.state"));
                XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
            leaf = Certificates.issue(
                    signer,
                    caCert,
                    key,
                    CertificateTemplate.of(
                                    "CN=sensor first key,O=Test",
                                    now.minus(CertificateTemplate.BACKDATE),
                                    now.plus(validity))
                            .ca(false));
        }
        Files.writeString(dir.resolve(out), Pem.write(List.of(leaf, caCert)));
        return leaf.notAfter();
    }

    /** Waits until {@code instant} has passed on this machine's clock. */
    static void awaitPast(Instant instant) throws InterruptedException {
        while (!Instant.now().isAfter(instant)) {
            Thread.sleep(100);
        }
    }

    String p(String name) {
        return dir.resolve(name).toString();
    }
}
