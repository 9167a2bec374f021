package dev.pqsign.edge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd units of dist/systemd: {@code systemd-analyze verify} finds nothing to say about them
 * (it exits 0 even for unknown keys and bad values, so any output fails), and they set what
 * docs/edge.md relies on: a dedicated user, the state under /var/lib/pqsign, restart on failure but
 * not on a usage error, SIGTERM with a stop timeout of seconds, the hardening options.
 */
class SystemdUnitsTest {
    private static final Path UNITS = Path.of(System.getProperty("pqsign.edge.units", "../dist/systemd"));

    @TempDir
    Path dir;

    /** The unit's [Service] settings in order; a repeated key keeps its last value, as systemd does. */
    private static Map<String, String> service(String unit) throws IOException {
        Map<String, String> keys = new LinkedHashMap<>();
        String section = "";
        for (String line : Files.readAllLines(UNITS.resolve(unit))) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) {
                continue;
            }
            if (l.startsWith("[")) {
                section = l;
            } else if (section.equals("[Service]")) {
                int eq = l.indexOf('=');
                assertTrue(eq > 0, unit + ": not a key=value line: " + l);
                keys.put(l.substring(0, eq), l.substring(eq + 1));
            }
        }
        return keys;
    }

    @Test
    void bothUnits_setWhatTheDocsRelyOn() throws IOException {
        for (String unit : List.of("pqsign-sensor.service", "pqsign-operator.service")) {
            Map<String, String> s = service(unit);
            String role = unit.substring("pqsign-".length(), unit.indexOf('.'));
            assertEquals("pqsign", s.get("User"), unit);
            assertEquals("pqsign/" + role, s.get("StateDirectory"), unit);
            assertEquals("0700", s.get("StateDirectoryMode"), unit);
            assertTrue(s.get("ExecStart").contains(" --data-dir /var/lib/pqsign/" + role + "/data"), unit);
            assertTrue(s.get("Restart").equals("on-failure") || s.get("Restart").equals("always"), unit);
            assertEquals("2", s.get("RestartPreventExitStatus"), unit);
            assertEquals("SIGTERM", s.get("KillSignal"), unit);
            assertEquals("mixed", s.get("KillMode"), unit);
            Duration stop =
                    Duration.ofSeconds(Long.parseLong(s.get("TimeoutStopSec").replace("s", "")));
            assertTrue(stop.compareTo(Duration.ofSeconds(30)) <= 0, unit + ": stop timeout " + stop);
            for (String on : List.of("NoNewPrivileges", "PrivateTmp", "ProtectHome", "PrivateDevices")) {
                assertEquals("yes", s.get(on), unit + " " + on);
            }
            assertEquals("strict", s.get("ProtectSystem"), unit);
            assertEquals("", s.get("CapabilityBoundingSet"), unit);
            // the JIT writes executable memory
            assertTrue(!s.containsKey("MemoryDenyWriteExecute"), unit);
        }
        Map<String, String> sensor = service("pqsign-sensor.service");
        assertTrue(
                sensor.get("ExecStart")
                        .startsWith(
                                "/opt/pqsign-edge/bin/pqsign-sensor sensor --key /var/lib/pqsign/sensor/key/key.state "),
                sensor.get("ExecStart"));
        assertEquals("on-failure", sensor.get("Restart"));
        assertEquals("128M", sensor.get("MemoryMax"));
        assertEquals("0", sensor.get("MemorySwapMax"));
        String sysusers = Files.readString(UNITS.resolve("pqsign.sysusers.conf"));
        assertTrue(sysusers.lines().anyMatch(l -> l.startsWith("u pqsign - ")), sysusers);
    }

    /**
     * {@code systemd-analyze verify} on each unit as shipped, except for its install prefix: the
     * sensor's /opt/pqsign-edge is the distribution the build made, because verify checks that
     * ExecStart's program exists and is executable.
     */
    @Test
    void systemdAnalyzeVerify_reportsNothing() throws Exception {
        Assumptions.assumeTrue(run(List.of("systemd-analyze", "--version")).exit == 0, "systemd-analyze not installed");
        for (String unit : List.of("pqsign-sensor.service", "pqsign-operator.service")) {
            String text = Files.readString(UNITS.resolve(unit))
                    .replace("/opt/pqsign-edge/", EdgeProcesses.distribution() + "/");
            Path copy = dir.resolve(unit);
            Files.writeString(copy, text);
            Result r = run(List.of("systemd-analyze", "verify", copy.toString()));
            assertEquals(0, r.exit, unit + ": " + r.output);
            assertEquals("", r.output.strip(), unit);
        }
    }

    private record Result(int exit, String output) {}

    private static Result run(List<String> cmd) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(cmd))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            return new Result(p.exitValue(), out);
        } catch (IOException notInstalled) {
            return new Result(-1, notInstalled.getMessage());
        }
    }
}
