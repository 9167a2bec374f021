package dev.pqsign.opcua.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.telemetry.upstream.ChannelSecurity;
import dev.pqsign.telemetry.upstream.UpstreamDown;
import dev.pqsign.telemetry.upstream.UpstreamEvent;
import dev.pqsign.telemetry.upstream.UpstreamText;
import dev.pqsign.telemetry.upstream.UpstreamTime;
import dev.pqsign.telemetry.upstream.UpstreamUp;
import dev.pqsign.telemetry.upstream.UpstreamValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path on loopback with real parts: a Milo server standing in for a PLC, the upstream
 * source, a real {@link SensorServer} that signs what it hands over, and an {@link Operator} that
 * verifies every reading; the accepted texts carry the PLC's values and source times.
 */
class UpstreamSensorOperatorTest {
    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final BlockingQueue<Observation> obs = new LinkedBlockingQueue<>();

    private UpstreamEvent nextAccepted() throws InterruptedException {
        Observation o = obs.poll(20, TimeUnit.SECONDS);
        assertNotNull(o, "no observation");
        assertTrue(o.verdict().accepted(), o.describe());
        return UpstreamText.parse(o.reading().reading());
    }

    @Test
    void everyUpstreamChange_isSignedAndVerified_withItsValueAndTimes_andAnOutageToo() throws Exception {
        SequencedSigner signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 1);
        PlcServer plc = new PlcServer(dir.resolve("plc"), false);
        try (SensorServer sensor = SensorServer.start(
                        SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE),
                        new SensorKey(signer, key.keyId()));
                ReplayGuard guard = ReplayGuard.inDirectory(dir.resolve("replay"));
                Operator operator = new Operator(
                        new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                        new ReadingVerifier(
                                guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        obs::add)) {
            plc.add("Motor.Speed", NodeIds.Double, PlcServer.good(1500.0, new DateTime(Instant.now())));
            operator.connect("s1", sensor.endpointUrl());
            Path cred = dir.resolve("upstream.cred");
            Files.writeString(cred, "user=" + PlcServer.USER + "\npassword=" + PlcServer.PASSWORD + "\n");
            Files.setPosixFilePermissions(cred, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            UpstreamCredentials credentials = UpstreamCredentials.read(cred);
            UpstreamSource source = UpstreamSource.open(
                    UpstreamUri.parse("opcua:" + plc.url() + "?node=" + plc.node("Motor.Speed")),
                    new UpstreamSource.Config(
                            dir.resolve("sensor"),
                            "s1",
                            ChannelSecurity.SIGN,
                            credentials,
                            List.of(plc.certificate()),
                            1000,
                            1000),
                    line -> {});
            plc.trustClient(source.clientCertificate());
            CompletableFuture<Long> pump = CompletableFuture.supplyAsync(() -> {
                try {
                    return sensor.publishAll(source);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            UpstreamUp up = assertInstanceOf(UpstreamUp.class, nextAccepted());
            assertEquals(ChannelSecurity.SIGN, up.security());
            assertEquals(
                    "1500.0",
                    assertInstanceOf(UpstreamValue.class, nextAccepted()).value());
            for (int i = 1; i <= 20; i++) {
                Instant t = Instant.now();
                double v = 1500 + i * 0.25;
                plc.set("Motor.Speed", PlcServer.good(v, new DateTime(t)));
                UpstreamValue got = assertInstanceOf(UpstreamValue.class, nextAccepted());
                assertEquals(Double.toString(v), got.value());
                assertEquals(UpstreamTime.of(t), got.source());
                assertTrue(got.status().isGood());
            }
            plc.close(); // the PLC goes away: an outage, signed and verified like a value
            assertInstanceOf(UpstreamDown.class, nextAccepted());
            source.close();
            assertTrue(credentials.isDestroyed(), "closing the source wiped the password");
            assertEquals(23L, pump.get(10, TimeUnit.SECONDS));
        } finally {
            plc.close();
            signer.close();
        }
    }
}
