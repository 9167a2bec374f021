package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pqsign sensor} and {@code pqsign operator} as real processes (child JVMs on loopback):
 * SIGTERM (what Ctrl-C does) stops both cleanly, with their summaries, exit 0 and the key state
 * exactly at the last used index; a sensor reading stdin publishes each line and stops at its end.
 */
class SensorOperatorProcessTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";

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

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private static long count(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    @Timeout(240)
    void sigterm_stopsSensorAndOperatorCleanly_keyStateAtLastIndex() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Process sensor = processes.pqsign(
                "sensor",
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--rate",
                "20",
                "--data-dir",
                p("sensor-data"));
        String url = processes.endpoint("sensor", sensor);
        Process operator = processes.pqsign(
                "operator",
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--publishing-ms",
                "2",
                "--data-dir",
                p("op"));
        processes.await("operator", operator, out -> count(out, "ACCEPTED index=") >= 5);

        operator.destroy(); // SIGTERM
        assertTrue(operator.waitFor(60, TimeUnit.SECONDS), processes.describe("operator"));
        assertEquals(0, operator.exitValue(), processes.describe("operator"));
        String op = processes.out("operator");
        assertEquals(0, count(op, "REJECTED"), op);
        assertTrue(
                op.contains("summary: " + count(op, "ACCEPTED index=") + " readings, ACCEPTED "
                        + count(op, "ACCEPTED index=") + ", BAD_SIGNATURE 0"),
                op);

        sensor.destroy();
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("sensor"));
        assertEquals(0, sensor.exitValue(), processes.describe("sensor"));
        String s = processes.out("sensor");
        Matcher last = Pattern.compile("sensor stopped \\(stopped\\): (\\d+) readings published, last index (\\d+)")
                .matcher(s);
        assertTrue(last.find(), processes.describe("sensor"));
        long published = Long.parseLong(last.group(1));
        long lastIndex = Long.parseLong(last.group(2));
        assertEquals(published, count(s, "index="), s);
        assertEquals(published - 1, lastIndex, s);
        assertTrue(s.contains("index=" + lastIndex + " sign="), s);
        // Every used index burned, nothing more (batch 1): the next signature continues right after.
        var r = CliRunner.run("inspect", p("k/key.state"));
        assertTrue(r.out().contains("next " + (lastIndex + 1) + ","), r.out() + "\n" + s);
    }

    @Test
    @Timeout(120)
    void sigterm_whileOperatorWaitsForSensor_endsPromptlyWithExit1() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        int port = ChildProcesses.freePort(); // closed again: nobody listens there
        Process operator = processes.pqsign(
                "waiting",
                "operator",
                "--port",
                Integer.toString(port),
                "--pub",
                p("k/key.pub"),
                "--params",
                SET,
                "--connect-timeout",
                "120",
                "--data-dir",
                p("op"));
        processes.await(
                "waiting", operator, out -> out.contains("waiting for the sensor at opc.tcp://127.0.0.1:" + port));
        long t0 = System.nanoTime();
        operator.destroy();
        assertTrue(operator.waitFor(30, TimeUnit.SECONDS), processes.describe("waiting"));
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(15), processes.describe("waiting"));
        assertEquals(1, operator.exitValue(), processes.describe("waiting"));
        String err = Files.readString(dir.resolve("waiting.err"));
        assertTrue(err.contains("pqsign: stopped before the sensor answered"), err);
    }

    @Test
    @Timeout(120)
    void stdinSource_publishesEachLine_stopsAtEndOfInput() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Process sensor = processes.pqsign(
                "stdin",
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--source",
                "stdin",
                "--data-dir",
                p("sensor-data"));
        processes.await("stdin", sensor, out -> out.contains("endpoint opc.tcp://"));
        try (OutputStream in = sensor.getOutputStream()) {
            in.write("1500.00,2026-11-30T01:00:00.000000000Z\n\nrpm=1499.5\n".getBytes(StandardCharsets.UTF_8));
            in.write(("x".repeat(5000) + "\nlast\n").getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(sensor.waitFor(60, TimeUnit.SECONDS), processes.describe("stdin"));
        assertEquals(0, sensor.exitValue(), processes.describe("stdin"));
        String s = processes.out("stdin");
        assertTrue(s.contains("index=0 sign=") && s.contains(" 1500.00,2026-11-30T01:00:00.000000000Z"), s);
        assertTrue(s.contains("index=1 sign=") && s.contains(" rpm=1499.5"), s);
        assertTrue(s.contains("index=2 sign=") && s.contains(" last"), s);
        assertTrue(s.contains("sensor stopped (end of input): 3 readings published, last index 2"), s);
        assertTrue(s.contains("1 input lines skipped"), s);
    }
}
