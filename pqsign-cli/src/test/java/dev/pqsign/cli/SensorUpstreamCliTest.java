package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamText;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pqsign sensor --source opcua:…}: bad inputs are one-line usage errors; an outage is signed. */
class SensorUpstreamCliTest {
    private static final String SECRET = "hunter2-not-shown";

    @TempDir
    Path dir;

    private CliRunner.Result sensor(String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of(
                "sensor",
                "--key",
                dir.resolve("none/key.state").toString(),
                "--port",
                "0",
                "--data-dir",
                dir.resolve("data").toString()));
        args.addAll(List.of(extra));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private static void usage(CliRunner.Result r, String expected) {
        assertEquals(2, r.exit(), r.toString());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains(expected), err);
        assertFalse(err.contains(SECRET), err);
        assertFalse(err.contains("Exception"), err);
    }

    @Test
    void badUpstreamSources_areOneLineUsageErrors() throws Exception {
        usage(sensor("--source", "opcua:opc.tcp://127.0.0.1:4840/plc"), "names no node");
        usage(sensor("--source", "opcua:opc.tcp://127.0.0.1:4840/plc?node=ns=2;q=X"), "not a NodeId");
        usage(sensor("--source", "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1&node=i=1"), "given twice");
        usage(sensor("--source", "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1&rate=5"), "only node=NODEID");
        usage(sensor("--source", "opcua:http://127.0.0.1/plc?node=i=1"), "opc.tcp://");
        usage(sensor("--source", "opcua:opc.tcp://127.0.0.1:4840/" + "p".repeat(600) + "?node=i=1"), "longer than 512");
        usage(sensor("--source", "opcua:opc.tcp://127.0.0.1:99999/plc?node=i=1"), "port");
        usage(
                sensor("--source", "opcua:opc.tcp://user:" + SECRET + "@127.0.0.1:4840/plc?node=i=1"),
                "credentials never go into a URL");
        usage(
                sensor("--source", "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1", "--source-security", "tls"),
                "--source-security must be");
        usage(sensor("--source", "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1", "--rate", "5"), "--rate");
        usage(sensor("--source", "stdin", "--source-security", "sign"), "apply to --source opcua:");
        usage(
                sensor(
                        "--source",
                        "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1",
                        "--source-credentials",
                        dir.resolve("missing").toString()),
                "--source-credentials");
        Path cred = dir.resolve("cred");
        Files.writeString(cred, "password=" + SECRET + "\n");
        usage(
                sensor(
                        "--source",
                        "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1",
                        "--source-credentials",
                        cred.toString()),
                "two lines");
    }

    @Test
    void unreachableUpstream_isSignedAsAnOutage_andTheSensorEndsAfterIt() throws Exception {
        var keygen = CliRunner.run(
                "keygen",
                "--params",
                "XMSS-SHA2_10_256",
                "--out",
                dir.resolve("k").toString());
        assertEquals(0, keygen.exit(), keygen.toString());
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        var r = CliRunner.run(
                "sensor",
                "--key",
                dir.resolve("k/key.state").toString(),
                "--port",
                "0",
                "--no-rollover",
                "--data-dir",
                dir.resolve("data").toString(),
                "--readings",
                "1",
                "--source",
                "opcua:opc.tcp://127.0.0.1:" + port + "/plc?node=ns=2;s=Motor.Speed");
        assertEquals(0, r.exit(), r.toString());
        String line =
                r.out().lines().filter(l -> l.startsWith("index=")).findFirst().orElseThrow();
        String text = line.substring(line.indexOf("pqsign:upstream "));
        assertTrue(UpstreamText.parse(text) instanceof UpstreamDown, text);
        assertTrue(r.err().contains("pqsign: sensor: upstream down: "), r.err());
    }
}
