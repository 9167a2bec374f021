package dev.pqsign.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.Verdict.Reason;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The console's routes over real loopback HTTP, fed with verdict events on real signed records. */
class ConsoleHttpTest {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Records records = new Records();
    private ConsoleServer console;

    @BeforeEach
    void start() throws Exception {
        console = ConsoleServer.start(ConsoleOptions.loopback(0));
    }

    @AfterEach
    void stop() {
        console.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(console.uri().resolve(path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(console.uri().resolve(path))
                        .method(method, HttpRequest.BodyPublishers.ofString("x"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void start_defaultOptions_bindsLoopback() {
        assertEquals("127.0.0.1", console.uri().getHost());
    }

    @Test
    void metrics_afterVerdicts_strictFormatCountersMatch() throws Exception {
        LatencyRecord lat = new LatencyRecord(2_000_000, 1_000_000, 300_000, 4_000_000);
        for (int i = 0; i < 5; i++) {
            console.verdict(records.event("s1", Reason.ACCEPTED, "1500.0" + i + ",t", i), lat);
        }
        console.verdict(records.event("s1", Reason.BAD_SIGNATURE, "1500.99,t", 5), lat);
        console.verdict(records.event("s1", Reason.BAD_SIGNATURE, "1500.98,t", 6), lat);
        console.verdict(records.event("s1", Reason.DUPLICATE, "1500.04,t", 4));
        console.verdict(records.event("s1", Reason.INDEX_REUSE, "1499.00,t", 3));
        console.verdict(records.gap("s1", 7, 9));
        console.verdict(records.event("s2", Reason.ACCEPTED, "10,t", 0));
        console.connectionState("s1", "connected");
        console.connectionState("s2", "connected");
        console.connectionState("s2", "reconnecting");
        console.keyStatus("s1", "XMSS-SHA2_10_256", "ab12", 1017, 3600.0, true);
        console.alarm("s1", "clock skew");
        console.handover("s1", 2, "cd34");

        HttpResponse<String> r = get("/metrics");
        assertEquals(200, r.statusCode());
        assertTrue(
                r.headers().firstValue("content-type").orElseThrow().startsWith("text/plain; version=0.0.4"),
                r.headers().toString());
        Map<String, Double> m = PrometheusText.parse(r.body());
        assertEquals(5.0, m.get("pqsign_readings_total{reason=\"\",sensor=\"s1\",verdict=\"ACCEPTED\"}"));
        assertEquals(2.0, m.get("pqsign_readings_total{reason=\"BAD_SIGNATURE\",sensor=\"s1\",verdict=\"REJECTED\"}"));
        assertEquals(1.0, m.get("pqsign_readings_total{reason=\"\",sensor=\"s1\",verdict=\"DUPLICATE\"}"));
        assertEquals(1.0, m.get("pqsign_readings_total{reason=\"\",sensor=\"s1\",verdict=\"INDEX_REUSE\"}"));
        assertEquals(1.0, m.get("pqsign_readings_total{reason=\"\",sensor=\"s2\",verdict=\"ACCEPTED\"}"));
        assertEquals(
                10.0,
                m.entrySet().stream()
                        .filter(e -> e.getKey().startsWith("pqsign_readings_total{"))
                        .mapToDouble(Map.Entry::getValue)
                        .sum(),
                "a gap is not a reading");
        assertEquals(1.0, m.get("pqsign_gaps_total{sensor=\"s1\"}"));
        assertEquals(3.0, m.get("pqsign_missing_readings_total{sensor=\"s1\"}"));
        assertEquals(1017.0, m.get("pqsign_key_remaining_signatures{sensor=\"s1\"}"));
        assertEquals(3600.0, m.get("pqsign_key_seconds_left{sensor=\"s1\"}"));
        assertEquals(1.0, m.get("pqsign_key_next_ready{sensor=\"s1\"}"));
        assertEquals(2.0, m.get("pqsign_key_generation{sensor=\"s1\"}"));
        assertEquals(1.0, m.get("pqsign_handovers_total{sensor=\"s1\"}"));
        assertEquals(1.0, m.get("pqsign_alarms_total{sensor=\"s1\"}"));
        assertEquals(1.0, m.get("pqsign_connection_state{sensor=\"s1\",state=\"connected\"}"));
        assertEquals(0.0, m.get("pqsign_connection_state{sensor=\"s2\",state=\"connected\"}"));
        assertEquals(1.0, m.get("pqsign_connection_state{sensor=\"s2\",state=\"reconnecting\"}"));
        // Seven verdicts carried monotonic latencies: 0.3 ms verify, 4 ms end to end.
        assertEquals(7.0, m.get("pqsign_verify_seconds_count{sensor=\"s1\"}"));
        assertEquals(7 * 0.0003, m.get("pqsign_verify_seconds_sum{sensor=\"s1\"}"), 1e-12);
        assertEquals(
                0.0,
                m.get("pqsign_verify_seconds_bucket{le=\"2.5E-4\",sensor=\"s1\"}"),
                m.keySet().stream()
                        .filter(k -> k.startsWith("pqsign_verify_seconds_bucket"))
                        .toList()
                        .toString());
        assertEquals(7.0, m.get("pqsign_verify_seconds_bucket{le=\"5.0E-4\",sensor=\"s1\"}"));
        // ... and the duplicate and the reuse only wall-clock end-to-end times (no verify time).
        assertEquals(9.0, m.get("pqsign_end_to_end_seconds_count{sensor=\"s1\"}"));
        assertTrue(m.keySet().stream().anyMatch(k -> k.startsWith("jvm_memory_used_bytes{")), "JVM metrics");
    }

    @Test
    void metrics_labelWithQuotesAndNewline_escaped() throws Exception {
        console.verdict(records.event("a\"b\\c\nd", Reason.ACCEPTED, "1,t", 0));
        Map<String, Double> m = PrometheusText.parse(get("/metrics").body());
        assertEquals(1.0, m.get("pqsign_readings_total{reason=\"\",sensor=\"a\\\"b\\\\c\\nd\",verdict=\"ACCEPTED\"}"));
    }

    @Test
    void healthz_ok() throws Exception {
        HttpResponse<String> r = get("/healthz");
        assertEquals(200, r.statusCode());
        assertEquals("ok\n", r.body());
    }

    @Test
    void everyRoute_securityHeaders() throws Exception {
        for (String path : new String[] {"/", "/static/console.js", "/metrics", "/healthz", "/state", "/nope"}) {
            HttpResponse<String> r = get(path);
            String csp = r.headers().firstValue("content-security-policy").orElseThrow(() -> new AssertionError(path));
            assertTrue(csp.contains("script-src 'self'") && !csp.contains("unsafe"), csp);
            assertEquals(
                    "nosniff", r.headers().firstValue("x-content-type-options").orElse(null), path);
            assertEquals("DENY", r.headers().firstValue("x-frame-options").orElse(null), path);
            assertFalse(r.headers().firstValue("server").isPresent(), path + " names its server");
        }
        assertEquals(404, get("/nope").statusCode());
        assertEquals(404, get("/static/../pom.xml").statusCode());
    }

    @Test
    void page_noInlineScriptAndOnlyLocalSources() throws Exception {
        String html = get("/").body();
        assertFalse(html.matches("(?s).*<script>.*"), "inline script");
        assertFalse(html.contains("http://") || html.contains("https://"), "external reference");
        for (String path : new String[] {
            "/static/uPlot.iife.min.js", "/static/uPlot.min.css", "/static/uPlot-LICENSE.txt", "/static/console.css"
        }) {
            assertEquals(200, get(path).statusCode(), path);
        }
        assertTrue(get("/static/uPlot-LICENSE.txt").body().contains("MIT License"));
        assertFalse(get("/static/console.js").body().contains("innerHTML"), "the page never parses data as HTML");
    }

    @Test
    void nonGetMethods_refused405() throws Exception {
        for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH"}) {
            HttpResponse<String> r = send(method, "/state");
            assertEquals(405, r.statusCode(), method);
            assertEquals("GET, HEAD", r.headers().firstValue("allow").orElse(null), method);
        }
        HttpResponse<Void> head = http.send(
                HttpRequest.newBuilder(console.uri().resolve("/healthz"))
                        .method("HEAD", HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.discarding());
        assertEquals(200, head.statusCode());
    }

    @Test
    void queryParameters_refused400() throws Exception {
        assertEquals(400, get("/state?reset=1").statusCode());
    }

    /** A DNS-rebinding page would send its own host name; a loopback console refuses it. */
    @Test
    void foreignHostHeader_refused421() throws Exception {
        assertEquals(421, rawStatus("evil.example"));
        assertEquals(200, rawStatus("localhost:" + console.port()));
        assertEquals(200, rawStatus("127.0.0.1:" + console.port()));
    }

    private int rawStatus(String host) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), console.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String status = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    @Test
    void events_snapshotThenDeltas() throws Exception {
        console.verdict(records.event("s1", Reason.ACCEPTED, "1500.00,t", 0));
        HttpResponse<Stream<String>> r = http.send(
                HttpRequest.newBuilder(console.uri().resolve("/events")).build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, r.statusCode());
        assertEquals(
                "text/event-stream; charset=utf-8",
                r.headers().firstValue("content-type").orElse(null));
        Iterator<String> lines = r.body().iterator();
        JsonNode snapshot = nextEvent(lines, "snapshot");
        assertEquals(0, snapshot.get("sensors").get(0).get("index").asLong());
        assertEquals(
                "1500.00,t",
                snapshot.get("sensors").get(0).get("reading").get("text").asText());
        assertEquals(1, snapshot.get("points").get("s1").size());

        console.verdict(records.event("s1", Reason.BAD_SIGNATURE, "<b>9</b>", 1));
        JsonNode delta = nextEvent(lines, "delta");
        JsonNode card = delta.get("sensors").get(0);
        assertEquals("REJECTED", card.get("verdict").asText());
        assertEquals("BAD_SIGNATURE", card.get("reason").asText());
        assertEquals("MARKUP", card.get("reading").get("marks").get(0).asText());
        assertEquals("BAD_SIGNATURE", delta.get("feed").get(0).get("reason").asText());
        assertEquals(0, delta.get("points").size(), "a rejected reading is not charted");
        r.body().close();
    }

    private static JsonNode nextEvent(Iterator<String> lines, String name) throws Exception {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.equals("event: " + name)) {
                String data = lines.next();
                assertTrue(data.startsWith("data: "), data);
                return new ObjectMapper().readTree(data.substring(6));
            }
        }
        throw new AssertionError("stream ended before a " + name + " event");
    }

    @Test
    void state_noSecretsOnlyPublicFields() throws Exception {
        console.verdict(records.event("s1", Reason.ACCEPTED, "1500.00,t", 0));
        String state = get("/state").body();
        JsonNode card = new ObjectMapper().readTree(state).get("sensors").get(0);
        assertEquals(records.key.keyId().hex(), card.get("keyId").asText());
        assertNotNull(card.get("parameterSet"));
        // The signature is not secret, but the page has no use for it: it never leaves the operator.
        assertFalse(state.contains("signature"), state);
    }
}
