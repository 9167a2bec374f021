package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.SensorServer;
import dev.pqsign.opcua.TransportSecurity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code pqsign operator} keeps its connections (issue 31, items 5, 11 and 13): every sensor of a
 * list is connected at once and retried on its own, so one that is down neither delays nor stops the
 * others; an endpoint that is not a usable URL is one line and exit 2; a sensor never reached within
 * {@code --connect-timeout} is one line naming it; a sensor that goes quiet is reported.
 */
class OperatorConnectionsCliTest {
    private static final String SET = "XMSSMT-SHA2_10/2_256";

    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    /** An operator running in this JVM, its output readable while it runs. */
    private static final class RunningOperator {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> exit;

        RunningOperator(String... args) {
            var cl = PqsignCli.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
        }

        void await(Predicate<String> condition) throws Exception {
            ChildProcesses.await(out::toString, () -> !exit.isDone(), condition, this::describe);
        }

        String describe() {
            return "stdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    private SensorServer sensor(String key, String name, int port) throws Exception {
        TelemetryKeys.OpenSensorKey k = TelemetryKeys.openSensorKey(
                dir.resolve(key + "/key.state"), null, SensorSigningOptions.of(1, false, false), 10);
        return SensorServer.start(
                new SensorServer.Config(name, dir.resolve("data-" + name), "127.0.0.1", port, TransportSecurity.NONE),
                k.sensorKey);
    }

