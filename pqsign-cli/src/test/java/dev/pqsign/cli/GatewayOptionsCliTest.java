package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad {@code --serve*} options of {@code pqsign operator}: one line naming what is wrong, exit 2,
 * and nothing served, before the operator reaches out to any sensor.
 */
class GatewayOptionsCliTest {
    /** One key for all cases: none of them gets as far as using it. */
    @TempDir
    static Path dir;

    @BeforeAll
    static void key() {
        assertEquals(
                0,
                CliRunner.run(
                                "keygen",
                                "--params",
                                "XMSSMT-SHA2_10/2_256",
                                "--out",
                                dir.resolve("k").toString())
                        .exit());
    }

    private CliRunner.Result operator(String... serve) {
        List<String> args = new ArrayList<>(List.of(
                "operator",
                "--url",
                "opc.tcp://127.0.0.1:1/pqsign",
                "--pub",
                dir.resolve("k/key.pub").toString(),
                "--connect-timeout",
                "0",
                "--data-dir",
                dir.resolve("op").toString()));
        args.addAll(List.of(serve));
        return CliRunner.run(args.toArray(String[]::new));
    }

    private static void assertBadInput(CliRunner.Result r, String expected) {
        assertEquals(2, r.exit(), r.toString());
        assertEquals(1, r.err().lines().count(), "one line: " + r.err());
        assertTrue(r.err().startsWith("pqsign: ") && r.err().contains(expected), r.err());
        assertFalse(r.out().contains("serving "), r.out());
    }

    @Test
    void serve_notHostPort_exit2() {
        assertBadInput(operator("--serve", "localhost"), "expected [HOST:]PORT");
        assertBadInput(operator("--serve", "127.0.0.1:70000"), "port out of range");
    }

    @Test
    void serveSecurity_unknownMode_exit2() {
        assertBadInput(operator("--serve", "0", "--serve-security", "basic128"), "--serve-security");
    }

    @Test
    void serveTrustClient_withoutSigningEndpoint_exit2() throws Exception {
        Path cert = dir.resolve("client.der");
        Files.write(cert, new byte[] {1, 2, 3});
        assertBadInput(operator("--serve-trust-client", cert.toString()), "go with --serve");
        // a certificate file that is none is refused before anything else
        assertBadInput(
                operator("--serve", "0", "--serve-security", "sign", "--serve-trust-client", cert.toString()),
                "not an X.509 certificate");
    }

    @Test
    void serveHistory_outOfRange_exit2() {
        assertBadInput(operator("--serve", "0", "--serve-history", "1"), "at least 2");
        assertBadInput(operator("--serve", "0", "--serve-history", "-1"), "at least 2");
        assertBadInput(operator("--serve", "0", "--serve-history-mib", "0"), "1..1048576 MiB");
    }

    @Test
    void serve_portTaken_exit2() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertBadInput(operator("--serve", "127.0.0.1:" + taken.getLocalPort()), "--serve 127.0.0.1:");
        }
    }
}
