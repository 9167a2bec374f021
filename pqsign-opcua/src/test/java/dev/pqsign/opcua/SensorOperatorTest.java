package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.ReadingVerifier;
import dev.pqsign.telemetry.ReplayGuard;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.Verdict.Reason;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SensorOperatorTest {

    @TempDir
    Path dir;

    @Test
    void publish_twentyReadings_allAcceptedInOrder() throws Exception {
        Ed25519TestDouble key = Ed25519TestDouble.generate();
        SequencedSigner signer = SequencedSigner.openFile(key.signer(), dir.resolve("seq"), 1);
        BlockingQueue<Operator.Observation> obs = new LinkedBlockingQueue<>();
        try (SensorServer sensor = SensorServer.start(SensorServer.Config.loopback("s1", dir.resolve("sensor"), TransportSecurity.NONE),
                new SensorKey(signer, key.keyId()));
                ReplayGuard guard = ReplayGuard.inDirectory(dir.resolve("replay"));
                Operator op = new Operator(new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                        new ReadingVerifier(guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        obs::add)) {
            op.connect("s1", sensor.endpointUrl());
            for (int i = 0; i < 20; i++) {
                SensorServer.Publication p = sensor.publish("1500.0" + i + ",2026-11-30T00:00:00.000000000Z");
                Operator.Observation o = obs.poll(10, TimeUnit.SECONDS);
                assertNotNull(o, "no observation for reading " + i);
                assertEquals(Reason.ACCEPTED, o.verdict().reason(), o.verdict().detail());
                assertEquals(p.reading().index(), o.reading().index());
                assertEquals(p.sequence(), o.sequence());
                assertNotNull(o.latency());
                System.out.printf("e2e %.3f ms transfer %.3f ms%n", o.latency().endToEndNanos() / 1e6, o.latency().transferNanos() / 1e6);
            }
            assertTrue(op.count(Reason.ACCEPTED) == 20);
        }
    }
}