    private static long count(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    @Timeout(180)
    void sensorDownAtStart_theOtherVerifiedAtOnce_downOneReportedRetriedAndVerifiedWhenUp() throws Exception {
        for (String k : List.of("a", "b")) {
            assertEquals(
                    0, CliRunner.run("keygen", "--params", SET, "--out", p(k)).exit());
        }
        int downPort = ChildProcesses.freePort(); // nobody listens there yet
        try (SensorServer a = sensor("a", "a", 0)) {
            // The sensor that is down comes first in the file: nothing may wait for it.
            Files.writeString(
                    dir.resolve("sensors.json"),
                    "{\"sensors\": [{\"name\": \"pi-b\", \"url\": \"opc.tcp://127.0.0.1:" + downPort
                            + "/pqsign\", \"pub\": \"b/key.pub\", \"params\": \"" + SET + "\"},"
                            + "{\"name\": \"pi-a\", \"url\": \"" + a.endpointUrl()
                            + "\", \"pub\": \"a/key.pub\", \"params\": \"" + SET + "\"}]}");
            RunningOperator op = new RunningOperator(
                    "operator",
                    "--sensors",
                    p("sensors.json"),
                    "--readings",
                    "6",
                    "--connect-timeout",
                    "1",
                    "--data-dir",
                    p("op"));
            op.await(out -> out.contains("CONNECTED pi-a"));
            for (int i = 0; i < 3; i++) {
                a.publish("1500.0" + i + ",a");
            }
            op.await(out -> count(out, "pi-a ACCEPTED index=") == 3 && out.contains("DOWN pi-b: "));
            assertFalse(op.exit.isDone(), "one sensor down must not end the run: " + op.describe());
            String before = op.out.toString();
            assertFalse(before.contains("CONNECTED pi-b"), before);
            String down = before.lines()
                    .filter(l -> l.startsWith("DOWN pi-b: "))
                    .findFirst()
                    .orElseThrow();
            assertFalse(down.contains("Exception") || down.contains("netty"), down);
            try (SensorServer b = sensor("b", "b", downPort)) {
                op.await(out -> out.contains("CONNECTED pi-b"));
                for (int i = 0; i < 3; i++) {
                    b.publish("1400.0" + i + ",b");
                }
                assertEquals(0, op.exit.get(120, TimeUnit.SECONDS), op.describe());
            }
            String out = op.out.toString();
            assertEquals(3, count(out, "pi-b ACCEPTED index="), out);
            assertTrue(out.contains("summary pi-b: 3 readings, ACCEPTED 3"), out);
        }
    }

    @Test
    void endpointThatIsNoUsableUrl_exit2_oneLine() {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        for (String url : List.of(
                "opc.tcp://127.0.0.1:99999/pqsign",
                "opc.tcp://127.0.0.1:-1/pqsign",
                "opc.tcp://user:secret@127.0.0.1:4840/pqsign",
                "opc.tcp:///pqsign")) {
            CliRunner.Result r = CliRunner.run(
                    "operator", "--url", url, "--pub", p("k/key.pub"), "--readings", "1", "--data-dir", p("op"));
            assertEquals(2, r.exit(), url + "\n" + r);
            assertEquals(1, r.err().strip().lines().count(), url + "\n" + r);
            assertTrue(r.err().startsWith("pqsign: --url: "), url + "\n" + r);
            assertFalse(r.err().contains("secret"), "credentials are never echoed: " + r);
        }
    }

    @Test
    @Timeout(60)
    void unreachableSensor_connectTimeoutHolds_exit1_oneLineNamingIt() {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        String url = "opc.tcp://127.0.0.1:" + freePortQuietly() + "/pqsign";
        long t0 = System.nanoTime();
        CliRunner.Result r = CliRunner.run(
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--connect-timeout",
                "2",
                "--readings",
                "1",
                "--data-dir",
                p("op"));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        assertEquals(1, r.exit(), r.toString());
        assertTrue(seconds < 30, "ended after " + seconds + " s: " + r);
        List<String> errors =
                r.err().lines().filter(l -> l.startsWith("pqsign:")).toList();
        assertEquals(1, errors.size(), r.toString());
        assertTrue(
                errors.get(0).startsWith("pqsign: cannot reach the sensor at " + url + " within 2 s: "), r.toString());
        assertFalse(
                r.err().contains("Exception")
                        || r.err().contains("io.netty")
                        || r.err().contains("\tat "),
                r.toString());
    }

    @Test
    @Timeout(120)
    void sensorGoesSilent_reportedOnce_andWhenItSendsAgain() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        try (SensorServer s = sensor("k", "k", 0)) {
            RunningOperator op = new RunningOperator(
                    "operator",
                    "--url",
                    s.endpointUrl(),
                    "--pub",
                    p("k/key.pub"),
                    "--silent-after",
                    "1",
                    "--readings",
                    "2",
                    "--data-dir",
                    p("op"));
            op.await(out -> out.contains("subscribed to"));
            s.publish("1500.00,first");
            op.await(out -> out.contains("SILENT "));
            s.publish("1500.01,second");
            assertEquals(0, op.exit.get(60, TimeUnit.SECONDS), "silence is reported, not an alarm: " + op.describe());
            String out = op.out.toString();
            assertTrue(count(out, "SILENT ") >= 1, out);
            assertTrue(out.contains("RESUMED "), out);
        }
    }

    private static int freePortQuietly() {
        try {
            return ChildProcesses.freePort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A verdict line that cannot be written (a full disk) is a failed write: exit 1, one line naming the file. */
    @Test
    @Timeout(120)
    void jsonlOnAFullDisk_exit1_oneLineNamingTheFile() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "no /dev/full here");
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        try (SensorServer s = sensor("k", "k", 0)) {
            RunningOperator op = new RunningOperator(
                    "operator",
                    "--url",
                    s.endpointUrl(),
                    "--pub",
                    p("k/key.pub"),
                    "--jsonl",
                    "/dev/full",
                    "--readings",
                    "3",
                    "--data-dir",
                    p("op"));
            op.await(out -> out.contains("subscribed to"));
            s.publish("1500.00,first");
            assertEquals(1, op.exit.get(60, TimeUnit.SECONDS), op.describe());
            List<String> errors = op.err
                    .toString()
                    .lines()
                    .filter(l -> l.startsWith("pqsign:"))
                    .toList();
            assertEquals(1, errors.size(), op.describe());
            assertTrue(errors.get(0).startsWith("pqsign: --jsonl: cannot write /dev/full: "), op.describe());
        }
    }
}
