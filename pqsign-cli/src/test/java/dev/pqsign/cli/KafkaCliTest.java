package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage errors of {@code pqsign bridge} and {@code pqsign verifier}: one line, exit 2, nothing started. */
class KafkaCliTest {
    @TempDir
    Path dir;

    @Test
    void bridge_neitherClusterNorEmbedded_exit2() {
        CliRunner.Result r = CliRunner.run("bridge", "--url", "opc.tcp://127.0.0.1:4840/pqsign");
        assertEquals(2, r.exit(), r::toString);
        assertTrue(r.err().contains("--bootstrap-servers"), r::toString);
    }

    @Test
    void bridge_bothClusterAndEmbedded_exit2() {
        CliRunner.Result r = CliRunner.run(
                "bridge",
                "--url",
                "opc.tcp://127.0.0.1:4840/pqsign",
                "--bootstrap-servers",
                "127.0.0.1:9092",
                "--embedded-kafka",
                dir.resolve("k").toString());
        assertEquals(2, r.exit(), r::toString);
        assertTrue(Files.notExists(dir.resolve("k")), "no broker directory made");
    }

    @Test
    void bridge_sensorsAndUrl_exit2() throws Exception {
        Path f = Files.writeString(dir.resolve("s.json"), "{\"sensors\": []}");
        CliRunner.Result r = CliRunner.run(
                "bridge",
                "--url",
                "opc.tcp://127.0.0.1:4840/pqsign",
                "--sensors",
                f.toString(),
                "--bootstrap-servers",
                "127.0.0.1:9092");
        assertEquals(2, r.exit(), r::toString);
    }

    @Test
    void verifier_malformedSensorsFile_exit2NamingTheFile() throws Exception {
        Path f = Files.writeString(dir.resolve("s.json"), "{\"sensors\": [");
        CliRunner.Result r =
                CliRunner.run("verifier", "--sensors", f.toString(), "--bootstrap-servers", "127.0.0.1:9092");
        assertEquals(2, r.exit(), r::toString);
        assertTrue(r.err().contains(f.toString()), r::toString);
    }
}
