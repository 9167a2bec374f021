package dev.pqsign.kafka;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The topics of signed telemetry in Kafka (format in {@code docs/formats/kafka-records.md}): every
 * record keyed by the sensor's identity, so one sensor's records stay in one partition in order.
 */
public final class KafkaTopics {
    private KafkaTopics() {}

    /** Unverified signed records and key handovers, as the bridge received them from the sensors. */
    public static final String READINGS = "pqsign.readings";

    /** Verdicts that are not alarms: accepted readings, duplicates, followed key handovers. */
    public static final String VERIFIED = "pqsign.verified";

    /** Alarms: rejected readings, gaps, index reuse, rejected key handovers. */
    public static final String REJECTED = "pqsign.rejected";

    /** Records that could not be decoded at all, with the reason. */
    public static final String DEAD_LETTER = "pqsign.dead-letter";

    /** Partitions of each topic when {@link #create} makes it. */
    public static final int DEFAULT_PARTITIONS = 4;

    /**
     * Creates the four topics with {@code partitions} partitions each (replication factor: the
     * cluster's default) unless they exist.
     *
     * @throws IOException if the cluster does not answer or refuses
     */
    public static void create(String bootstrapServers, int partitions) throws IOException {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                30_000))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String t : List.of(READINGS, VERIFIED, REJECTED, DEAD_LETTER)) {
                if (!existing.contains(t)) {
                    missing.add(new NewTopic(t, Optional.of(partitions), Optional.empty()));
                }
            }
            if (!missing.isEmpty()) {
                try {
                    admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot create the pqsign topics at " + bootstrapServers + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while creating the pqsign topics", e);
        }
    }

    /**
     * Records of {@link #READINGS} that the consumer group {@code groupId} (a verifier's application
     * id) has not committed yet: its lag, summed over the partitions.
     *
     * @throws IOException if the cluster does not answer
     */
    public static long readingsLag(String bootstrapServers, String groupId) throws IOException {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            int partitions = admin.describeTopics(Set.of(READINGS))
                    .allTopicNames()
                    .get(30, TimeUnit.SECONDS)
                    .get(READINGS)
                    .partitions()
                    .size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                latest.put(new TopicPartition(READINGS, p), OffsetSpec.latest());
            }
            long lag = 0;
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e :
                    admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet()) {
                OffsetAndMetadata c = committed.get(e.getKey());
                lag += e.getValue().offset() - (c == null ? 0 : c.offset());
            }
            return lag;
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot read the lag of " + groupId + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the lag of " + groupId, e);
        }
    }
}
