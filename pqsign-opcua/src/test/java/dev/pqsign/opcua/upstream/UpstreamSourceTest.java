package dev.pqsign.opcua.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.upstream.ChannelSecurity;
import dev.pqsign.telemetry.upstream.LostInSensor;
import dev.pqsign.telemetry.upstream.ScalarType;
import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamRefused;
import dev.pqsign.telemetry.upstream.UpstreamText;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUnsupported;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The upstream source against a real Milo server on loopback (the PLC). */
class UpstreamSourceTest {
    @TempDir
    Path dir;

    private final List<String> notices = new CopyOnWriteArrayList<>();
    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private PlcServer plc;
    private UpstreamSource source;

    @AfterEach
    void stop() throws Exception {
        if (source != null) {
            source.close();
        }
        if (plc != null) {
            plc.close();
        }
        reader.shutdownNow();
    }

    private UpstreamSource open(String uri, int queue) throws Exception {
        source = UpstreamSource.open(
                UpstreamUri.parse(uri),
                new UpstreamSource.Config(
                        dir.resolve("sensor"), "s1", ChannelSecurity.NONE, null, List.of(), queue, 1000),
                notices::add);
        return source;
    }

    /** The next fact, within 20 s (a hang fails the test, not the build). */
    private UpstreamEvent next() throws Exception {
        Future<String> f = reader.submit(source::next);
        String text = f.get(20, TimeUnit.SECONDS);
        assertNotNull(text);
        return UpstreamText.parse(text);
    }

    private static DateTime at(long millis) {
        return new DateTime(Instant.ofEpochMilli(1_796_000_000_000L + millis));
    }

    @Test
    void everyValueChange_arrivesWithItsValueSourceTimeAndStatus() throws Exception {
        plc = new PlcServer(dir.resolve("plc"), true);
        plc.add("Motor.Speed", NodeIds.Double, PlcServer.good(0.0, at(0)));
        open("opcua:" + plc.url() + "?node=" + plc.node("Motor.Speed"), 1000);
        UpstreamUp up = assertInstanceOf(UpstreamUp.class, next());
        assertNull(up.downSince());
        assertEquals(ChannelSecurity.NONE, up.security());
        UpstreamValue first = assertInstanceOf(UpstreamValue.class, next());
        assertEquals("0.0", first.value());
        for (int i = 1; i <= 50; i++) {
            double v = 1500 + i / 7.0;
            plc.set("Motor.Speed", PlcServer.good(v, at(i)));
            UpstreamValue got = assertInstanceOf(UpstreamValue.class, next());
            assertEquals(plc.node("Motor.Speed"), got.node());
            assertEquals(ScalarType.DOUBLE, got.type());
            assertEquals(Double.doubleToLongBits(v), Double.doubleToLongBits(Double.parseDouble(got.value())));
            assertEquals(UpstreamTime.of(at(i).getJavaInstant()), got.source());
            assertTrue(got.status().isGood());
        }
        plc.set("Motor.Speed", new DataValue(new Variant(1.5), new StatusCode(0x40920000L), at(99), DateTime.now()));
        UpstreamValue uncertain = assertInstanceOf(UpstreamValue.class, next());
        assertTrue(uncertain.status().isUncertain(), uncertain.text());
        plc.set("Motor.Speed", new DataValue(Variant.NULL_VALUE, new StatusCode(0x808A0000L), at(100), null));
        String noValue = next().text();
        assertTrue(noValue.startsWith("pqsign:upstream novalue "), noValue);
        assertTrue(noValue.endsWith(" status=Bad_NotConnected"), noValue);
    }

    @Test
    void missingNode_isRefused_andTheOtherNodesGoOn() throws Exception {
        plc = new PlcServer(dir.resolve("plc"), true);
        plc.add("Motor.Speed", NodeIds.Int32, PlcServer.good(7, at(0)));
        String missing = plc.node("Motor.Nothing");
        open("opcua:" + plc.url() + "?node=" + missing + "&node=" + plc.node("Motor.Speed"), 100);
        assertInstanceOf(UpstreamUp.class, next());
        boolean refused = false;
        boolean value = false;
        for (int i = 0; i < 2; i++) {
            UpstreamEvent e = next();
            if (e instanceof UpstreamRefused r) {
                assertEquals(missing, r.node());
                assertEquals("Bad_NodeIdUnknown", r.status().text());
                refused = true;
            } else {
                assertEquals("7", assertInstanceOf(UpstreamValue.class, e).value());
                value = true;
            }
        }
        assertTrue(refused && value);
        assertTrue(notices.stream().anyMatch(n -> n.contains("refused") && n.contains(missing)), notices.toString());
    }

