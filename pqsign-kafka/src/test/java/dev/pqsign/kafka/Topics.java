package dev.pqsign.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Reads the verdict topics (committed records only) and writes raw records, for the tests. */
final class Topics implements AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    final List<JsonNode> verified = new ArrayList<>();
    final List<JsonNode> rejected = new ArrayList<>();
    final List<JsonNode> deadLetter = new ArrayList<>();

    Topics(String bootstrap) {
        consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "test-reader-" + System.nanoTime(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        consumer.subscribe(Set.of(KafkaTopics.VERIFIED, KafkaTopics.REJECTED, KafkaTopics.DEAD_LETTER));
        producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    /** Writes one record straight into pqsign.readings (bypassing the bridge). */
    void inject(byte[] key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(KafkaTopics.READINGS, key, value)).get(30, TimeUnit.SECONDS);
    }

    /** Polls until {@code done} holds (or the timeout passes); returns whether it held. */
    boolean pollUntil(Predicate<Topics> done, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!done.test(this)) {
            if (System.nanoTime() > end) {
                return false;
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                JsonNode j;
                try {
                    j = MAPPER.readTree(r.value());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                switch (r.topic()) {
                    case KafkaTopics.VERIFIED -> verified.add(j);
                    case KafkaTopics.REJECTED -> rejected.add(j);
                    default -> deadLetter.add(j);
                }
            }
        }
        return true;
    }

    long accepted(String sensor) {
        return verified.stream()
                .filter(j -> sensor.equals(j.path("sensor").asText())
                        && "ACCEPTED".equals(j.path("verdict").asText()))
                .count();
    }

    long acceptedTotal() {
        return verified.stream()
                .filter(j -> "ACCEPTED".equals(j.path("verdict").asText()))
                .count();
    }

    long rejectedWith(String reason) {
        return rejected.stream()
                .filter(j -> reason.equals(j.path("reason").asText()))
                .count();
    }

    @Override
    public void close() {
        consumer.close();
        producer.close();
    }
}
