package dev.pqsign.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pqsign.opcua.Operator;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.x509.PqPublicKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real OPC UA sensors on loopback → {@link Bridge} → embedded broker → two {@link StreamVerifier}
 * instances in this JVM, and records written straight into {@code pqsign.readings}.
 */
class KafkaPipelineTest {

    @TempDir
    Path dir;

    private EmbeddedKafka kafka;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void startBroker() throws Exception {
        kafka = EmbeddedKafka.start(dir.resolve("kafka"), Duration.ofSeconds(60));
        KafkaTopics.create(kafka.bootstrapServers(), 4);
    }

    @AfterEach
    void stop() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        kafka.close();
    }

    private <T extends AutoCloseable> T keep(T c) {
        open.add(c);
        return c;
    }

    // The short run (3 bridged sensors) is in every build; the ten sensors with longer
    // streams are behind -Plong.
    @Test
    void sensorsThroughBridgeToTwoVerifiers_everyReadingOnce_attacksRejected_garbageDeadLettered() throws Exception {
        run(3, 60);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void tenSensorsThroughBridgeToTwoVerifiers_long() throws Exception {
        run(10, 300);
    }

    /**
     * @param bridged sensors behind the bridge: s1 hands its key over every 24 readings, s2 is the
     *     one attacked, s3 gets the garbage, s4 … keep their keys
     * @param n readings each bridged sensor publishes before the attacks
     */
    private void run(int bridged, int n) throws Exception {
        List<TestSensor> sensors = new ArrayList<>();
        for (int k = 1; k <= bridged; k++) {
            sensors.add(keep(TestSensor.start("s" + k, dir, k == 1 ? 1000 : 8, true)));
        }
        TestSensor s3 = sensors.get(2);
        TestSensor rogue = keep(TestSensor.start("rogue", dir, 8, false)); // never bridged
        Map<String, PqPublicKey> pinned = new LinkedHashMap<>();
        for (TestSensor s : sensors) {
            pinned.put(s.name, s.firstKey);
        }
        pinned.put(rogue.name, rogue.firstKey);
        SensorTrust trust = SensorTrust.of(pinned);
        String bootstrap = kafka.bootstrapServers();
        for (int i = 0; i < 2; i++) {
            keep(StreamVerifier.start(
                    trust,
                    StreamVerifier.configuration(
                            bootstrap, StreamVerifier.DEFAULT_APPLICATION_ID, dir.resolve("verifier-" + i), 1)));
        }
        List<Bridge.Sensor> viaBridge = new ArrayList<>();
        for (TestSensor s : sensors) {
            viaBridge.add(s.bridged());
        }
        keep(Bridge.start(
                new Operator.Config(dir.resolve("bridge-opcua"), TransportSecurity.NONE, 2),
                bootstrap,
                dir.resolve("bridge"),
                viaBridge));
        Topics topics = keep(new Topics(bootstrap));

        List<SignedRecord> s2Records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < bridged; k++) {
                SignedRecord published = sensors.get(k).publish((1500 + 100 * k) + "." + i + ",s" + (k + 1));
                if (k == 1) {
                    s2Records.add(published);
                }
            }
        }

        // attacks written straight into the topic
        SignedRecord genuine = s2Records.get(10);
        SignedReading r = genuine.reading();
        SignedRecord tampered = SignedRecord.of(
                genuine.keyId(),
                genuine.parameterSetName(),
                new SignedReading(r.reading().replace("1600", "1999"), r.index(), r.signature()),
                genuine.sourceTime(),
                genuine.sequence(),
                0,
                0,
                0);
        topics.inject(bytes("s2"), tampered.encode());
        SignedRecord rogueSigned = rogue.sign("1600.0,forged");
        SignedRecord forged = SignedRecord.of(
                s2Records.get(n - 1).keyId(),
                rogueSigned.parameterSetName(),
                rogueSigned.reading(),
                Instant.now(),
                1,
                0,
                0,
                0);
        topics.inject(bytes("s2"), forged.encode());
        // the rogue sensor's own stream (indices 1..4; 0 went into the forgery), index 3 withheld and then replayed
        List<SignedRecord> rogueRecords = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            rogueRecords.add(rogue.sign("1.0," + i));
        }
        for (int i : new int[] {0, 1, 3}) {
            topics.inject(bytes("rogue"), rogueRecords.get(i).encode());
        }
        topics.inject(bytes("rogue"), rogueRecords.get(2).encode());
        topics.inject(bytes("rogue"), rogueRecords.get(3).encode());
        // garbage: random bytes, a truncated record, no key
        byte[] noise = new byte[200];
        new Random(18).nextBytes(noise);
        topics.inject(bytes("s3"), noise);
        byte[] truncated = s2Records.get(0).encode();
        topics.inject(bytes("s3"), Arrays.copyOf(truncated, truncated.length - 1));
        topics.inject(null, s2Records.get(0).encode());
        // the stream goes on after the garbage
        for (int i = n; i < n + 10; i++) {
            s3.publish("1700." + i + ",s3-after-garbage");
        }

        int expectedAccepted = bridged * n + 10 + 3;
        assertTrue(
                topics.pollUntil(
                        t -> t.acceptedTotal() >= expectedAccepted
                                && t.deadLetter.size() >= 3
                                && t.rejectedWith("REPLAYED") >= 1
                                && t.rejectedWith("BAD_SIGNATURE") >= 2,
                        Duration.ofSeconds(60 + bridged * n / 10)),
                () -> "accepted " + topics.acceptedTotal() + ", rejected " + topics.rejected + ", dead letter "
                        + topics.deadLetter.size());
        topics.pollUntil(t -> false, Duration.ofSeconds(2)); // anything extra would show now

        for (int k = 1; k <= bridged; k++) {
            assertEquals(k == 3 ? n + 10 : n, topics.accepted("s" + k), "s" + k);
        }
        assertEquals(3, topics.accepted("rogue"));
        Set<String> once = new HashSet<>();
        for (JsonNode j : topics.verified) {
            if ("ACCEPTED".equals(j.path("verdict").asText())) {
                String id = j.path("sensor").asText() + "/" + j.path("key_id").asText() + "/"
                        + j.path("index").asLong();
                assertTrue(once.add(id), "accepted twice: " + id);
            }
        }
        Map<String, Long> reasons = new HashMap<>();
        for (JsonNode j : topics.rejected) {
            reasons.merge(j.path("reason").asText(j.path("verdict").asText()), 1L, Long::sum);
        }
        // tampered copy of an accepted reading, and a reading signed by a key s2 never had
        assertEquals(2, topics.rejectedWith("BAD_SIGNATURE"), () -> "rejected: " + topics.rejected);
        // the withheld rogue index 3: a gap when index 4 came, a replay when it came late; 4 again: duplicate
        assertEquals(1, topics.rejectedWith("REPLAYED"), () -> "rejected: " + topics.rejected);
        assertEquals(
                1,
                topics.rejected.stream()
                        .filter(j -> "GAP".equals(j.path("verdict").asText())
                                && j.path("from_index").asLong() == 3
                                && j.path("to_index").asLong() == 3)
                        .count());
        // and the rogue key's index 0, which went into the forgery and never reached the rogue stream:
        // a key's sequence starts at 0, so its first accepted reading reports it as a gap
        assertEquals(
                1,
                topics.rejected.stream()
                        .filter(j -> "GAP".equals(j.path("verdict").asText())
                                && j.path("from_index").asLong() == 0
                                && j.path("to_index").asLong() == 0)
                        .count());
        assertEquals(5, topics.rejected.size(), () -> "rejected: " + reasons);
        assertEquals(
                1,
                topics.verified.stream()
                        .filter(j -> "DUPLICATE".equals(j.path("verdict").asText()))
                        .count());
        // s1 rolled over at least twice (every 24 readings), each followed once
        long followed = topics.verified.stream()
                .filter(j -> "HANDOVER".equals(j.path("event").asText())
                        && "FOLLOWED".equals(j.path("outcome").asText()))
                .count();
        assertTrue(followed >= Math.max(2, n / 24 - 1), "handovers followed: " + followed);
        Set<String> s1Keys = new HashSet<>();
        topics.verified.stream()
                .filter(j -> "s1".equals(j.path("sensor").asText())
                        && "ACCEPTED".equals(j.path("verdict").asText()))
                .forEach(j -> s1Keys.add(j.path("key_id").asText()));
        assertEquals(followed + 1, s1Keys.size());
        assertEquals(3, topics.deadLetter.size());
        for (JsonNode j : topics.deadLetter) {
            assertTrue(!j.path("reason").asText().isEmpty());
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
