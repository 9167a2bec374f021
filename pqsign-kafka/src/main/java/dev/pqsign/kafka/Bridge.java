package dev.pqsign.kafka;

import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.RecordSubscription;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.SignedRecord;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code pqsign bridge}: an OPC UA client for many sensors that publishes every record of their
 * record nodes, unverified, to {@link KafkaTopics#READINGS}, keyed by sensor identity. It receives
 * exactly as the operator does ({@link Operator#relaying}: queued subscription, history backfill
 * after every (re)connect, the sensor's latest key handover ahead of its new key's readings) and
 * holds no key and no secret: it is not trusted, the verifier checks everything.
 *
 * <p>The producer is idempotent with {@code acks=all}, so a record is neither duplicated nor
 * reordered by retries. A record the broker finally refuses (after the producer's delivery
 * timeout) is counted ({@link #failed()}) and logged at ERROR, never dropped silently. The backfill
 * positions ({@link BridgePositions}) advance only with acknowledged records.
 */
public final class Bridge implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Bridge.class.getName());

    /**
     * One sensor to bridge.
     *
     * @param name the sensor identity (record key)
     * @param url its endpoint
     * @param security transport security
     */
    public record Sensor(String name, String url, TransportSecurity security) {
        public Sensor {
            SensorIdentity.encode(name);
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(security, "security");
        }
    }

    private final KafkaProducer<byte[], byte[]> producer;
    private final Operator client;
    private final BridgePositions positions;
    private final ScheduledExecutorService saver;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<String> lastFailure = new AtomicReference<>();
    private final List<RecordSubscription> connections = new ArrayList<>();

    private Bridge(Operator.Config opcua, String bootstrapServers, Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        positions = BridgePositions.open(dataDir);
        producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.LINGER_MS_CONFIG,
                        2,
                        ProducerConfig.CLIENT_ID_CONFIG,
                        "pqsign-bridge"),
                new ByteArraySerializer(),
                new ByteArraySerializer());
        saver = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pqsign-bridge-positions");
            t.setDaemon(true);
            return t;
        });
        // Failures are handled inside savePositions; the future only matters for cancelling, which close() does.
        Future<?> unusedSaving = saver.scheduleWithFixedDelay(this::savePositions, 1, 1, TimeUnit.SECONDS);
        Operator c;
        try {
            c = Operator.relaying(opcua, new Relay());
        } catch (IOException | RuntimeException e) {
            producer.close(Duration.ZERO);
            saver.shutdownNow();
            throw e;
        }
        client = c;
    }

    /**
     * Starts the bridge: connects to every sensor and publishes to {@code bootstrapServers}.
     *
     * @param opcua the OPC UA client settings (data dir holds its application certificate)
     * @param dataDir where the bridge keeps its backfill positions
     * @throws IOException if a sensor cannot be connected or the positions cannot be read
     */
    public static Bridge start(Operator.Config opcua, String bootstrapServers, Path dataDir, List<Sensor> sensors)
            throws IOException {
        return start(opcua, bootstrapServers, dataDir, sensors, List.of());
    }

    /**
     * Starts the bridge, trusting {@code serverCertificates} (the sensors' application certificates,
     * for sign-encrypt transport) before it connects.
     */
    public static Bridge start(
            Operator.Config opcua,
            String bootstrapServers,
            Path dataDir,
            List<Sensor> sensors,
            List<X509Certificate> serverCertificates)
            throws IOException {
        Bridge b = new Bridge(opcua, bootstrapServers, dataDir);
        try {
            serverCertificates.forEach(b.client::trustServer);
            for (Sensor s : sensors) {
                b.connections.add(b.client.connect(s.name(), s.url(), s.security()));
            }
        } catch (IOException | RuntimeException e) {
            b.close();
            throw e;
        }
        return b;
    }

    /** The OPC UA side (application certificate, connection listener). */
    public Operator client() {
        return client;
    }

    /** Records handed to the producer so far. */
    public long published() {
        return published.get();
    }

    /** Records the broker acknowledged so far. */
    public long acknowledged() {
        return acknowledged.get();
    }

    /** Records the broker finally refused (each logged at ERROR). */
    public long failed() {
        return failed.get();
    }

    /** The last refusal's reason, if any. */
    public Optional<String> lastFailure() {
        return Optional.ofNullable(lastFailure.get());
    }

    /** Waits until every record handed to the producer is acknowledged or failed. */
    public void flush() {
        producer.flush();
    }

    private void savePositions() {
        try {
            positions.save();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot save the bridge positions: {0}", e.getMessage());
        }
    }

    /** Receives every record-node value from the OPC UA side, in each sensor's order. */
    private final class Relay implements Operator.RecordRelay {
        @Override
        public Optional<Instant> backfillFrom(String sensor) {
            return Optional.of(positions.backfillFrom(sensor));
        }

        @Override
        public void relay(String sensor, byte[] value, Instant receivedAt) {
            Instant source = null;
            try {
                source = SignedRecord.decode(value).sourceTime();
            } catch (IllegalArgumentException notARecord) {
                // a key handover, or bytes the verifier will dead-letter
            }
            Instant sourceTime = source;
            published.incrementAndGet();
            // The callback reports the outcome (acknowledged or refused); nothing waits on the future.
            Future<?> unusedSend = producer.send(
                    new ProducerRecord<>(
                            KafkaTopics.READINGS,
                            null,
                            receivedAt.toEpochMilli(),
                            SensorIdentity.encode(sensor),
                            value),
                    (meta, e) -> {
                        if (e != null) {
                            failed.incrementAndGet();
                            lastFailure.set(e.getMessage());
                            LOG.log(Level.ERROR, "{0}: record not published to Kafka: {1}", sensor, e.getMessage());
                        } else {
                            acknowledged.incrementAndGet();
                            if (sourceTime != null) {
                                positions.acknowledged(sensor, sourceTime);
                            }
                        }
                    });
        }
    }

    /** Disconnects from the sensors, publishes what is pending, saves the positions. */
    @Override
    public void close() {
        client.close();
        producer.flush();
        producer.close(Duration.ofSeconds(30));
        saver.shutdownNow();
        savePositions();
    }
}
