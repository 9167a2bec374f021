package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pqsign demo --http 0} as a real process: after a short run of two sets the console keeps
 * serving, over real loopback HTTP, every sensor of every set with its key state, the injected
 * tampered and replayed readings as rejections in the feed and in {@code /metrics}, and
 * {@code /healthz}; SIGTERM (what Ctrl-C does) then ends it.
 */
class DemoConsoleProcessTest {
    private static final String XMSS = "XMSSMT-SHA2_10/2_256";
    private static final String XMSS_SENSOR = XMSS + "/sensor-0";
    private static final String HAETAE_SENSOR = "HAETAE-2/sensor-0";

    @TempDir
    Path dir;

    private Process demo;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void killLeftover() {
        if (demo != null) {
            demo.destroyForcibly();
        }
    }

    @Test
    @Timeout(300)
    void demoWithHttp_afterLastSet_consoleShowsEverySensorVerdictsKeysAndMetrics() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                PqsignCli.class.getName(),
                "demo",
                "--http",
                "0",
                "--data-dir",
                dir.resolve("data").toString(),
                "--sets",
                XMSS + ",HAETAE-2",
                "--readings",
                "8",
                "--warmup",
                "1",
                "--inject-every",
                "4",
                "--jit-warmup",
                "0"));
        Path out = dir.resolve("demo.out");
        demo = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(dir.resolve("demo.err").toFile())
                .start();
        awaitOutput(out, "the console stays at");
        Matcher m = Pattern.compile("console: (http://127\\.0\\.0\\.1:\\d+/) ").matcher(Files.readString(out));
        assertTrue(m.find(), Files.readString(out));
        URI base = URI.create(m.group(1));

        HttpResponse<String> health = get(base.resolve("/healthz"));
        assertEquals(200, health.statusCode());

        // 8 genuine + 1 warm-up readings per set accepted; 2 tampered and 2 replayed injected, all rejected.
        Map<String, Double> metrics = metrics(get(base.resolve("/metrics")).body());
        for (String sensor : List.of(XMSS_SENSOR, HAETAE_SENSOR)) {
            // the reason label is empty for readings that were not rejected (docs/console.md)
            assertEquals(9.0, metrics.get(readings(sensor, "", "ACCEPTED")), sensor);
            assertEquals(2.0, metrics.get(readings(sensor, "BAD_SIGNATURE", "REJECTED")), sensor);
            assertEquals(2.0, metrics.get(readings(sensor, "REPLAYED", "REJECTED")), sensor);
            assertEquals(13.0, metrics.get("pqsign_end_to_end_seconds_count{sensor=\"" + sensor + "\"}"), sensor);
        }
        // A fresh 2^10 key: 1 warm-up + 8 genuine + 2 tampered signatures used (a replay signs nothing).
        assertEquals(1013.0, metrics.get("pqsign_key_remaining_signatures{sensor=\"" + XMSS_SENSOR + "\"}"));

        HttpResponse<Stream<String>> events =
                http.send(HttpRequest.newBuilder(base.resolve("/events")).build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, events.statusCode());
        JsonNode snapshot = snapshot(events.body().iterator());
        events.body().close();
        Map<String, JsonNode> cards = new HashMap<>();
        for (JsonNode card : snapshot.get("sensors")) {
            cards.put(card.get("name").get("text").asText(), card);
        }
        assertEquals(Set.of(XMSS_SENSOR, HAETAE_SENSOR), cards.keySet(), snapshot.toString());
        JsonNode xmss = cards.get(XMSS_SENSOR);
        assertEquals(1013, xmss.get("remaining").asLong(), xmss.toString());
        assertEquals(XMSS, xmss.get("parameterSet").get("text").asText(), xmss.toString());
        assertEquals("closed", xmss.get("connection").get("text").asText(), xmss.toString());
        assertEquals(9, xmss.get("counts").get("accepted").asLong(), xmss.toString());
        Set<String> fed = new TreeSet<>();
        for (JsonNode item : snapshot.get("feed")) {
            fed.add(item.get("sensor").get("text").asText() + " "
                    + item.get("reason").asText());
        }
        for (String sensor : List.of(XMSS_SENSOR, HAETAE_SENSOR)) {
            assertTrue(fed.contains(sensor + " BAD_SIGNATURE"), fed.toString());
            assertTrue(fed.contains(sensor + " REPLAYED"), fed.toString());
        }

        assertTrue(demo.isAlive(), "the demo keeps serving after its last set");
        demo.destroy();
        assertTrue(demo.waitFor(30, TimeUnit.SECONDS), "SIGTERM ends the demo");
    }

    private static String readings(String sensor, String reason, String verdict) {
        return "pqsign_readings_total{reason=\"" + reason + "\",sensor=\"" + sensor + "\",verdict=\"" + verdict + "\"}";
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sample lines of the Prometheus text format: {@code name{labels} value}. */
    private static Map<String, Double> metrics(String text) {
        Map<String, Double> m = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            m.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return m;
    }

    private static JsonNode snapshot(Iterator<String> lines) throws IOException {
        while (lines.hasNext()) {
            if (lines.next().equals("event: snapshot")) {
                String data = lines.next();
                assertTrue(data.startsWith("data: "), data);
                return new ObjectMapper().readTree(data.substring(6));
            }
        }
        throw new AssertionError("the event stream ended before its snapshot");
    }

    private void awaitOutput(Path out, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (System.nanoTime() < deadline) {
            if (Files.readString(out).contains(text)) {
                return;
            }
            if (!demo.isAlive()) {
                break;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("demo did not reach '" + text + "':\n" + Files.readString(out) + "\n"
                + Files.readString(dir.resolve("demo.err")));
    }
}
