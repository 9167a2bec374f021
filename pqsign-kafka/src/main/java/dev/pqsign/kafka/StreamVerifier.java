package dev.pqsign.kafka;

import dev.pqsign.kafka.internal.VerifyProcessor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The Kafka Streams application that verifies {@link KafkaTopics#READINGS}: each record is judged
 * like {@code pqsign operator} judges it (pinned first key, followed key handovers, replay,
 * duplicate, gap and index-reuse rules) and its verdict, the operator's JSON Lines object, goes to
 * {@link KafkaTopics#VERIFIED} or {@link KafkaTopics#REJECTED}; what cannot be decoded goes to
 * {@link KafkaTopics#DEAD_LETTER} with the reason, and the stream goes on.
 *
 * <p>Per-sensor state lives in one persistent key-value store backed by a changelog topic, and
 * processing is {@code exactly_once_v2}: a verdict, the state change it implies and the input offset
 * commit together or not at all. The store is transactional, so its local copy only ever holds
 * committed state and an instance restarted after a crash keeps it. Instances started with the same
 * application id share the partitions; one that dies hands its partitions, with their state, to the
 * others.
 */
public final class StreamVerifier implements AutoCloseable {

    /** Default application id (the consumer group and the prefix of the internal topics). */
    public static final String DEFAULT_APPLICATION_ID = "pqsign-verifier";

    /** Name of the per-sensor state store (its changelog topic is {@code APPID-pqsign-verifier-state-changelog}). */
    public static final String STORE = "pqsign-verifier-state";

    private final KafkaStreams streams;

    private StreamVerifier(KafkaStreams streams) {
        this.streams = streams;
    }

    /** The verifier's processing topology for {@code trust}. */
    public static Topology topology(SensorTrust trust) {
        Objects.requireNonNull(trust, "trust");
        StoreBuilder<KeyValueStore<String, byte[]>> store =
                Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(), Serdes.ByteArray());
        Topology t = new Topology();
        t.addSource("readings", new ByteArrayDeserializer(), new ByteArrayDeserializer(), KafkaTopics.READINGS);
        t.addProcessor("verify", () -> new VerifyProcessor(trust, STORE), "readings");
        t.addStateStore(store, "verify");
        t.addSink(
                VerifyProcessor.VERIFIED,
                KafkaTopics.VERIFIED,
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                "verify");
        t.addSink(
                VerifyProcessor.REJECTED,
                KafkaTopics.REJECTED,
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                "verify");
        t.addSink(
                VerifyProcessor.DEAD_LETTER,
                KafkaTopics.DEAD_LETTER,
                new ByteArraySerializer(),
                new ByteArraySerializer(),
                "verify");
        return t;
    }

    /**
     * The configuration of one instance.
     *
     * @param applicationId shared by all instances that share the work
     * @param stateDir where this instance keeps its local copies of the state (one per instance)
     * @param threads stream threads in this instance
     */
    public static Properties configuration(String bootstrapServers, String applicationId, Path stateDir, int threads) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // Transactional state stores (KIP-892): a transaction's writes reach the local store only
        // after the transaction has committed. Without them, the local state an instance killed with
        // SIGKILL leaves behind may hold uncommitted writes, so on restart Kafka Streams declares its
        // tasks corrupted, logs that at ERROR (its TaskManager: "Get exceptions for the following
        // tasks: ... TaskCorruptedException"), wipes them and restores them. A restart after a crash
        // is an expected event for the verifier (failover is a guarantee), not an error: with these
        // stores the local state is known to be committed, so Streams keeps it and brings it up to
        // date from the changelog, and a real corruption still logs at ERROR. (Streams' start-up pass
        // does not yet know about transactional stores and logs two WARN lines per such task.)
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, true);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toAbsolutePath().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, threads);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        // One request in flight per broker connection: with transactions v2 the broker refuses the
        // later of several pipelined batches to a partition that a commit has just reset
        // (OutOfOrderSequenceException, logged as an ERROR by the broker although the producer
        // retries and nothing is lost); the verifier's throughput does not depend on pipelining.
        p.put(
                StreamsConfig.producerPrefix(
                        org.apache.kafka.clients.producer.ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION),
                1);
        // readings of a sensor must not wait for records of other partitions
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, 0);
        // a dead instance's partitions move to the others after seconds, not the default 45 s
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1500);
        return p;
    }

    /**
     * Starts one instance and waits until it runs (it may still be restoring state or waiting for
     * partitions).
     */
    public static StreamVerifier start(SensorTrust trust, Properties configuration) {
        return start(trust, configuration, null);
    }

    /**
     * Starts one instance that reports its state changes (e.g. to stop a command on
     * {@link KafkaStreams.State#ERROR}) to {@code listener} (may be null).
     */
    public static StreamVerifier start(
            SensorTrust trust, Properties configuration, KafkaStreams.StateListener listener) {
        KafkaStreams s = new KafkaStreams(topology(trust), configuration);
        if (listener != null) {
            s.setStateListener(listener);
        }
        // A failed stream thread is replaced rather than leaving its partitions idle; bad input never
        // gets here (it is dead-lettered), so this is for broker and network failures.
        s.setUncaughtExceptionHandler(
                e -> StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD);
        s.start();
        return new StreamVerifier(s);
    }

    /** The underlying Kafka Streams instance (state, metrics). */
    public KafkaStreams streams() {
        return streams;
    }

    /** Whether this instance is processing (all its tasks restored and running). */
    public boolean running() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** Stops the instance cleanly (commits, leaves the group, closes its stores). */
    @Override
    public void close() {
        streams.close(Duration.ofSeconds(30));
    }
}
