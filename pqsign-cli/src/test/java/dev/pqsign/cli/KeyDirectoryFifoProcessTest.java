package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A named pipe (mkfifo) in place of a file of a sensor key directory or of a sensor's data directory
 * makes every command that reads it fail at once with one line naming the file and what it is,
 * instead of blocking for ever in the open (real child processes: a hang fails the test, it does
 * not hang the build).
 */
class KeyDirectoryFifoProcessTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";
    private static final String FIFO = ": is a named pipe (FIFO), not a regular file; refusing to open it";

    @TempDir
    Path dir;

    private ChildProcesses processes;

    @BeforeEach
    void keyDirectory() {
        processes = new ChildProcesses(dir);
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("kd")).exit());
    }

    @AfterEach
    void killLeftovers() {
        processes.killAll();
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private void mkfifo(String name) throws Exception {
        Files.deleteIfExists(dir.resolve(name));
        Process mk = new ProcessBuilder("mkfifo", p(name)).inheritIO().start();
        assertTrue(mk.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, mk.exitValue());
    }

    /** Runs {@code pqsign ARGS} as {@code name}; it must end by itself with exit 2 and one line naming {@code file}. */
    private void refused(String name, String file, String... args) throws Exception {
        Process proc = processes.pqsign(name, args);
        assertTrue(proc.waitFor(60, TimeUnit.SECONDS), "still running after 60 s; " + processes.describe(name));
        String err = Files.readString(dir.resolve(name + ".err"));
        assertEquals(2, proc.exitValue(), processes.describe(name));
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("pqsign: ") && err.contains(file + FIFO), err);
    }

    private String[] sensor() {
        return new String[] {
            "sensor", "--key", p("kd/key.state"), "--port", "0", "--readings", "1", "--data-dir", p("sd")
        };
    }

    @Test
    @Timeout(300)
    void fifoAsHandoverLog_inspectAuditAndSensorRefuseIt() throws Exception {
        mkfifo("kd/handovers.pqhc");
        String log = p("kd/handovers.pqhc");
        refused("inspect", log, "inspect", p("kd"));
        refused("audit", log, "audit", "--key-dir", p("kd"));
        refused("sensor", log, sensor());
    }

    @Test
    @Timeout(300)
    void fifoAsLockFileOfTheKeyState_sensorRefusesIt() throws Exception {
        mkfifo("kd/key.state.lock");
        refused("sensor", p("kd/key.state.lock"), sensor());
    }

    @Test
    @Timeout(300)
    void fifoAsHistoryFile_sensorRefusesIt() throws Exception {
        Files.createDirectories(dir.resolve("sd"));
        mkfifo("sd/history.pqhl");
        refused("sensor", p("sd/history.pqhl"), sensor());
    }

    @Test
    @Timeout(300)
    void fifoAsPublicKeyOrAPreparedGenerationsHandover_refused() throws Exception {
        Process first = processes.pqsign("first", sensor()); // prepares generation 1 after its signature
        assertTrue(first.waitFor(120, TimeUnit.SECONDS), processes.describe("first"));
        assertEquals(0, first.exitValue(), processes.describe("first"));
        String handover = "kd/generations/000000000001/handover.pqho";
        assertTrue(Files.isDirectory(dir.resolve(handover).getParent()), "no prepared generation 1");
        mkfifo(handover);
        refused("inspect", p(handover), "inspect", p("kd"));
        Files.delete(dir.resolve(handover));
        mkfifo("kd/key.pub");
        refused("sensor", p("kd/key.pub"), sensor());
    }
}
