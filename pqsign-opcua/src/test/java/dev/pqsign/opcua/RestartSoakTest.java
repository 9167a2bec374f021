package dev.pqsign.opcua;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReplayGuard;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soak (opt-in: {@code -Dpqsign.long=true}): the sensor is restarted many times under one running
 * operator connection, with a reservation block larger than 1 so restarts skip indices. Every
 * reading after every restart must be accepted, indices must only grow, and the operator must
 * resubscribe by itself each time.
 */
@EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
class RestartSoakTest {

    @TempDir
    Path dir;

    @Test
    void sensorRestartedTwentyTimes_operatorResumesAndIndicesNeverRepeat() throws Exception {
        Ed25519TestDouble key = Ed25519TestDouble.generate();
        BlockingQueue<Observation> obs = new LinkedBlockingQueue<>();
        SequencedSigner signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 8);
        SensorServer sensor = SensorServer.start(
                SensorServer.Config.loopback("s", dir.resolve("sensor"), TransportSecurity.NONE),
                new SensorKey(signer, key.keyId()));
        int port = sensor.port();
        long lastIndex = -1;
        try (ReplayGuard guard = ReplayGuard.inDirectory(dir.resolve("replay"));
                Operator op = new Operator(
                        new Operator.Config(dir.resolve("operator"), TransportSecurity.NONE, 2),
                        new ReadingVerifier(
                                guard, new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                        obs::add)) {
            op.connect("s", sensor.endpointUrl());
            for (int cycle = 0; cycle < 20; cycle++) {
                // first reading after a restart: publish until the resubscribed operator sees one
                Observation first = null;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (first == null && System.nanoTime() < deadline) {
                    SensorServer.Publication p = sensor.publish("1500.00,cycle-" + cycle);
                    assertTrue(p.reading().index() > lastIndex, "index reused after restart " + cycle);
                    lastIndex = p.reading().index();
                    first = obs.poll(2, TimeUnit.SECONDS);
                }
                assertTrue(first != null, "operator did not resume in cycle " + cycle);
                assertEquals(
                        Reason.ACCEPTED,
                        first.verdict().reason(),
                        first.verdict().detail());
                obs.clear();
                for (int i = 0; i < 30; i++) {
                    SensorServer.Publication p = sensor.publish("1500.00," + cycle + "-" + i);
                    assertTrue(p.reading().index() > lastIndex);
                    lastIndex = p.reading().index();
                    Observation o;
                    do {
                        o = obs.poll(20, TimeUnit.SECONDS);
                        assertTrue(o != null, "no verdict in cycle " + cycle);
                    } while (o.sequence() < p.sequence());
                    assertEquals(
                            Reason.ACCEPTED, o.verdict().reason(), o.verdict().detail());
                }
                sensor.close();
                signer.close();
                signer = SequencedSigner.openFile(key.signer(), dir.resolve("sensor.seq"), 8);
                sensor = SensorServer.start(
                        new SensorServer.Config("s", dir.resolve("sensor"), "127.0.0.1", port, TransportSecurity.NONE),
                        new SensorKey(signer, key.keyId()));
            }
            assertEquals(0, op.count(Reason.REPLAYED) + op.count(Reason.BAD_SIGNATURE) + op.count(Reason.MALFORMED));
        } finally {
            sensor.close();
            signer.close();
        }
    }
}
