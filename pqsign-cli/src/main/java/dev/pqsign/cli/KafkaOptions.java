package dev.pqsign.cli;

import dev.pqsign.kafka.EmbeddedKafka;
import dev.pqsign.kafka.KafkaTopics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Where the Kafka cluster is: {@code --bootstrap-servers} or a broker started in this process. */
final class KafkaOptions {
    @Option(
            names = "--bootstrap-servers",
            paramLabel = "HOST:PORT[,…]",
            description = "Use this Kafka cluster (instead of --embedded-kafka).")
    String bootstrapServers;

    @Option(
            names = "--embedded-kafka",
            paramLabel = "DIR",
            description = "Start a single-node Kafka broker (KRaft) in this process with its data in DIR.")
    Path embeddedDir;

    @Option(
            names = "--partitions",
            defaultValue = "4",
            description = "Partitions of the pqsign topics when they are created (default ${DEFAULT-VALUE}).")
    int partitions;

    /** A broker started here, or null. */
    EmbeddedKafka embedded;

    /** Starts the embedded broker if asked, creates the topics, and returns the bootstrap servers. */
    String connect(PrintWriter info) throws IOException {
        if ((bootstrapServers == null) == (embeddedDir == null)) {
            throw CliException.usage("give exactly one of --bootstrap-servers HOST:PORT or --embedded-kafka DIR");
        }
        if (partitions < 1 || partitions > 1000) {
            throw CliException.usage("--partitions must be 1..1000, got " + partitions);
        }
        String bootstrap = bootstrapServers;
        if (embeddedDir != null) {
            embedded = EmbeddedKafka.start(embeddedDir, Duration.ofSeconds(120));
            bootstrap = embedded.bootstrapServers();
            info.printf("embedded Kafka broker at %s (data in %s)%n", bootstrap, embeddedDir);
            info.flush();
        }
        KafkaTopics.create(bootstrap, partitions);
        return bootstrap;
    }

    /** Stops the embedded broker, if one was started. */
    void close() {
        if (embedded != null) {
            embedded.close();
        }
    }
}