    @Test
    void unsupportedTypes_areStatedWithoutTheirValue() throws Exception {
        plc = new PlcServer(dir.resolve("plc"), true);
        plc.add("Motor.Curve", NodeIds.Int32, PlcServer.good(new Integer[] {1, 2, 3}, at(1)));
        plc.add("Motor.Blob", NodeIds.ByteString, PlcServer.good(ByteString.of(new byte[] {1, 2}), at(2)));
        open("opcua:" + plc.url() + "?node=" + plc.node("Motor.Curve") + "&node=" + plc.node("Motor.Blob"), 100);
        assertInstanceOf(UpstreamUp.class, next());
        List<String> types = List.of(
                assertInstanceOf(UpstreamUnsupported.class, next()).type(),
                assertInstanceOf(UpstreamUnsupported.class, next()).type());
        assertTrue(types.contains("Int32[]") && types.contains("ByteString"), types.toString());
    }

    @Test
    void unreachableUpstream_isADownFact_notAHang() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        open("opcua:opc.tcp://127.0.0.1:" + port + "/plc?node=ns=2;s=X", 100);
        UpstreamDown down = assertInstanceOf(UpstreamDown.class, next());
        assertFalse(down.reason().isEmpty());
        assertTrue(notices.get(0).startsWith("upstream down: "), notices.toString());
        assertFalse(notices.get(0).contains("\n"));
        // stated once per outage: nothing more while it stays down
        Future<String> more = reader.submit(source::next);
        Thread.sleep(1500);
        assertFalse(more.isDone());
        source.close();
        assertNull(more.get(5, TimeUnit.SECONDS)); // a close ends the wait
        source = null;
    }

    @Test
    void flood_everyValueIsSignedOrCounted() throws Exception {
        plc = new PlcServer(dir.resolve("plc"), true);
        plc.add("Motor.Speed", NodeIds.Int64, PlcServer.good(0L, at(0)));
        open("opcua:" + plc.url() + "?node=" + plc.node("Motor.Speed"), 8);
        assertInstanceOf(UpstreamUp.class, next());
        assertEquals("0", assertInstanceOf(UpstreamValue.class, next()).value());
        int n = 500; // the signer below takes 1 ms per reading and the values come faster
        for (long i = 1; i <= n; i++) {
            plc.set("Motor.Speed", PlcServer.good(i, at(i)));
        }
        long seen = 0;
        long counted = 0;
        long last = 0;
        while (last < n) {
            UpstreamEvent e = next();
            Thread.sleep(1);
            assertFalse(e instanceof dev.pqsign.telemetry.upstream.LostUpstream, "the server's queue of 1000 held");
            if (e instanceof LostInSensor l) {
                counted += l.count();
                continue;
            }
            long v = Long.parseLong(assertInstanceOf(UpstreamValue.class, e).value());
            assertTrue(v > last, "in order");
            last = v;
            seen++;
        }
        assertEquals(n, seen + counted, "every value is either signed or counted as lost");
        assertTrue(counted > 0, "the flood overflowed the queue of 8");
    }

    @Test
    void credentialsFile_isReadAndNeverShown() throws Exception {
        Path f = dir.resolve("cred");
        Files.writeString(f, "user=" + PlcServer.USER + "\npassword=" + PlcServer.PASSWORD + "\n");
        Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        UpstreamCredentials c = UpstreamCredentials.read(f);
        assertEquals(PlcServer.USER, c.user());
        assertFalse(c.toString().contains(PlcServer.PASSWORD));
        Files.writeString(f, "password=" + PlcServer.PASSWORD + "\n");
        var e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> UpstreamCredentials.read(f));
        assertFalse(e.getMessage().contains(PlcServer.PASSWORD));
    }
}
