package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The certificate commands: XMSS^MT root, HAETAE sensor certificate, chain and data verification. */
class CertCliTest {
    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void rootIssuesSensorCertificate_chainAndDataVerify() throws Exception {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_20/4_256", "--out", p("root"))
                        .exit());
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "HAETAE-2", "--out", p("sensor"))
                        .exit());
        var r = CliRunner.run(
                "cert",
                "self-signed",
                "--key",
                p("root/key.state"),
                "--subject",
                "CN=Plant Root CA,O=Example",
                "--days",
                "30",
                "--out",
                p("root.pem"));
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run("inspect", p("root/key.state"));
        assertTrue(r.out().contains("next 1,"), "the certificate burned one index: " + r.out());

        r = CliRunner.run(
                "cert",
                "issue",
                "--ca-key",
                p("root/key.state"),
                "--ca-cert",
                p("root.pem"),
                "--pub",
                p("sensor/key.pub"),
                "--subject",
                "CN=sensor-17",
                "--days",
                "10",
                "--out",
                p("sensor.pem"));
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run("cert", "verify", "--cert", p("sensor.pem"), "--trust", p("root.pem"));
        assertEquals(0, r.exit(), r.toString());

        r = CliRunner.run("inspect", p("sensor.pem"));
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("HAETAE-2"), r.out());

        Files.writeString(dir.resolve("m.txt"), "rpm=1500.2");
        assertEquals(
                0,
                CliRunner.run("sign", "--key", p("sensor/key.sk"), "--in", p("m.txt"), "--out", p("m.sig"))
                        .exit());
        r = CliRunner.run(
                "verify", "--pub", p("sensor.pem"), "--trust", p("root.pem"), "--in", p("m.txt"), "--sig", p("m.sig"));
        assertEquals(0, r.exit(), "verify --pub accepts a certificate whose chain verifies: " + r);

        // A different root is not trusted.
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", p("other"))
                        .exit());
        assertEquals(
                0,
                CliRunner.run(
                                "cert",
                                "self-signed",
                                "--key",
                                p("other/key.state"),
                                "--subject",
                                "CN=Other",
                                "--out",
                                p("other.pem"))
                        .exit());
        r = CliRunner.run("cert", "verify", "--cert", p("sensor.pem"), "--trust", p("other.pem"));
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.err().startsWith("invalid"), r.err());

        // A tampered certificate is invalid or unreadable, never valid.
        byte[] der = dev.pqsign.x509.PqCertificate.read(Files.readAllBytes(dir.resolve("sensor.pem")))
                .encoded();
        der[der.length - 10] ^= 1;
        Files.write(dir.resolve("bad.der"), der);
        r = CliRunner.run("cert", "verify", "--cert", p("bad.der"), "--trust", p("root.pem"));
        assertTrue(r.exit() == 1 || r.exit() == 2, r.toString());
    }

    @Test
    void privateUseSet_refusedWithClearMessage() {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", p("k"))
                        .exit());
        var r = CliRunner.run(
                "cert", "self-signed", "--key", p("k/key.state"), "--subject", "CN=x", "--out", p("x.pem"));
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("XMSSMT-SHA2_10/2_256"), r.err());
        assertTrue(!Files.exists(dir.resolve("x.pem")));
        r = CliRunner.run("inspect", p("k/key.state"));
        assertTrue(r.out().contains("next 0,"), "no index burned for a refused certificate: " + r.out());
    }

    @Test
    void badCertificateFile_exit2() throws Exception {
        Files.writeString(dir.resolve("junk.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        var r = CliRunner.run("cert", "verify", "--cert", p("junk.pem"), "--trust", p("junk.pem"));
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("junk.pem"), r.err());
    }
}
