package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pqsign demo} end to end: real OPC UA on loopback, keys and certificates created on first use. */
class DemoCliTest {
    @TempDir
    Path dir;

    @Test
    void demo_registeredAndPrivateUseSets_allGenuineAcceptedAllInjectedRejected() throws Exception {
        Path json = dir.resolve("demo.json");
        var r = CliRunner.run(
                "demo",
                "--data-dir",
                dir.resolve("data").toString(),
                "--readings",
                "12",
                "--sets",
                "XMSSMT-SHA2_10/2_256,XMSSMT-SHA2_20/4_256,HAETAE-2",
                "--warmup",
                "2",
                "--inject-every",
                "4",
                "--json",
                json.toString(),
                "--jit-warmup",
                "300");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("XMSSMT-SHA2_10/2_256") && r.out().contains("HAETAE-2"), r.out());
        assertTrue(r.out().contains("JIT warm-up round 1, 300 unreported readings of XMSSMT-SHA2_10/2_256"), r.out());
        assertTrue(
                !r.out().contains("round 2"), "--jit-warmup N runs N readings, not the automatic rounds: " + r.out());
        String j = Files.readString(json);
        assertTrue(j.startsWith("{\"sets\":["), j);
        assertTrue(
                j.contains(
                        "\"name\":\"XMSSMT-SHA2_20/4_256\",\"readings\":12,\"accepted\":12,\"injected_tampered\":3,"
                                + "\"rejected_tampered\":3,\"injected_replayed\":3,\"rejected_replayed\":3,\"signature_bytes\":9251"),
                j);
        assertTrue(j.contains("\"end_to_end_ms\":{\"p50\":"), j);
        // Registered sets got a certificate from the plant root; the private-use set did not (no RFC 9802 encoding).
        Path keys = dir.resolve("data/keys");
        assertTrue(Files.exists(keys.resolve("XMSSMT-SHA2_20-4_256/sensor-0/sensor.pem")));
        assertTrue(Files.exists(keys.resolve("HAETAE-2/sensor-0/sensor.pem")));
        assertTrue(!Files.exists(keys.resolve("XMSSMT-SHA2_10-2_256/sensor-0/sensor.pem")));

        // A second run reuses the keys: indices continue, nothing is replayed or reused; its sensors
        // hash with SHA-256 mid-states, and the operator accepts all their readings.
        var again = CliRunner.run(
                "demo",
                "--data-dir",
                dir.resolve("data").toString(),
                "--readings",
                "5",
                "--sets",
                "XMSSMT-SHA2_20/4_256",
                "--warmup",
                "1",
                "--inject-every",
                "0",
                "--jit-warmup",
                "0",
                "--hash-midstates");
        assertEquals(0, again.exit(), again.toString());
        assertTrue(again.out().matches("(?s).*XMSSMT-SHA2_20/4_256 .*\\b5/5\\b.*"), again.out());
        var inspect = CliRunner.run(
                "inspect",
                keys.resolve("XMSSMT-SHA2_20-4_256/sensor-0/key.state").toString());
        assertTrue(inspect.out().contains("next 23,"), "12 + 2 warm-up + 3 tampered, then 5 + 1: " + inspect.out());
    }

    @Test
    void demo_badOptions_exit2() {
        assertEquals(2, CliRunner.run("demo", "--readings", "0").exit());
        assertEquals(
                2,
                CliRunner.run("demo", "--link", "carrier-pigeon", "--data-dir", dir.toString())
                        .exit());
        assertEquals(
                2,
                CliRunner.run("demo", "--sets", "NOPE", "--data-dir", dir.toString())
                        .exit());
        assertEquals(
                2,
                CliRunner.run("demo", "--jit-warmup", "soon", "--data-dir", dir.toString())
                        .exit());
        assertEquals(
                2,
                CliRunner.run("demo", "--jit-warmup", "-5", "--data-dir", dir.toString())
                        .exit());
    }

    @Test
    void demo_jsonOutputUnwritable_refusedBeforeAnythingRuns() {
        var r = CliRunner.run(
                "demo",
                "--data-dir",
                dir.resolve("data").toString(),
                "--readings",
                "1",
                "--sets",
                "HAETAE-2",
                "--jit-warmup",
                "0",
                "--json",
                dir.toString());
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().equals("pqsign: " + dir + ": is a directory; give a file name\n"), r.err());
        assertEquals("", r.out(), "nothing measured for a report that could not be written");
    }
}
