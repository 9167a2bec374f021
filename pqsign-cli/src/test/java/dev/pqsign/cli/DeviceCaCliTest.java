package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pqsign cert device-ca} and the refusals around {@code --device-ca}: what is refused is
 * refused with one line before anything is spent.
 */
class DeviceCaCliTest {
    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void deviceCa_isCaWithPathLengthZeroUnderRoot_defaultSetAndValidityEndsWithRoot() throws Exception {
        CliPki pki = CliPki.create(dir, 100);

        var r = pki.deviceCa("ca", "CN=sensor-1 device CA,O=Test");

        assertEquals(0, r.exit(), r.toString());
        PqCertificate ca = Pem.read(dir.resolve("ca/device-ca.pem"));
        PqCertificate rootCert = Pem.read(dir.resolve("root.pem"));
        assertTrue(ca.isCa());
        assertEquals(0, ca.pathLengthConstraint().orElseThrow());
        assertEquals("XMSSMT-SHA2_40/4_256", ca.publicKey().parameterSet().setName());
        assertEquals(rootCert.notAfter(), ca.notAfter(), "ten years are cut to the root's 100 days");
        assertTrue(Files.isRegularFile(dir.resolve("ca/key.state")));
        var v = CliRunner.run("cert", "verify", "--cert", p("ca/device-ca.pem"), "--trust", p("root.pem"));
        assertEquals(0, v.exit(), v.toString());
        r = CliRunner.run("inspect", p("root/key.state"));
        assertTrue(r.out().contains("next 2,"), "self-signed and device CA: two root indices: " + r.out());
    }

    @Test
    void deviceCa_privateUseSet_refusedBeforeTheRootSigns() throws Exception {
        CliPki pki = CliPki.create(dir, 100);

        var r = pki.deviceCa("ca", "CN=sensor-1 device CA", "--params", "XMSSMT-SHA2_10/2_256");

        assertEquals(2, r.exit(), r.toString());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("no registered type code"), r.err());
        assertFalse(Files.exists(dir.resolve("ca")));
        r = CliRunner.run("inspect", p("root/key.state"));
        assertTrue(r.out().contains("next 1,"), "no root index spent: " + r.out());
    }

    @Test
    void sensor_deviceCaWithPrivateUseKeySet_refusedWithOneLine() {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", p("k"))
                        .exit());

        var r = CliRunner.run(
                "sensor", "--key", p("k/key.state"), "--device-ca", p("ca"), "--port", "0", "--data-dir", p("sd"));

        assertEquals(2, r.exit(), r.toString());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("pqsign: --device-ca: the sensor's key set XMSSMT-SHA2_10/2_256"), r.err());
        assertTrue(r.err().contains("use XMSS-SHA2_10_256 instead"), r.err());
    }

    @Test
    void sensor_deviceCaWithCertOrNoRollover_refused() {
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", p("k"))
                        .exit());

        var withCert = CliRunner.run(
                "sensor",
                "--key",
                p("k/key.state"),
                "--device-ca",
                p("ca"),
                "--cert",
                p("k.pem"),
                "--data-dir",
                p("sd"));
        var noRollover = CliRunner.run(
                "sensor", "--key", p("k/key.state"), "--device-ca", p("ca"), "--no-rollover", "--data-dir", p("sd"));

        for (var r : List.of(withCert, noRollover)) {
            assertEquals(2, r.exit(), r.toString());
            assertTrue(r.err().contains("--device-ca needs"), r.err());
        }
    }
}
