package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamText;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
        Files.setPosixFilePermissions(cred, PosixFilePermissions.fromString("rw-------"));
        usage(
                sensor(
                        "--source",
                        "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1",
                        "--source-credentials",
                        cred.toString()),
                "two lines");
    }

    @Test
    void credentialsFileOthersMayRead_oneLineUsageError_namingTheFileAndTheChmodFix() throws Exception {
        Path cred = dir.resolve("cred");
        Files.writeString(cred, "user=plc-reader\npassword=" + SECRET + "\n");
        Files.setPosixFilePermissions(cred, PosixFilePermissions.fromString("rw-r--r--"));
        CliRunner.Result r = sensor(
                "--source", "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1", "--source-credentials", cred.toString());
        usage(r, "chmod 600 " + cred);
        assertTrue(r.err().contains(cred + " holds a password and is accessible by group or others"), r.err());
    }

    @Test
    void credentialsOverSecurityNone_warnOnStandardError() throws Exception {
        Path cred = dir.resolve("cred");
        Files.writeString(cred, "user=plc-reader\npassword=" + SECRET + "\n");
        Files.setPosixFilePermissions(cred, PosixFilePermissions.fromString("rw-------"));
        String source = "opcua:opc.tcp://127.0.0.1:4840/plc?node=i=1";
        // the key does not exist: the run ends right after the options were checked
        CliRunner.Result none = sensor("--source", source, "--source-credentials", cred.toString());
        assertEquals(2, none.exit(), none.toString());
        List<String> lines = none.err().lines().toList();
        assertEquals(2, lines.size(), none.err());
        assertTrue(
                lines.get(0).startsWith("pqsign: sensor: warning: --source-credentials over --source-security none"),
                none.err());
        assertFalse(none.err().contains(SECRET));
        CliRunner.Result secured = sensor(
                "--source", source, "--source-credentials", cred.toString(), "--source-security", "sign-encrypt");
        assertEquals(2, secured.exit(), secured.toString());
        assertFalse(secured.err().contains("warning"), secured.err());
        CliRunner.Result anonymous = sensor("--source", source);
        assertFalse(anonymous.err().contains("warning"), anonymous.err());
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
