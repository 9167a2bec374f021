package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pqsign demo --kafka} end to end with the embedded broker: the JSON keys automated checks read. */
class DemoKafkaCliTest {
    @TempDir
    Path dir;

    @Test
    void demoKafka_twoSensorsTwoVerifiers_jsonHasKafkaCountsAndExit0() throws Exception {
        Path json = dir.resolve("demo.json");
        CliRunner.Result r = CliRunner.run(
                "demo",
                "--kafka",
                "--sets",
                "XMSSMT-SHA2_10/2_256",
                "--readings",
                "20",
                "--sensors",
                "2",
                "--jit-warmup",
                "0",
                "--data-dir",
                dir.resolve("data").toString(),
                "--json",
                json.toString());
        assertEquals(0, r.exit(), r::toString);
        JsonNode root = new ObjectMapper().readTree(Files.readString(json));
        assertEquals(
                "XMSSMT-SHA2_10/2_256", root.path("sets").get(0).path("name").asText());
        JsonNode k = root.path("kafka");
        assertEquals(2, k.path("verifier_instances").asInt(), k::toString);
        assertEquals(40, k.path("readings").asLong(), k::toString);
        assertEquals(40, k.path("accepted").asLong(), k::toString);
        assertTrue(k.path("verified").asLong() >= 40, k::toString);
        assertEquals(2, k.path("rejected").asLong(), k::toString); // one tampered copy per sensor
        assertEquals(2, k.path("dead_letter").asLong(), k::toString); // one garbage record per sensor
        assertEquals(0, k.path("lag_at_end").asLong(), k::toString);
        // measured, so only their sanity: the stream threads were found and did work; latencies ordered
        assertTrue(k.path("verifier_cpu_ms_per_reading").asDouble() > 0, k::toString);
        assertTrue(k.path("end_to_end_ms_p50").asDouble() > 0, k::toString);
        assertTrue(
                k.path("end_to_end_ms_p99").asDouble()
                        >= k.path("end_to_end_ms_p50").asDouble(),
                k::toString);
    }
}
