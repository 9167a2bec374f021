package dev.pqsign.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.TransportSecurity;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay forwards bytes intact and in order, and never delivers earlier than its profile
 * allows. Only lower bounds on time are asserted: they hold by construction, however slow the
 * machine.
 */
class LinkEmulatorTest {

    @TempDir
    Path dir;

    /** Echoes everything it receives on one connection. */
    private static ServerSocket echoServer() throws IOException {
        ServerSocket ss = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            try (Socket s = ss.accept();
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // test finished
            }
        });
        t.setDaemon(true);
        t.start();
        return ss;
    }

    @Test
    void relay_forwardsBytesInOrder_andDelaysAtLeastTwoOneWayTripsPlusSerialization() throws Exception {
        LinkProfile p = new LinkProfile("test", 20, 5, 2);
        byte[] payload = new byte[25_000];
        new Random(1).nextBytes(payload);
        try (ServerSocket echo = echoServer();
                LinkEmulator relay = LinkEmulator.start(p, echo.getLocalPort(), 7);
                Socket s = new Socket(InetAddress.getLoopbackAddress(), relay.port())) {
            long t0 = System.nanoTime();
            Thread writer = new Thread(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    for (int off = 0; off < payload.length; off += 1000) {
                        out.write(payload, off, Math.min(1000, payload.length - off));
                    }
                    out.flush();
                } catch (IOException ignored) {
                    // reported by the reader side
                }
            });
            writer.start();
            byte[] back = new byte[payload.length];
            new DataInputStream(s.getInputStream()).readFully(back);
            long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
            writer.join();
            assertArrayEquals(payload, back);
            // two one-way delays, plus 25 kB serialized at 2 Mbit/s in each direction (100 ms each)
            assertTrue(elapsedMs >= 2 * 20 + 100, "elapsed " + elapsedMs + " ms");
        }
    }

    @Test
    void endpointUrl_replacesHostAndPortKeepsPath() throws Exception {
        try (ServerSocket echo = echoServer();
                LinkEmulator relay = LinkEmulator.start(LinkProfile.ETHERNET, echo.getLocalPort(), 1)) {
            assertEquals(
                    "opc.tcp://127.0.0.1:" + relay.port() + "/pqsign",
                    relay.endpointUrl("opc.tcp://127.0.0.1:4840/pqsign"));
        }
    }

    @Test
    void named_knownProfiles_andUnknownRejected() {
        assertEquals(LinkProfile.FIVE_G, LinkProfile.named("5G"));
        assertEquals(LinkProfile.ETHERNET, LinkProfile.named("ethernet"));
        assertTrue(LinkProfile.named("loopback").isDirect());
        assertThrows(IllegalArgumentException.class, () -> LinkProfile.named("carrier-pigeon"));
        assertThrows(IllegalArgumentException.class, () -> new LinkProfile("x", -1, 0, 0));
    }

    /**
     * Over the 5G profile every reading crosses the link at least once (the record arrives in the
     * notification itself; there is no follow-up Read any more).
     */
    @Test
    void demoOver5g_transferAtLeastOneOneWayDelay() throws Exception {
        DemoReport report = DemoRunner.run(
                List.of(DemoRunnerTest.ed25519Set("ED25519-TEST-DOUBLE", dir.resolve("keys"))),
                new DemoRunner.Options(dir, 8, LinkProfile.FIVE_G, 1, TransportSecurity.NONE, 1.0, 0, 2));
        System.out.print(report.toTable());
        DemoReport.SetResult r = report.sets().get(0);
        assertEquals(8, r.accepted());
        assertTrue(
                r.transfer().p50() >= LinkProfile.FIVE_G.oneWayDelayMs(),
                "transfer p50 " + r.transfer().p50());
        assertTrue(r.transfer().max() >= r.transfer().p50());
    }
}
