package dev.pqsign.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.core.Hex;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.SignedRecord;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measurement, not a test (not run by default; no thresholds): verified readings/s and CPU per
 * reading of 1 and 2 verifier instances (child JVMs) over a backlog of pre-signed records, the
 * consumer lag at the end, and end-to-end latency sensor → verdict topic through OPC UA and the
 * bridge at a steady rate. Run: {@code ./mvnw -pl pqsign-kafka -am verify
 * -Dtest=KafkaThroughputMeasurement -Dsurefire.failIfNoSpecifiedTests=false}; results on stdout and in
 * {@code target/kafka-measurement.txt}.
 */
class KafkaThroughputMeasurement {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int SENSORS = 8;
    private static final int PER_SENSOR = Integer.getInteger("pqsign.kafka.perSensor", 400);
    private static final int PARTITIONS = 4; // of the latency run
    // Runs as PARTITIONSxINSTANCES, e.g. "1x2,4x1,4x2": a fresh broker and topic for each.
    private static final String RUNS = System.getProperty("pqsign.kafka.runs", "4x1,4x2");
    // With pinning, verifier instance i runs on CPU i only (taskset), so each instance has one core
    // of its own however many instances there are; the broker and this JVM are not pinned.
    private static final boolean PIN = Boolean.getBoolean("pqsign.kafka.pin");

    @TempDir
    Path dir;

