package dev.pqsign.kafka;

import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * A real sensor for the tests: an XMSS^MT (10/2, 1,024 signatures per key) key directory with
 * automatic rollover, optionally behind a real OPC UA server with an in-memory history.
 */
final class TestSensor implements AutoCloseable {
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;

    final String name;
    final PqPublicKey firstKey;
    final RollingSensorKey rolling;
    final SensorServer server;
    private long sequence;

    private TestSensor(String name, PqPublicKey firstKey, RollingSensorKey rolling, SensorServer server) {
        this.name = name;
        this.firstKey = firstKey;
        this.rolling = rolling;
        this.server = server;
    }

    /**
     * @param switchAt hand over when this many signatures are left (1,000: every 24 readings; 8: not
     *     within a test)
     * @param serve whether to start an OPC UA server
     */
    static TestSensor start(String name, Path dir, long switchAt, boolean serve) throws Exception {
        XmssPrivateKey first = XmssKeyGenerator.generate(SET);
        PqPublicKey firstKey = PqPublicKey.of(first.publicKey());
        Path keys = dir.resolve(name + "-keys");
        SensorKeyDirectory.create(keys, first);
        first.destroy();
        SensorKeyDirectory d = SensorKeyDirectory.open(keys, SensorKeyDirectory.Options.defaults());
        RollingSensorKey rolling =
                new RollingSensorKey(d, KeyRollover.of(d, switchAt + 10, switchAt, Clock.systemUTC()));
        SensorServer server = null;
        if (serve) {
            server = SensorServer.start(
                    SensorServer.Config.loopback(name, dir.resolve(name + "-server"), TransportSecurity.NONE),
                    rolling.current(),
                    ReadingHistory.inMemory(100_000, Duration.ofHours(1), Clock.systemUTC()));
            server.rollWith(rolling);
        }
        return new TestSensor(name, firstKey, rolling, server);
    }

    /** Signs and publishes one reading over OPC UA. */
    SignedRecord publish(String reading) {
        return server.publish(reading).record();
    }

    /** Signs one reading without publishing it (for records written straight into Kafka). */
    SignedRecord sign(String reading) {
        SignedReading r = new ReadingSigner(rolling.current().signer()).sign(reading);
        return SignedRecord.of(rolling.current().keyId(), SET.setName(), r, Instant.now(), ++sequence, 0, 0, 0);
    }

    Bridge.Sensor bridged() {
        return new Bridge.Sensor(name, server.endpointUrl(), TransportSecurity.NONE);
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        rolling.close();
    }
}
