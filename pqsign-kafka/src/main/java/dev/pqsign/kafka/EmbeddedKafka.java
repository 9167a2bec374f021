package dev.pqsign.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node Kafka broker in KRaft mode (broker and controller in one server) running inside
 * this process, from Kafka's own jars and through its production start-up path: the directory is
 * formatted once as {@code kafka-storage format} does, then a {@link KafkaRaftServer} runs on it.
 * It listens on 127.0.0.1 only. Its ports are chosen free on first start and kept in
 * {@code DIR/}{@value #CONFIG_FILE}, so a broker restarted on the same directory comes back at the
 * same address with all its topics, offsets and transactions.
 *
 * <p>Every replication factor and minimum in-sync replica count is 1, so that transactions
 * ({@code exactly_once_v2}) work with one broker; durability is the single disk's.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** The broker's configuration as written on first start (Kafka's own properties format). */
    public static final String CONFIG_FILE = "server.properties";

    private final Path dir;
    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private boolean closed;

    private EmbeddedKafka(Path dir, KafkaRaftServer server, String bootstrapServers) {
        this.dir = dir;
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Starts the broker on {@code dir} (formatting it on first use) and waits until it serves
     * clients.
     *
     * @throws IOException if the directory cannot be prepared, the broker does not start, or it is
     *     not ready within {@code timeout}
     */
    public static EmbeddedKafka start(Path dir, Duration timeout) throws IOException {
        Objects.requireNonNull(dir, "dir");
        if (System.getProperty("log4j2.statusLoggerLevel") == null) {
            // the broker logs through SLF4J; without log4j-core, log4j-api would complain once on stderr
            System.setProperty("log4j2.statusLoggerLevel", "OFF");
        }
        Path root = Files.createDirectories(dir.toAbsolutePath());
        Path configFile = root.resolve(CONFIG_FILE);
        Properties props;
        if (Files.exists(configFile)) {
            props = new Properties();
            try (InputStream in = Files.newInputStream(configFile)) {
                props.load(in);
            }
        } else {
            props = configuration(root, freePort(), freePort());
            format(root, props);
            Path tmp = root.resolve(CONFIG_FILE + ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                props.store(out, "pqsign embedded Kafka broker (single node, KRaft)");
            }
            Files.move(tmp, configFile, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        KafkaRaftServer server;
        try {
            server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
            server.startup();
        } catch (RuntimeException e) {
            throw new IOException("embedded Kafka broker on " + root + " did not start: " + e.getMessage(), e);
        }
        String bootstrap = "127.0.0.1:" + props.getProperty("pqsign.broker.port");
        EmbeddedKafka kafka = new EmbeddedKafka(root, server, bootstrap);
        try {
            kafka.awaitReady(timeout);
        } catch (IOException e) {
            kafka.close();
            throw e;
        }
        return kafka;
    }

    /** {@code HOST:PORT} for the clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The broker's directory. */
    public Path directory() {
        return dir;
    }

    private void awaitReady(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000))) {
            while (true) {
                try {
                    if (!admin.describeCluster()
                            .nodes()
                            .get(5, TimeUnit.SECONDS)
                            .isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IOException("embedded Kafka broker on " + dir + " not ready within " + timeout, e);
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException("embedded Kafka broker on " + dir + " not ready within " + timeout);
                }
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the embedded Kafka broker", e);
        }
    }

    private static Properties configuration(Path root, int port, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", root.resolve("data").toString());
        // one node: every replicated internal topic has one replica, and transactions need only it
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "4");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("default.replication.factor", "1");
        p.setProperty("min.insync.replicas", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        // a small machine: few threads
        p.setProperty("num.network.threads", "2");
        p.setProperty("num.io.threads", "2");
        p.setProperty("background.threads", "2");
        p.setProperty("num.recovery.threads.per.data.dir", "1");
        p.setProperty("pqsign.broker.port", Integer.toString(port));
        return p;
    }

    /** Formats the metadata and log directory as {@code kafka-storage format -t ID -c CONFIG} does. */
    private static void format(Path root, Properties props) throws IOException {
        Path config = root.resolve("format.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            props.store(out, null);
        }
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        int rc;
        try {
            rc = StorageTool.execute(
                    new String[] {"format", "--cluster-id", Uuid.randomUuid().toString(), "--config", config.toString()
                    },
                    quiet);
        } catch (RuntimeException e) {
            throw new IOException("cannot format " + root + " for Kafka: " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(config);
        }
        if (rc != 0) {
            throw new IOException("cannot format " + root + " for Kafka (kafka-storage format exit " + rc + ")");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Stops the broker (a clean shutdown: the next start on the directory needs no recovery). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.shutdown();
        server.awaitShutdown();
    }

    @Override
    public String toString() {
        return "EmbeddedKafka[" + bootstrapServers + ", " + dir + "]";
    }
}