    @Test
    void measure() throws Exception {
        Path report = Path.of("target", "kafka-measurement.txt");
        try (PrintStream out = new PrintStream(Files.newOutputStream(report), true, StandardCharsets.UTF_8)) {
            List<TestSensor> sensors = new ArrayList<>();
            List<String> childArgs = new ArrayList<>();
            List<byte[][]> records = new ArrayList<>();
            for (int s = 0; s < SENSORS; s++) {
                TestSensor t = TestSensor.start("m" + s, dir, 8, false);
                sensors.add(t);
                childArgs.add(t.name + "=" + TestSensor.SET.setName() + ":" + Hex.encode(t.firstKey.rawEncoding()));
            }
            // signed up front: the measurement is the verifiers', not the sensors'
            for (int i = 0; i < PER_SENSOR; i++) {
                for (TestSensor t : sensors) {
                    SignedRecord r = t.sign("1500." + i + "," + t.name);
                    records.add(new byte[][] {SensorIdentity.encode(t.name), r.encode()});
                }
            }
            print(
                    out,
                    "set " + TestSensor.SET.setName() + ", " + SENSORS + " sensors, " + records.size() + " records, "
                            + (PIN ? "each verifier instance pinned to its own CPU" : "not pinned")
                            + "; load before: " + uptime());
            for (String run : RUNS.split(",")) {
                int partitions = Integer.parseInt(run.substring(0, run.indexOf('x')));
                int instances = Integer.parseInt(run.substring(run.indexOf('x') + 1));
                // a fresh broker per run: each run verifies the same backlog from an empty topic
                EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka-" + run), Duration.ofMinutes(2));
                String bootstrap = kafka.bootstrapServers();
                KafkaTopics.create(bootstrap, partitions);
                String appId = "bench-" + run;
                List<Process> children = new ArrayList<>();
                for (int i = 0; i < instances; i++) {
                    List<String> prefix = PIN ? List.of("taskset", "-c", Integer.toString(i)) : List.of();
                    children.add(VerifierFailoverTest.startChild(
                            bootstrap, dir.resolve(appId + "-" + i), childArgs, appId, prefix));
                }
                Thread.sleep(8000); // let the group settle: every instance owns its partitions
                long[] cpu0 = cpu(children);
                long own0 = ownCpuNanos();
                long written;
                long lastArrival;
                int verdicts = 0;
                try (KafkaConsumer<byte[], byte[]> c = consumer(bootstrap, appId);
                        KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(
                                Map.of(
                                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                                        bootstrap,
                                        ProducerConfig.ACKS_CONFIG,
                                        "all",
                                        ProducerConfig.LINGER_MS_CONFIG,
                                        5),
                                new ByteArraySerializer(),
                                new ByteArraySerializer())) {
                    c.subscribe(Set.of(KafkaTopics.VERIFIED));
                    c.poll(Duration.ofMillis(500));
                    written = System.nanoTime();
                    List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
                    for (byte[][] kv : records) {
                        sent.add(p.send(new ProducerRecord<>(KafkaTopics.READINGS, kv[0], kv[1])));
                    }
                    p.flush();
                    for (Future<RecordMetadata> f : sent) {
                        f.get(); // done after flush(); throws if a record did not reach the broker
                    }
                    lastArrival = written;
                    long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                    while (verdicts < records.size() && System.nanoTime() < end) {
                        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                            JsonNode j = MAPPER.readTree(r.value());
                            if (j.path("sensor").asText().startsWith("m")) {
                                verdicts++;
                                lastArrival = System.nanoTime();
                            }
                        }
                    }
                }
                long[] cpu1 = cpu(children);
                long own = ownCpuNanos() - own0;
                long cpuNanos = 0;
                for (int i = 0; i < instances; i++) {
                    cpuNanos += cpu1[i] - cpu0[i];
                }
                double seconds = (lastArrival - written) / 1e9;
                long lag = KafkaTopics.readingsLag(bootstrap, appId);
                print(
                        out,
                        String.format(
                                "%d partition(s), %d instance(s): %d verdicts in %.2f s = %.0f verified readings/s; CPU %.2f ms per reading"
                                        + " (verifier JVMs only, %s); this JVM (broker, producer, verdict consumer)"
                                        + " %.2f ms per reading; lag at end %d; load: %s",
                                partitions,
                                instances,
                                verdicts,
                                seconds,
                                verdicts / seconds,
                                cpuNanos / 1e6 / verdicts,
                                Arrays.toString(Arrays.stream(cpu1)
                                                .map(x -> x / 1_000_000)
                                                .toArray()) + " ms total per JVM",
                                own / 1e6 / verdicts,
                                lag,
                                uptime()));
                for (Process pr : children) {
                    pr.destroy();
                    pr.waitFor(30, TimeUnit.SECONDS);
                }
                kafka.close();
                assertEquals(records.size() * 1L, verdicts);
            }
            // a fresh broker: the live readings must not queue behind the backlog of the runs above
            if (!Boolean.getBoolean("pqsign.kafka.skipLatency")) {
                try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka-latency"), Duration.ofMinutes(2))) {
                    KafkaTopics.create(kafka.bootstrapServers(), PARTITIONS);
                    latency(out, kafka.bootstrapServers());
                }
            }
        }
        print(System.out, Files.readString(report));
    }

    /** Three OPC UA sensors at 20 readings/s each for 20 s through the bridge to one verifier. */
    private void latency(PrintStream out, String bootstrap) throws Exception {
        List<TestSensor> live = new ArrayList<>();
        List<String> args = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TestSensor t = TestSensor.start("live" + i, dir, 8, true);
            live.add(t);
            args.add(t.name + "=" + TestSensor.SET.setName() + ":" + Hex.encode(t.firstKey.rawEncoding()));
        }
        Process child = VerifierFailoverTest.startChild(bootstrap, dir.resolve("latency"), args, "bench-latency");
        List<Double> ms = new ArrayList<>();
        try (Bridge bridge = Bridge.start(
                        new Operator.Config(dir.resolve("lat-opcua"), TransportSecurity.NONE, 2),
                        bootstrap,
                        dir.resolve("lat-bridge"),
                        live.stream().map(TestSensor::bridged).toList());
                KafkaConsumer<byte[], byte[]> c = consumer(bootstrap, "bench-latency")) {
            c.subscribe(Set.of(KafkaTopics.VERIFIED));
            c.poll(Duration.ofMillis(500));
            Thread.sleep(5000);
            int sent = 0;
            long next = System.nanoTime();
            long stopAt = next + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < stopAt || ms.size() < sent) {
                if (System.nanoTime() < stopAt && System.nanoTime() >= next) {
                    for (TestSensor t : live) {
                        t.publish("1500.0," + t.name);
                        sent++;
                    }
                    next += TimeUnit.MILLISECONDS.toNanos(50);
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(5))) {
                    Instant now = Instant.now();
                    JsonNode j = MAPPER.readTree(r.value());
                    if (j.path("sensor").asText().startsWith("live")
                            && "ACCEPTED".equals(j.path("verdict").asText())) {
                        ms.add(Duration.between(
                                                Instant.parse(
                                                        j.path("source_time").asText()),
                                                now)
                                        .toNanos()
                                / 1e6);
                    }
                }
                if (System.nanoTime() > stopAt + TimeUnit.SECONDS.toNanos(60)) {
                    break;
                }
            }
            ms.sort(Double::compare);
            print(
                    out,
                    String.format(
                            "end-to-end sensor source time -> verdict read from %s (3 OPC UA sensors, 20 readings/s each,"
                                    + " bridge, 1 verifier, consumer; same host clock): %d readings, p50 %.1f ms, p99 %.1f ms;"
                                    + " load: %s",
                            KafkaTopics.VERIFIED,
                            ms.size(),
                            ms.get(ms.size() / 2),
                            ms.get((int) Math.min(ms.size() - 1, Math.ceil(ms.size() * 0.99) - 1)),
                            uptime()));
            assertTrue(ms.size() >= sent);
            assertEquals(0, bridge.failed());
        } finally {
            child.destroy();
            child.waitFor(30, TimeUnit.SECONDS);
            for (TestSensor t : live) {
                t.close();
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, String tag) {
        return new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "measure-" + tag,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                        "read_committed"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    private static long[] cpu(List<Process> ps) {
        return ps.stream()
                .mapToLong(p -> p.info().totalCpuDuration().orElseThrow().toNanos())
                .toArray();
    }

    private static long ownCpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    private static String uptime() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static void print(PrintStream out, String line) {
        out.println(line);
        out.flush();
    }
}
