package dev.pqsign.cli;

import dev.pqsign.kafka.KafkaDemo;
import dev.pqsign.kafka.SensorTrust;
import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.keys.SignatureScheme;
import dev.pqsign.keys.XmssScheme;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Kafka stage of {@code pqsign demo --kafka}: fresh rolling keys, then {@link KafkaDemo}. */
final class DemoKafka {
    private DemoKafka() {}

    static KafkaDemo.Result run(
            List<SignatureScheme> sets,
            Path dataDir,
            String bootstrapServers,
            int instances,
            int sensors,
            int readings,
            PrintWriter out)
            throws IOException, InterruptedException {
        KafkaOptions.quietKafkaLogs();
        XmssParameterSet set = sets.stream()
                .filter(XmssScheme.class::isInstance)
                .map(s -> ((XmssScheme) s).parameterSet())
                .findFirst()
                .orElseThrow(
                        () -> CliException.usage("--kafka needs an XMSS or XMSS^MT set in --sets (keys roll over)"));
        Path keysDir = Files.createDirectories(dataDir.resolve("kafka-keys-" + System.currentTimeMillis()));
        List<KafkaDemo.Sensor> demoSensors = new ArrayList<>();
        List<RollingSensorKey> keys = new ArrayList<>();
        Map<String, PqPublicKey> pinned = new LinkedHashMap<>();
        try {
            for (int i = 0; i < sensors; i++) {
                XmssPrivateKey first = XmssKeyGenerator.generate(set);
                PqPublicKey firstKey = PqPublicKey.of(first.publicKey());
                Path dir = keysDir.resolve("sensor-" + (i + 1));
                SensorKeyDirectory.create(dir, first);
                first.destroy();
                SensorKeyDirectory d = SensorKeyDirectory.open(dir, SensorKeyDirectory.Options.defaults());
                RollingSensorKey rolling =
                        new RollingSensorKey(d, KeyRollover.of(d, 0, KeyRollover.DEFAULT_SWITCH_AT, Clock.systemUTC()));
                keys.add(rolling);
                demoSensors.add(new KafkaDemo.Sensor("sensor-" + (i + 1), rolling));
                pinned.put("sensor-" + (i + 1), firstKey);
            }
            out.printf(
                    "pqsign demo --kafka: %d sensor(s) of %s, %d readings each, bridge, %s, %d verifier instance(s)%n",
                    sensors,
                    set.setName(),
                    readings,
                    bootstrapServers == null ? "embedded broker" : "cluster " + bootstrapServers,
                    instances);
            out.flush();
            KafkaDemo.Result r = KafkaDemo.run(
                    new KafkaDemo.Options(dataDir, bootstrapServers, instances, readings, 4),
                    demoSensors,
                    SensorTrust.of(pinned));
            out.printf(
                    "pqsign demo --kafka: %d readings, %d accepted (%d verdicts in pqsign.verified), %d rejected"
                            + " (%d injected tampered), %d dead letters (%d injected garbage), lag at end %d, %.1f s;"
                            + " verifier CPU %.3f ms per reading; end to end p50 %.1f ms, p99 %.1f ms%n",
                    r.readings(),
                    r.accepted(),
                    r.verified(),
                    r.rejected(),
                    r.injected(),
                    r.deadLetter(),
                    r.garbage(),
                    r.lagAtEnd(),
                    r.seconds(),
                    r.toJson().path("verifier_cpu_ms_per_reading").asDouble(),
                    r.toJson().path("end_to_end_ms_p50").asDouble(),
                    r.toJson().path("end_to_end_ms_p99").asDouble());
            out.flush();
            return r;
        } finally {
            for (RollingSensorKey k : keys) {
                k.close();
            }
        }
    }
}
