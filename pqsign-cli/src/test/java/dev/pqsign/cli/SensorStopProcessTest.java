package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service manager's stop (a real {@code kill -TERM}) ends a real sensor process reading a named
 * pipe within seconds in every state of the pipe: a writer holding it open without writing, and no
 * writer yet. The sensor then stops as after any clean stop: exit 0, its last line, and its key state
 * right after the last index it used.
 */
class SensorStopProcessTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";
    /** Longest a stop may take here: the hook's 3 s wait, the server's 3 s linger, and a loaded machine. */
    private static final long STOP_SECONDS = 30;

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

    private Path fifo() throws IOException, InterruptedException {
        Path f = dir.resolve("rpm.fifo");
        Process mk = new ProcessBuilder("mkfifo", f.toString()).inheritIO().start();
        assertTrue(mk.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, mk.exitValue());
        return f;
    }

    private Process sensor(Path fifo) throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Process sensor = processes.pqsign(
                "sensor",
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--source",
                fifo.toString(),
                "--data-dir",
                p("sensor-data"));
        processes.endpoint("sensor", sensor);
        return sensor;
    }

    /** Sends SIGTERM with kill(1), as a service manager does, and waits for the sensor to end. */
    private void terminate(Process sensor) throws Exception {
        Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(sensor.pid()))
                .inheritIO()
                .start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, kill.exitValue());
        assertTrue(
                sensor.waitFor(STOP_SECONDS, TimeUnit.SECONDS),
                "sensor still running " + STOP_SECONDS + " s after SIGTERM; " + processes.describe("sensor"));
        assertEquals(0, sensor.exitValue(), processes.describe("sensor"));
    }

    @Test
    @Timeout(240)
    void sigterm_whileAWriterHoldsThePipeOpenAndIdle_stopsWithinSeconds_likeACleanStop() throws Exception {
        Path fifo = fifo();
        Process sensor = sensor(fifo);
        try (OutputStream writer = new FileOutputStream(fifo.toFile())) { // blocks until the sensor opens it
            writer.write("1500.00,a\n1501.00,b\n1502.00,c\n".getBytes(StandardCharsets.UTF_8));
            writer.flush();
            processes.await("sensor", sensor, out -> out.contains("index=2 sign="));
            // the writer stays open and idle: the sensor waits in a read of the pipe
            terminate(sensor);
        }
        String out = processes.out("sensor");
        assertTrue(out.contains("sensor stopped (stopped): 3 readings published, last index 2"), out);
        var inspect = CliRunner.run("inspect", p("k/key.state"));
        assertTrue(inspect.out().contains("next 3,"), inspect.out() + "\n" + out);
    }

    @Test
    @Timeout(240)
    void sigterm_whileThePipeHasNoWriterYet_stopsWithinSeconds_keyUntouched() throws Exception {
        Process sensor = sensor(fifo());
        // the sensor serves, and waits in the open of the pipe for a writer that never comes
        terminate(sensor);
        String out = processes.out("sensor");
        assertTrue(out.contains("sensor stopped (stopped): 0 readings published, last index -"), out);
        var inspect = CliRunner.run("inspect", p("k/key.state"));
        assertTrue(inspect.out().contains("next 0,"), inspect.out() + "\n" + out);
    }
}
