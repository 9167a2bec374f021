package dev.pqsign.cli;

import dev.pqsign.kafka.EmbeddedKafka;
import dev.pqsign.kafka.KafkaTopics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
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

    /**
     * Kafka's clients, Streams and broker log their routine start-up and rebalance advice at WARN; the
     * commands report what matters themselves. Errors stay visible (PQSIGN_DEBUG=1 shows everything).
     */
    static void quietKafkaLogs() {
        if (System.getenv("PQSIGN_DEBUG") != null) {
            return;
        }
        for (String logger : new String[] {"org.apache.kafka", "kafka"}) {
            String key = "org.slf4j.simpleLogger.log." + logger;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "error");
            }
        }
    }

    /** Starts the embedded broker if asked, creates the topics, and returns the bootstrap servers. */
    String connect(PrintWriter info) throws IOException {
        quietKafkaLogs();
        if ((bootstrapServers == null) == (embeddedDir == null)) {
            throw CliException.usage("give exactly one of --bootstrap-servers HOST:PORT or --embedded-kafka DIR");
        }
        if (partitions < 1 || partitions > 1000) {
            throw CliException.usage("--partitions must be 1..1000, got " + partitions);
        }
        String bootstrap = bootstrapServers;
        if (embeddedDir != null) {
            embedded = EmbeddedKafka.start(embeddedDir, Duration.ofMinutes(2));
            bootstrap = embedded.bootstrapServers();
            info.printf("embedded Kafka broker at %s (data in %s)%n", bootstrap, embeddedDir);
            info.flush();
        }
        KafkaTopics.create(bootstrap, partitions);
        return bootstrap;
    }

    /** A long-running command's work on the cluster. */
    interface Body {
        /** Runs until the command's stop latch is counted down; returns the exit code. */
        int run(String bootstrapServers) throws IOException, InterruptedException;
    }

    /**
     * Connects (starting the embedded broker if asked), runs {@code body} with Ctrl-C counting down
     * {@code stop}, then stops the embedded broker. An I/O failure is exit 1 with one line.
     */
    int run(PrintWriter info, CountDownLatch stop, Body body) throws InterruptedException {
        try {
            String bootstrap = connect(info);
            try (TelemetrySupport.CtrlC ctrlC = new TelemetrySupport.CtrlC(stop::countDown, () -> false)) {
                int exit = CliException.FAILED;
                try {
                    exit = body.run(bootstrap);
                } finally {
                    close();
                    ctrlC.finished(exit);
                }
                return exit;
            }
        } catch (IOException e) {
            close();
            throw new CliException(CliException.FAILED, e.getMessage());
        }
    }

    /** Stops the embedded broker, if one was started. */
    void close() {
        if (embedded != null) {
            embedded.close();
            embedded = null;
        }
    }
}
