package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31, item 9: what a listener prints when it cannot listen, or listens wider than loopback,
 * as a person sees it on the terminal of a real process (Milo logs to the process's stderr, which
 * an in-process run would not show).
 */
class ListenerMessagesProcessTest {
    private static final String SET = "XMSSMT-SHA2_10/2_256";

    @TempDir
    Path dir;

    private ChildProcesses processes;

    @BeforeEach
    void key() {
        processes = new ChildProcesses(dir);
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
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
    void sensorOnABusyPort_exit2_oneLineNamingAddressAndPort_noStackTrace() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = busy.getLocalPort();
            Process sensor = processes.pqsign(
                    "sensor", "sensor", "--key", p("k/key.state"), "--port", Integer.toString(port), "--readings", "1");
            assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor"));
            String err = Files.readString(dir.resolve("sensor.err"));
            assertEquals(2, sensor.exitValue(), processes.describe("sensor"));
            assertEquals(1, err.strip().lines().count(), err);
            assertTrue(err.contains("failed to start on 127.0.0.1:" + port + ": the port is in use"), err);
        }
    }

    @Test
    @Timeout(120)
    void consoleOnAllInterfaces_saysSo() throws Exception {
        Process op = processes.pqsign(
                "operator",
                "operator",
                "--url",
                "opc.tcp://127.0.0.1:1/pqsign",
                "--pub",
                p("k/key.pub"),
                "--data-dir",
                p("op"),
                "--http",
                "0.0.0.0:0",
                "--connect-timeout",
                "1");
        assertTrue(op.waitFor(60, TimeUnit.SECONDS), processes.describe("operator"));
        String out = Files.readString(dir.resolve("operator.out"));
        assertTrue(
                out.matches("(?s).*console: http://127\\.0\\.0\\.1:\\d+/ \\(metrics: \\S+metrics; listening on all"
                        + " interfaces, port \\d+\\).*"),
                out);
    }
}
