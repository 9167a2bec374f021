package dev.pqsign.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.RollingSensorKey;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;

/**
 * {@code pqsign demo --kafka}: OPC UA sensors on loopback → {@link Bridge} → a Kafka broker (embedded
 * unless a cluster is given) → {@link StreamVerifier} instances in this process; per sensor one
 * tampered copy of a reading and one garbage record are written straight into the readings topic.
 * Counts the verdicts read back (committed only) and the verifiers' consumer lag at the end.
 */
public final class KafkaDemo {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private KafkaDemo() {}

    /** A demo sensor: its name and rolling key (the verifiers pin its first key through the trust). */
    public record Sensor(String name, RollingSensorKey key) {
        public Sensor {
            SensorIdentity.encode(name);
            Objects.requireNonNull(key, "key");
        }
    }

    /**
     * What the Kafka stage runs.
     *
     * @param dataDir the demo's data directory (broker data in {@code kafka/}, verifier state, bridge)
     * @param bootstrapServers a cluster to use, or null for the embedded broker
     * @param verifierInstances how many verifier instances share the partitions
     * @param readingsPerSensor genuine readings each sensor publishes
     * @param partitions partitions of the topics when they are created
     */
    public record Options(
            Path dataDir, String bootstrapServers, int verifierInstances, int readingsPerSensor, int partitions) {}

    /**
     * What came back.
     *
     * @param readings genuine readings published by the sensors
     * @param verified records in the verified topic (accepted readings, followed handovers, duplicates)
     * @param accepted of those, accepted readings
     * @param rejected records in the rejected topic
     * @param deadLetter records in the dead-letter topic
     * @param injected tampered records written into the readings topic
     * @param garbage garbage records written into the readings topic
     * @param lagAtEnd records of the readings topic the verifiers' group had not committed at the end
     * @param seconds from the bridge's start to the last verdict counted
     * @param bootstrapServers the cluster used
     * @param verifierCpuMillis CPU time of the verifier instances' stream threads during the run
     *     (verification, state stores, producing the verdicts), in milliseconds
     * @param endToEndMillis for each accepted reading: the wall-clock time its verdict was read from
     *     the verdict topic minus the reading's source time (one host here, so one clock), ascending
     */
    public record Result(
            int verifierInstances,
            long readings,
            long verified,
            long accepted,
            long rejected,
            long deadLetter,
            long injected,
            long garbage,
            long lagAtEnd,
            double seconds,
            String bootstrapServers,
            double verifierCpuMillis,
            List<Double> endToEndMillis) {
        /** Validates and copies. */
        public Result {
            endToEndMillis = List.copyOf(endToEndMillis);
        }

        /** The {@code kafka} object of the demo's JSON. */
        public ObjectNode toJson() {
            ObjectNode o = MAPPER.createObjectNode();
            o.put("verifier_instances", verifierInstances);
            o.put("readings", readings);
            o.put("verified", verified);
            o.put("accepted", accepted);
            o.put("rejected", rejected);
            o.put("dead_letter", deadLetter);
            o.put("injected_tampered", injected);
            o.put("injected_garbage", garbage);
            o.put("lag_at_end", lagAtEnd);
            o.put("seconds", seconds);
            o.put("verified_readings_per_second", seconds > 0 ? accepted / seconds : 0);
            o.put("verifier_cpu_ms_per_reading", accepted > 0 ? verifierCpuMillis / accepted : 0);
            o.put("end_to_end_ms_p50", percentile(endToEndMillis, 0.50));
            o.put("end_to_end_ms_p99", percentile(endToEndMillis, 0.99));
            return o;
        }
    }

