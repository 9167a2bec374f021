package dev.pqsign.cli;

import dev.pqsign.kafka.KafkaTopics;
import dev.pqsign.kafka.SensorTrust;
import dev.pqsign.kafka.StreamVerifier;
import dev.pqsign.operator.SensorTarget;
import dev.pqsign.x509.PqPublicKey;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code pqsign verifier}: one instance of the Kafka Streams verifier. Instances with the same
 * {@code --application-id} share the partitions of {@code pqsign.readings}. Runs until Ctrl-C.
 */
@Command(
        name = "verifier",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Verify " + KafkaTopics.READINGS
                    + " like the operator (pinned keys from --sensors FILE, key handovers, replay,",
            "duplicate, gap and index-reuse rules; exactly once): verdicts to " + KafkaTopics.VERIFIED + " / "
                    + KafkaTopics.REJECTED + ",",
            "undecodable records to " + KafkaTopics.DEAD_LETTER
                    + ". Start more instances with the same --application-id",
            "to share the work. Runs until Ctrl-C. Exit 0 stopped cleanly; 1 the stream failed; 2 usage / input error."
        })
final class VerifierCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(
            names = "--sensors",
            paramLabel = "FILE",
            required = true,
            description = "The operator's sensors file (name and pub/params or cert/trust are used).")
    Path sensorsFile;

    @Option(
            names = "--state-dir",
            defaultValue = "pqsign-data/verifier",
            description = "This instance's local state (one per instance; default ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(
            names = "--application-id",
            defaultValue = StreamVerifier.DEFAULT_APPLICATION_ID,
            description = "Shared by the instances that share the work (default ${DEFAULT-VALUE}).")
    String applicationId;

    @Option(
            names = "--threads",
            defaultValue = "1",
            description = "Stream threads in this instance (default ${DEFAULT-VALUE}).")
    int threads;

    private final CountDownLatch stop = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        TelemetrySupport.quietLogging();
        PrintWriter out = spec.commandLine().getOut();
        if (threads < 1 || threads > 64) {
            throw CliException.usage("--threads must be 1..64, got " + threads);
        }
        Map<String, PqPublicKey> pinned = new LinkedHashMap<>();
        for (SensorTarget t : SensorList.read(sensorsFile)) {
            pinned.put(t.name(), t.firstKey());
        }
        SensorTrust trust = SensorTrust.of(pinned);
        return kafka.run(out, stop, bootstrap -> {
            try (StreamVerifier verifier = StreamVerifier.start(
                    trust, StreamVerifier.configuration(bootstrap, applicationId, stateDir, threads), (now, before) -> {
                        if (now == KafkaStreams.State.ERROR) {
                            stop.countDown();
                        }
                    })) {
                out.printf(
                        "verifier: %d sensor(s), application id %s, reading %s at %s%n",
                        pinned.size(), applicationId, KafkaTopics.READINGS, bootstrap);
                out.flush();
                stop.await();
                return verifier.streams().state() == KafkaStreams.State.ERROR ? CliException.FAILED : 0;
            }
        });
    }
}
