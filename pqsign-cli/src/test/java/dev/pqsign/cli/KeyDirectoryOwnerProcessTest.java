package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * A sensor key directory is owned by one process at a time: while a real {@code pqsign sensor}
 * process runs on it, a second sensor, {@code sign} and {@code key split} on the same directory are
 * refused with one line naming the owner's pid and leave the key state alone; once the owner is
 * SIGKILLed, its OS lock is gone with it and the directory can be used again.
 */
class KeyDirectoryOwnerProcessTest {
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

    private Process sensor(String name, String data) throws Exception {
        return processes.pqsign(
                name, "sensor", "--key", p("kt/key.state"), "--port", "0", "--rate", "5", "--data-dir", p(data));
    }

    private static String inUseBy(long pid) {
        return "in use by process " + pid;
    }

    @Test
    @Timeout(300)
    void runningSensor_secondSensorSignAndSplitRefusedNamingItsPid_freeAgainAfterSigkill() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("kt")).exit());
        Files.writeString(dir.resolve("m.txt"), "reading\n");
        Process owner = sensor("owner", "owner-data");
        processes.endpoint("owner", owner);
        processes.await("owner", owner, out -> out.contains("index=1 "));
        long pid = owner.pid();

        Process second = sensor("second", "second-data");
        assertTrue(
                second.waitFor(60, TimeUnit.SECONDS), "second sensor still running; " + processes.describe("second"));
        String err = Files.readString(dir.resolve("second.err"));
        assertEquals(1, second.exitValue(), processes.describe("second"));
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains(p("kt")) && err.contains(inUseBy(pid)), err);

        var sign = CliRunner.run(
                "sign", "--key", p("kt/key.state"), "--in", p("m.txt"), "--out", p("m.sig"), "--lock-timeout", "1");
        assertEquals(1, sign.exit(), sign.err());
        assertTrue(sign.err().contains(inUseBy(pid)), sign.err());
        assertFalse(Files.exists(dir.resolve("m.sig")));

        var split = CliRunner.run(
                "key", "split", "--key", p("kt/key.state"), "--parts", "2", "--out", p("parts"), "--lock-timeout", "1");
        assertEquals(1, split.exit(), split.err());
        assertTrue(split.err().contains(inUseBy(pid)), split.err());

        assertTrue(owner.isAlive(), processes.describe("owner"));
        owner.destroyForcibly(); // SIGKILL: no clean-up, the OS lock goes with the process
        assertTrue(owner.waitFor(60, TimeUnit.SECONDS));
        var after = CliRunner.run("sign", "--key", p("kt/key.state"), "--in", p("m.txt"), "--out", p("m.sig"));
        assertEquals(0, after.exit(), after.err());
        assertTrue(Files.exists(dir.resolve("m.sig")));
    }
}
