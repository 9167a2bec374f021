package dev.pqsign.cli;

import dev.pqsign.kafka.Bridge;
import dev.pqsign.kafka.KafkaTopics;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.operator.SensorTarget;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code pqsign bridge}: subscribes to sensors like the operator and publishes every signed record
 * and key handover, unverified, to {@code pqsign.readings}. Runs until Ctrl-C; exit 1 if the broker
 * refused any record.
 */
@Command(
        name = "bridge",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Publish every signed reading and key handover of the sensors (--sensors FILE or --url), unverified, to the",
            "Kafka topic " + KafkaTopics.READINGS
                    + ", keyed by sensor name. Holds no secrets; `pqsign verifier` checks.",
            "Runs until Ctrl-C. Exit 0 everything published; 1 the broker refused records; 2 usage / input error."
        })
final class BridgeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(
            names = "--sensors",
            paramLabel = "FILE",
            description = "The operator's sensors file (name, url, security, trust_server are used).")
    Path sensorsFile;

    @Option(names = "--url", description = "One sensor's endpoint (its name in Kafka is the URL).")
    String url;

    @Option(
            names = "--data-dir",
            defaultValue = "pqsign-data/bridge",
            description = "Backfill positions and OPC UA application certificate (default ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(
            names = "--publishing-ms",
            defaultValue = "5",
            description = "Requested OPC UA publishing interval in ms (default ${DEFAULT-VALUE}).")
    double publishingMs;

    private final CountDownLatch stop = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        TelemetrySupport.quietLogging();
        PrintWriter out = spec.commandLine().getOut();
        if ((sensorsFile == null) == (url == null)) {
            throw CliException.usage("give exactly one of --sensors FILE or --url URL");
        }
        if (!(publishingMs > 0) || Double.isInfinite(publishingMs)) {
            throw CliException.usage("--publishing-ms must be positive, got " + publishingMs);
        }
        List<Bridge.Sensor> sensors = new ArrayList<>();
        List<X509Certificate> serverCerts = new ArrayList<>();
        if (sensorsFile != null) {
            for (SensorTarget t : SensorList.read(sensorsFile)) {
                sensors.add(new Bridge.Sensor(t.name(), t.url(), t.security()));
                serverCerts.addAll(t.serverCertificates());
            }
        } else {
            if (!url.startsWith("opc.tcp://") || url.length() > 64) {
                throw CliException.usage("--url must be an opc.tcp:// URL of at most 64 characters");
            }
            sensors.add(new Bridge.Sensor(url, url, TransportSecurity.NONE));
        }
        Operator.Config opcua = new Operator.Config(
                dataDir.resolve("opcua"), TransportSecurity.NONE, publishingMs, Operator.DEFAULT_QUEUE_SIZE);
        return kafka.run(out, stop, bootstrap -> {
            try (Bridge bridge = Bridge.start(opcua, bootstrap, dataDir, sensors, serverCerts)) {
                out.printf("bridge: %d sensor(s) -> %s at %s%n", sensors.size(), KafkaTopics.READINGS, bootstrap);
                out.flush();
                stop.await();
                bridge.flush();
                out.printf(
                        "bridge: published %d, acknowledged %d, refused %d%n",
                        bridge.published(), bridge.acknowledged(), bridge.failed());
                out.flush();
                return bridge.failed() == 0 ? 0 : CliException.FAILED;
            }
        });
    }
}