    /** Runs the Kafka demo once. */
    public static Result run(Options options, List<Sensor> sensors, SensorTrust trust)
            throws IOException, InterruptedException {
        EmbeddedKafka embedded = null;
        List<SensorServer> servers = new ArrayList<>();
        List<StreamVerifier> verifiers = new ArrayList<>();
        Bridge bridge = null;
        try {
            String bootstrap = options.bootstrapServers();
            if (bootstrap == null) {
                embedded = EmbeddedKafka.start(options.dataDir().resolve("kafka"), Duration.ofMinutes(2));
                bootstrap = embedded.bootstrapServers();
            }
            KafkaTopics.create(bootstrap, options.partitions());
            List<Bridge.Sensor> bridged = new ArrayList<>();
            for (Sensor s : sensors) {
                SensorServer server = SensorServer.start(
                        SensorServer.Config.loopback(
                                s.name(),
                                options.dataDir().resolve("kafka-sensors").resolve(s.name()),
                                TransportSecurity.NONE),
                        s.key().current(),
                        ReadingHistory.inMemory(1_000_000, Duration.ofHours(1), Clock.systemUTC()));
                server.rollWith(s.key());
                servers.add(server);
                bridged.add(new Bridge.Sensor(s.name(), server.endpointUrl(), TransportSecurity.NONE));
            }
            // the run's own application id: a rerun on the same topics verifies only its own records
            String appId = "pqsign-demo-" + System.currentTimeMillis();
            for (int i = 0; i < options.verifierInstances(); i++) {
                Properties config = StreamVerifier.configuration(
                        bootstrap, appId, options.dataDir().resolve("kafka-verifier-" + appId + "-" + i), 1);
                // on a cluster that already holds readings, this run verifies only the records it makes
                config.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "latest");
                verifiers.add(StreamVerifier.start(trust, config));
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!verifiers.stream().allMatch(StreamVerifier::running)) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("the verifier instances did not start within 2 minutes");
                }
                Thread.sleep(100);
            }
            KafkaConsumer<byte[], byte[]> reader = reader(bootstrap, appId);
            long cpu0 = streamThreadsCpuNanos(appId);
            long t0 = System.nanoTime();
            bridge = Bridge.start(
                    new Operator.Config(options.dataDir().resolve("kafka-bridge-opcua"), TransportSecurity.NONE, 2),
                    bootstrap,
                    options.dataDir().resolve("kafka-bridge-" + appId),
                    bridged);
            long injected = 0;
            long garbage = 0;
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (int i = 0; i < options.readingsPerSensor(); i++) {
                    for (int s = 0; s < sensors.size(); s++) {
                        SignedRecord r = servers.get(s)
                                .publish(String.format("%.2f,kafka-demo", 1500.0 + i % 100))
                                .record();
                        if (i == options.readingsPerSensor() / 2) {
                            byte[] key = SensorIdentity.encode(sensors.get(s).name());
                            SignedReading g = r.reading();
                            SignedRecord tampered = SignedRecord.of(
                                    r.keyId(),
                                    r.parameterSetName(),
                                    new SignedReading(g.reading() + "0", g.index(), g.signature()),
                                    r.sourceTime(),
                                    r.sequence(),
                                    0,
                                    0,
                                    0);
                            send(producer, key, tampered.encode());
                            injected++;
                            send(producer, key, "not a signed record".getBytes(StandardCharsets.US_ASCII));
                            garbage++;
                        }
                    }
                }
            }
            long readings = (long) options.readingsPerSensor() * sensors.size();
            Map<String, Long> counts;
            List<Double> latencies = new ArrayList<>();
            try (reader) {
                counts = collect(reader, readings, injected, garbage, latencies);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long cpu = streamThreadsCpuNanos(appId) - cpu0;
            latencies.sort(null);
            return new Result(
                    options.verifierInstances(),
                    readings,
                    counts.getOrDefault(KafkaTopics.VERIFIED, 0L),
                    counts.getOrDefault("accepted", 0L),
                    counts.getOrDefault(KafkaTopics.REJECTED, 0L),
                    counts.getOrDefault(KafkaTopics.DEAD_LETTER, 0L),
                    injected,
                    garbage,
                    KafkaTopics.readingsLag(bootstrap, appId),
                    seconds,
                    bootstrap,
                    cpu / 1e6,
                    latencies);
        } finally {
            if (bridge != null) {
                bridge.close();
            }
            for (StreamVerifier v : verifiers) {
                v.close();
            }
            for (SensorServer s : servers) {
                s.close();
            }
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> p, byte[] key, byte[] value) throws IOException {
        try {
            p.send(new ProducerRecord<>(KafkaTopics.READINGS, key, value)).get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IOException("cannot write to " + KafkaTopics.READINGS + ": " + e.getMessage(), e);
        }
    }

    /** A reader of the verdict topics positioned at their current ends (committed records only). */
    private static KafkaConsumer<byte[], byte[]> reader(String bootstrap, String appId) throws IOException {
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        appId + "-demo-reader",
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "latest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        c.subscribe(Set.of(KafkaTopics.VERIFIED, KafkaTopics.REJECTED, KafkaTopics.DEAD_LETTER));
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (c.assignment().isEmpty()) {
            if (System.nanoTime() > deadline) {
                c.close();
                throw new IOException("no partitions of the verdict topics assigned within a minute");
            }
            c.poll(Duration.ofMillis(100));
        }
        c.assignment().forEach(c::position); // fix the start positions before anything is written
        return c;
    }

    private static Map<String, Long> collect(
            KafkaConsumer<byte[], byte[]> c, long readings, long injected, long garbage, List<Double> latencies)
            throws IOException {
        Map<String, Long> counts = new HashMap<>();
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < end
                && (counts.getOrDefault("accepted", 0L) < readings
                        || counts.getOrDefault(KafkaTopics.REJECTED, 0L) < injected
                        || counts.getOrDefault(KafkaTopics.DEAD_LETTER, 0L) < garbage)) {
            count(c, counts, latencies);
        }
        // a moment more: anything unexpected (a double acceptance, a false alarm) would show now
        long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (System.nanoTime() < settle) {
            count(c, counts, latencies);
        }
        return counts;
    }

    /**
     * One poll: records per topic, accepted readings under {@code "accepted"}, and each accepted
     * reading's end-to-end latency.
     */
    private static void count(KafkaConsumer<byte[], byte[]> c, Map<String, Long> counts, List<Double> latencies)
            throws IOException {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
            Instant now = Instant.now();
            JsonNode j = MAPPER.readTree(r.value());
            counts.merge(r.topic(), 1L, Long::sum);
            if ("ACCEPTED".equals(j.path("verdict").asText())) {
                counts.merge("accepted", 1L, Long::sum);
                try {
                    Instant source = Instant.parse(j.path("source_time").asText());
                    latencies.add(Duration.between(source, now).toNanos() / 1e6);
                } catch (DateTimeParseException e) {
                    // an accepted verdict always carries the source time; without one there is no latency
                }
            }
        }
    }

    /**
     * CPU time of this run's verifier stream threads (Kafka Streams names them after the
     * application id), so that the broker, bridge and sensors in the same JVM are not counted.
     */
    private static long streamThreadsCpuNanos(String appId) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!threads.isThreadCpuTimeSupported()) {
            return 0;
        }
        long total = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null
                    && t.getThreadName().startsWith(appId)
                    && t.getThreadName().contains("StreamThread")) {
                long cpu = threads.getThreadCpuTime(t.getThreadId());
                total += Math.max(0, cpu);
            }
        }
        return total;
    }

    private static double percentile(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }
}
