package dev.pqsign.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaTest {

    @TempDir
    Path dir;

    @Test
    void restartOnSameDirectory_keepsAddressTopicsAndCommittedTransactions() throws Exception {
        String bootstrap;
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, Duration.ofSeconds(60))) {
            bootstrap = kafka.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("t", 2, (short) 1)))
                        .all()
                        .get(30, TimeUnit.SECONDS);
            }
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(
                    Map.of(
                            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            bootstrap,
                            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                            "tx-1"),
                    new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                p.initTransactions();
                p.beginTransaction();
                // commitTransaction() fails if this send failed: its future need not be read.
                Future<?> unusedSend = p.send(new ProducerRecord<>(
                        "t", "k".getBytes(StandardCharsets.UTF_8), "v1".getBytes(StandardCharsets.UTF_8)));
                p.commitTransaction();
            }
        }
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, Duration.ofSeconds(60))) {
            assertEquals(bootstrap, kafka.bootstrapServers());
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                            ConsumerConfig.GROUP_ID_CONFIG, "g",
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                c.subscribe(Set.of("t"));
                String got = null;
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (got == null && System.nanoTime() < end) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                        got = new String(r.value(), StandardCharsets.UTF_8);
                    }
                }
                assertEquals("v1", got);
            }
        }
    }
}
