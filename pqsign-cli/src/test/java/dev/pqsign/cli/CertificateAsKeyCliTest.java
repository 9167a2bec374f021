package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.haetae.HaetaePrivateKey;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.keys.HaetaeKeyFile;
import dev.pqsign.x509.CertificateTemplate;
import dev.pqsign.x509.Certificates;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A certificate given where a key is expected (issue 16, item 1): used only after its chain to a
 * trusted root verifies, otherwise refused with one line; never trusted silently.
 */
class CertificateAsKeyCliTest {
    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    /** A HAETAE root CA, a HAETAE sensor key with a certificate from it, and a message signed by the sensor. */
    @BeforeEach
    void chain() throws Exception {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", p("root"))
                        .exit());
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", p("sensor"))
                        .exit());
        assertEquals(
                0,
                CliRunner.run(
                                "cert",
                                "self-signed",
                                "--key",
                                p("root/key.sk"),
                                "--subject",
                                "CN=Root",
                                "--days",
                                "30",
                                "--out",
                                p("root.pem"))
                        .exit());
        var r = CliRunner.run(
                "cert",
                "issue",
                "--ca-key",
                p("root/key.sk"),
                "--ca-cert",
                p("root.pem"),
                "--pub",
                p("sensor/key.pub"),
                "--subject",
                "CN=sensor",
                "--days",
                "10",
                "--out",
                p("sensor.pem"));
        assertEquals(0, r.exit(), r.toString());
        Files.writeString(dir.resolve("m.txt"), "rpm=1500.2");
        assertEquals(
                0,
                CliRunner.run("sign", "--key", p("sensor/key.sk"), "--in", p("m.txt"), "--out", p("m.sig"))
                        .exit());
    }

    private CliRunner.Result verify(String pub, String... more) {
        String[] base = {"verify", "--pub", pub, "--in", p("m.txt"), "--sig", p("m.sig")};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return CliRunner.run(args);
    }

    /** The sensor certificate with one byte of its signature flipped (its key is unchanged). */
    private Path tampered() throws Exception {
        byte[] der = PqCertificate.read(Files.readAllBytes(dir.resolve("sensor.pem")))
                .encoded();
        der[der.length - 10] ^= 1;
        Path bad = dir.resolve("bad.pem");
        Files.writeString(bad, Pem.encode(Pem.CERTIFICATE, der), StandardCharsets.US_ASCII);
        return bad;
    }

    @Test
    void verify_certificateWithTrustedChain_valid() {
        var r = verify(p("sensor.pem"), "--trust", p("root.pem"));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("valid (HAETAE-2)"), r.out());
    }

    @Test
    void verify_tamperedCertificateWithoutTrust_refusedNotValid() throws Exception {
        Path bad = tampered();
        var r = verify(bad.toString());
        assertEquals(2, r.exit(), "a certificate nobody checked must not vouch for its key: " + r);
        assertFalse(r.out().contains("valid"), r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("pqsign: " + bad + ": ") && r.err().contains("--trust"), r.err());
    }

    @Test
    void verify_tamperedCertificateWithTrust_exit1BadSignature() throws Exception {
        Path bad = tampered();
        var r = verify(bad.toString(), "--trust", p("root.pem"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("not trusted") && r.err().contains("bad signature"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void verify_expiredCertificate_refusedWithAndWithoutTrust() throws Exception {
        HaetaePrivateKey rootKey = HaetaeKeyFile.decode(Files.readAllBytes(dir.resolve("root/key.sk")));
        PqCertificate root = PqCertificate.read(Files.readAllBytes(dir.resolve("root.pem")));
        PqPublicKey sensorKey = PqPublicKey.of(HaetaeKeyFile.decode(Files.readAllBytes(dir.resolve("sensor/key.sk")))
                .publicKey());
        Instant now = Instant.now();
        PqCertificate expired = Certificates.issue(
                new HaetaeSigner(rootKey),
                root,
                sensorKey,
                CertificateTemplate.of("CN=sensor", now.minus(3, ChronoUnit.DAYS), now.minus(1, ChronoUnit.DAYS)));
        Files.writeString(dir.resolve("expired.pem"), Pem.write(expired), StandardCharsets.US_ASCII);

        var r = verify(p("expired.pem"));
        assertEquals(2, r.exit(), r.toString());
        r = verify(p("expired.pem"), "--trust", p("root.pem"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("expired"), r.err());
        assertFalse(r.out().contains("valid"), r.out());
    }

    @Test
    void verify_certificateFromOtherRoot_exit1() throws Exception {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", p("other"))
                        .exit());
        assertEquals(
                0,
                CliRunner.run(
                                "cert",
                                "self-signed",
                                "--key",
                                p("other/key.sk"),
                                "--subject",
                                "CN=Other",
                                "--out",
                                p("other.pem"))
                        .exit());
        var r = verify(p("sensor.pem"), "--trust", p("other.pem"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().contains("not trusted"), r.err());
    }

    @Test
    void certIssue_certificateAsSubjectKey_refused() throws Exception {
        Path bad = tampered();
        var r = CliRunner.run(
                "cert",
                "issue",
                "--ca-key",
                p("root/key.sk"),
                "--ca-cert",
                p("root.pem"),
                "--pub",
                bad.toString(),
                "--subject",
                "CN=copy",
                "--days",
                "5",
                "--out",
                p("copy.pem"));
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("is a certificate"), r.err());
        assertFalse(Files.exists(dir.resolve("copy.pem")));
    }

    @Test
    void verify_trustWithPlainKey_refused() {
        var r = verify(p("sensor/key.pub"), "--trust", p("root.pem"));
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--trust applies only"), r.err());
    }

    @Test
    void verify_contextWithXmssKey_refused() throws Exception {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", p("x"))
                        .exit());
        assertEquals(
                0,
                CliRunner.run("sign", "--key", p("x/key.state"), "--in", p("m.txt"), "--out", p("x.sig"))
                        .exit());
        var r = CliRunner.run(
                "verify", "--pub", p("x/key.pub"), "--in", p("m.txt"), "--sig", p("x.sig"), "--context", "line-7");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("--context applies only to HAETAE"), r.err());
    }
}
