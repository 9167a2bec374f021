package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.core.Hex;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.x509.PqPublicKey;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator in certificate mode outlives the certificate of the sensor's first key: the sensor's
 * first key is certified by its device CA for a few seconds only, the operator enrols it and follows
 * the sensor to its next key, is stopped, and is started again with the same command line and data
 * directory after that first certificate expired. It resumes the followed chain (one notice line)
 * and accepts the current key's readings; an operator with a fresh data directory refuses the same
 * expired certificate. {@code pqsign sensor} and {@code pqsign operator} run as separate processes
 * on loopback.
 */
class OperatorCertificateExpiryProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * How long the first key's certificate is valid: long enough for the first operator to start
     * and enrol it, short enough that the test waits for its expiry only briefly.
     */
    private static final Duration FIRST_CERTIFICATE_VALIDITY = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private ChildProcesses processes;

    @BeforeEach
    void processes() {
        processes = new ChildProcesses(dir);
    }

    @AfterEach
    void killLeftovers() {
        processes.killAll();
    }

    @Test
    @Timeout(300)
    void operatorRestartedAfterFirstCertificateExpired_resumesFollowedChain_acceptsCurrentKey() throws Exception {
        CliPki pki = CliPki.create(dir, 3650);
        CliRunner.Result ca = pki.deviceCa("devca", "CN=sensor-1 device CA,O=Test");
        assertEquals(0, ca.exit(), ca.err());
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSS-SHA2_10_256", "--out", p("k"))
                        .exit());
        // 128 of its 1,024 indices left: the sensor hands over to its next key after 120 readings.
        KeyStates.keepLastPart(dir.resolve("k/key.state"), 8);
        PqPublicKey firstKey = KeyFiles.publicKey(dir.resolve("k/key.pub"), "XMSS-SHA2_10_256");
        // The sensor finds this certificate of its first key and uses it instead of certifying the key itself.
        Instant notAfter = pki.certifyBriefly("devca", firstKey, FIRST_CERTIFICATE_VALIDITY, "k/certificate.pem");
        Path fifo = dir.resolve("readings.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        int port = ChildProcesses.freePort();
        String[] operatorArgs = operatorArgs(port, "op", "--jsonl", p("verdicts.jsonl"), "--publishing-ms", "2");
        // The operator first: it enrols the first key's certificate as it starts, while that is valid,
        // and waits for the sensor.
        Process first = processes.pqsign("op1", operatorArgs);
        processes.await("op1", first, out -> out.contains("pinned"));
        Process sensor = processes.pqsign(
                "sensor",
                "sensor",
                "--key",
                p("k/key.state"),
                "--device-ca",
                p("devca"),
                "--port",
                Integer.toString(port),
                "--source",
                fifo.toString(),
                "--batch",
                "8",
                "--data-dir",
                p("sensor-data"));
        processes.await("op1", first, out -> out.contains("subscribed to"));
        String chainId = Hex.encode(PublicKeys.keyId(firstKey));
        assertTrue(Files.isRegularFile(dir.resolve("op/chains/" + chainId + ".pqce")), "enrolment recorded");
        try (OutputStream w = Files.newOutputStream(fifo)) {
            RolloverProcessTest.writeReadings(w, 0, 20);
            // The next key is prepared and certified in the background; wait so the key cannot run out first.
            awaitFile(dir.resolve("k/generations/000000000001/certificate.pem"));
            RolloverProcessTest.writeReadings(w, 20, 200);
            awaitLines("verdicts.jsonl", l -> l.contains("\"verdict\":\"ACCEPTED\""), 200);
            awaitLines("verdicts.jsonl", l -> l.contains("\"outcome\":\"FOLLOWED\""), 1);
            first.destroy(); // SIGTERM, as Ctrl-C
            assertTrue(first.waitFor(60, TimeUnit.SECONDS), processes.describe("op1"));
            assertEquals(0, first.exitValue(), processes.describe("op1"));
            int firstRunLines =
                    Files.readAllLines(dir.resolve("verdicts.jsonl")).size();

            CliPki.awaitPast(notAfter);
            CliRunner.Result fresh = CliRunner.run(operatorArgs(port, "fresh"));
            assertEquals(1, fresh.exit(), fresh.toString());
            assertEquals(1, fresh.err().strip().lines().count(), fresh.err());
            assertTrue(fresh.err().contains("expired at " + notAfter), fresh.err());
            assertTrue(fresh.err().contains("enrolled only on a first certificate valid now"), fresh.err());
            assertFalse(Files.exists(dir.resolve("fresh/chains/" + chainId + ".pqce")), "nothing enrolled");

            Process second = processes.pqsign("op2", operatorArgs);
            String out = processes.await("op2", second, o -> o.contains("subscribed to"));
            List<String> notices = out.lines()
                    .filter(l -> l.contains("resuming its followed key chain"))
                    .toList();
            assertEquals(1, notices.size(), out);
            assertTrue(notices.get(0).contains("expired at " + notAfter), notices.get(0));
            assertTrue(notices.get(0).endsWith("at generation 1"), notices.get(0));
            RolloverProcessTest.writeReadings(w, 200, 250);
            awaitLines("verdicts.jsonl", l -> l.contains("\"verdict\":\"ACCEPTED\""), 250);
            second.destroy();
            assertTrue(second.waitFor(60, TimeUnit.SECONDS), processes.describe("op2"));
            assertEquals(0, second.exitValue(), processes.describe("op2"));

            List<String> lines = Files.readAllLines(dir.resolve("verdicts.jsonl"));
            List<Long> acceptedOfCurrentKey = new ArrayList<>();
            for (String line : lines.subList(firstRunLines, lines.size())) {
                JsonNode o = JSON.readTree(line);
                if ("ACCEPTED".equals(o.path("verdict").asText())) {
                    assertNotEquals(chainId, o.get("key_id").asText(), "the first key has handed over: " + line);
                    acceptedOfCurrentKey.add(o.get("index").asLong());
                } else if (o.has("verdict")) {
                    assertEquals("DUPLICATE", o.get("verdict").asText(), line);
                } else if (o.has("outcome")) {
                    assertEquals("ALREADY_FOLLOWED", o.get("outcome").asText(), line);
                }
            }
            assertEquals(
                    50,
                    acceptedOfCurrentKey.size(),
                    "every new reading accepted once: " + acceptedOfCurrentKey + "; the lines around the restart: "
                            + lines.subList(Math.max(0, firstRunLines - 3), Math.min(lines.size(), firstRunLines + 8))
                            + "\n" + processes.describe("op1") + "\n" + processes.describe("op2"));
        }
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor"));
    }

    /** {@code pqsign operator} of the sensor at {@code port} by its first certificate, data in {@code dataDir}. */
    private String[] operatorArgs(int port, String dataDir, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "operator",
                "--port",
                Integer.toString(port),
                "--cert",
                p("k/certificate.pem"),
                "--trust",
                p("root.pem"),
                "--connect-timeout",
                "120",
                "--data-dir",
                p(dataDir)));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private void awaitLines(String name, Predicate<String> which, long n) throws Exception {
        Path f = dir.resolve(name);
        long deadline = System.nanoTime() + ChildProcesses.AWAIT.toNanos();
        long count = 0;
        while (System.nanoTime() < deadline) {
            if (Files.exists(f)) {
                try (var lines = Files.lines(f)) {
                    count = lines.filter(which).count();
                }
                if (count >= n) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError(name + ": " + count + " of " + n + " lines; " + processes.describe("sensor"));
    }

    private static void awaitFile(Path f) throws InterruptedException {
        long deadline = System.nanoTime() + ChildProcesses.AWAIT.toNanos();
        while (!Files.exists(f)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + f);
            }
            Thread.sleep(50);
        }
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }
}
