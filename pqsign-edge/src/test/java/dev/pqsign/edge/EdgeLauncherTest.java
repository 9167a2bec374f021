package dev.pqsign.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/pqsign-sensor} of the edge distribution, run as a device runs it: its commands, a
 * device's key management, and the sensor over the paths a jar left out could break (a HAETAE key;
 * a device CA, which issues certificates with BouncyCastle's PKIX classes). Any class of a jar the
 * distribution leaves out would end these runs with NoClassDefFoundError. The default build runs
 * the commands and the launcher's own contract; the key management, HAETAE and device-CA runs (a
 * minute or more on a loaded 2-core machine) run with {@code -Plong}.
 */
class EdgeLauncherTest {
    @TempDir
    Path dir;

    private EdgeProcesses processes;

    @BeforeEach
    void processes() {
        processes = new EdgeProcesses(dir);
    }

    @AfterEach
    void killLeftovers() {
        processes.killAll();
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    @Timeout(120)
    void commands_versionHelpParams_onlyTheSensorSide() throws Exception {
        assertEquals(0, processes.runEdge("version", "--version"), processes.describe("version"));
        assertTrue(processes.out("version").startsWith("pqsign "), processes.describe("version"));

        assertEquals(0, processes.runEdge("help", "--help"));
        String help = processes.out("help");
        for (String c : List.of("sensor", "keygen", "inspect", "key", "params")) {
            assertTrue(help.contains("\n  " + c + " "), c + " missing; " + help);
        }
        for (String c : List.of("operator", "demo", "bridge", "verifier", "bench", "audit", "cert")) {
            assertTrue(!help.contains("\n  " + c + " "), c + " offered; " + help);
        }

        assertEquals(0, processes.runEdge("params", "params"));
        assertTrue(processes.out("params").contains("XMSSMT-SHA2_20/4_256"), processes.describe("params"));

        // an operator-side command: a one-line usage error, exit 2, no stack trace
        assertEquals(2, processes.runEdge("operator", "operator", "--url", "opc.tcp://127.0.0.1:1/x"));
        String err = processes.err("operator");
        assertTrue(err.startsWith("pqsign: ") && err.strip().lines().count() == 1, err);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    @Timeout(180)
    void keyManagement_keygenInspectSplit() throws Exception {
        assertEquals(
                0,
                processes.runEdge("keygen", "keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", p("k")),
                processes.describe("keygen"));
        assertEquals(0, processes.runEdge("inspect", "inspect", p("k")), processes.describe("inspect"));
        assertTrue(processes.out("inspect").contains("remaining:      1024 signatures"), processes.describe("inspect"));

        assertEquals(
                0,
                processes.runEdge(
                        "split", "key", "split", "--key", p("k/key.state"), "--parts", "2", "--out", p("parts")),
                processes.describe("split"));
        try (var parts = Files.list(dir.resolve("parts"))) {
            assertEquals(2, parts.count(), processes.describe("split"));
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    @Timeout(240)
    void sensor_haetaeKey_signsAndEnds() throws Exception {
        assertEquals(0, processes.runEdge("keygen", "keygen", "--params", "HAETAE-2", "--out", p("h")));
        int exit = processes.runEdge(
                "sensor",
                "sensor",
                "--key",
                p("h/key.sk"),
                "--port",
                "0",
                "--rate",
                "0",
                "--readings",
                "5",
                "--data-dir",
                p("sensor-data"));
        assertEquals(0, exit, processes.describe("sensor"));
        assertTrue(
                processes.out("sensor").contains("sensor stopped (5 readings): 5 readings published"),
                processes.describe("sensor"));
        assertEquals("", processes.err("sensor"));
    }

    /**
     * A device CA made on the plant side (full CLI: root, device CA) and copied to the device; the
     * sensor certifies its key with it at start and the next key before its handover.
     */
    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    @Timeout(300)
    void sensor_deviceCa_certifiesItsKey() throws Exception {
        assertEquals(
                0,
                processes.runPlant("root", "keygen", "--params", "XMSSMT-SHA2_40/8_256", "--out", p("root")),
                processes.describe("root"));
        assertEquals(
                0,
                processes.runPlant(
                        "root-cert",
                        "cert",
                        "self-signed",
                        "--key",
                        p("root/key.state"),
                        "--subject",
                        "CN=Plant Root,O=Test",
                        "--days",
                        "30",
                        "--out",
                        p("root.pem")),
                processes.describe("root-cert"));
        assertEquals(
                0,
                processes.runPlant(
                        "device-ca",
                        "cert",
                        "device-ca",
                        "--ca-key",
                        p("root/key.state"),
                        "--ca-cert",
                        p("root.pem"),
                        "--subject",
                        "CN=sensor-1 device CA,O=Test",
                        "--days",
                        "20", // within the root's 30 days
                        "--out",
                        p("devca")),
                processes.describe("device-ca"));
        // the smallest set with an RFC 9802 encoding
        assertEquals(0, processes.runEdge("keygen", "keygen", "--params", "XMSS-SHA2_10_256", "--out", p("k")));
        int exit = processes.runEdge(
                "sensor",
                "sensor",
                "--key",
                p("k/key.state"),
                "--device-ca",
                p("devca"),
                "--port",
                "0",
                "--rate",
                "0",
                "--readings",
                "5",
                "--data-dir",
                p("sensor-data"));
        assertEquals(0, exit, processes.describe("sensor"));
        assertTrue(Files.exists(dir.resolve("k/certificate.pem")), processes.describe("sensor"));
        assertEquals("", processes.err("sensor"));
        // the plant side accepts the certificate the device issued
        assertEquals(
                0,
                processes.runPlant(
                        "cert-verify", "cert", "verify", "--cert", p("k/certificate.pem"), "--trust", p("root.pem")),
                processes.describe("cert-verify"));
    }

    /**
     * The launcher through a symlink in another directory, started from a third one: it finds its
     * lib/, appends JAVA_OPTS and then PQSIGN_JAVA_OPTS to its own options (the last -Xmx wins), and
     * exits with the command's exit code (0, and 2 for bad usage).
     */
    @Test
    @Timeout(120)
    void launcher_throughASymlinkFromAnyDirectory_appendsJavaOpts_exitsWithTheCommandsCode() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("usr-local-bin"));
        Path link = Files.createSymbolicLink(bin.resolve("pqsign-sensor"), EdgeProcesses.launcher());
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        // sh -c: $1 the directory to start from, $2 the symlink, $3 the command's one argument
        List<String> viaLink =
                List.of("sh", "-c", "cd \"$1\" && exec \"$2\" \"$3\"", "sh", elsewhere.toString(), link.toString());

        Process flags = processes.command(
                "flags",
                concat(viaLink, "--version"),
                Map.of("JAVA_OPTS", "-XX:+PrintCommandLineFlags -Xmx40m", "PQSIGN_JAVA_OPTS", "-Xmx72m"));
        assertEquals(0, processes.finish("flags", flags), processes.describe("flags"));
        String out = processes.out("flags");
        assertTrue(out.contains("-XX:MaxHeapSize=" + (72L << 20)), "the last -Xmx wins; " + out);
        assertTrue(out.contains("-XX:+UseSerialGC"), "the launcher's own options; " + out);
        assertTrue(out.contains("\npqsign "), "the command ran; " + out);

        Process usage = processes.command("usage", concat(viaLink, "no-such-command"), Map.of());
        assertEquals(2, processes.finish("usage", usage), processes.describe("usage"));
        assertTrue(processes.err("usage").startsWith("pqsign"), processes.describe("usage"));
    }

    private static List<String> concat(List<String> command, String arg) {
        List<String> all = new ArrayList<>(command);
        all.add(arg);
        return all;
    }
}
