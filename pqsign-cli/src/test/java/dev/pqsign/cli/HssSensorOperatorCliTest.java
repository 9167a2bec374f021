package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code pqsign sensor} with an LMS key and {@code pqsign operator} pinning it, over loopback (free port). */
class HssSensorOperatorCliTest {
    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    /** A command running in a thread of this JVM, its stdout readable while it runs. */
    private static final class Running {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> exit;

        Running(String... args) {
            var cl = PqsignCli.commandLine();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            exit = CompletableFuture.supplyAsync(() -> cl.execute(args));
        }

        String endpoint() throws Exception {
            return ChildProcesses.endpoint(
                    out::toString, () -> !exit.isDone(), () -> "stdout:\n" + out + "\nstderr:\n" + err);
        }
    }

    @Test
    @Timeout(180)
    void lmsSensor_readingsAcceptedByOperatorPinningItsKey_indicesBurnedInTheState() throws Exception {
        var r = CliRunner.run("keygen", "--params", HssCliTest.LMS_H5, "--out", p("k"));
        assertEquals(0, r.exit(), r.toString());
        // A key directory rolls XMSS keys over only: an LMS key there needs --no-rollover.
        r = CliRunner.run("sensor", "--key", p("k/key.state"), "--port", "0", "--readings", "1");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("does not roll over"), r.err());

        Running sensor = new Running(
                "sensor",
                "--key",
                p("k/key.state"),
                "--no-rollover",
                "--port",
                "0",
                "--rate",
                "5",
                "--readings",
                "8",
                "--data-dir",
                p("sensor-data"));
        String url = sensor.endpoint();
        r = CliRunner.run(
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--params",
                HssCliTest.LMS_H5,
                "--readings",
                "3",
                "--data-dir",
                p("op"));
        assertEquals(0, r.exit(), r.toString());
        assertEquals(
                3, r.out().lines().filter(l -> l.startsWith("ACCEPTED index=")).count(), r.toString());
        assertEquals(0, sensor.exit.get(120, TimeUnit.SECONDS), sensor.err.toString());
        assertTrue(sensor.out.toString().contains("last index 7"), sensor.out.toString());

        r = CliRunner.run("inspect", p("k/key.state"));
        assertTrue(r.out().contains("next 8, end 32"), r.out());
    }

    @Test
    void twoLevelHssSensor_refusedWithOneLine_nameDoesNotFitASignedReading() {
        var r = CliRunner.run("keygen", "--params", HssCliTest.HSS_H5_H5, "--out", p("h"));
        assertEquals(0, r.exit(), r.toString());
        r = CliRunner.run("sensor", "--key", p("h/key.state"), "--no-rollover", "--port", "0", "--readings", "1");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("at most 64"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        r = CliRunner.run("inspect", p("h/key.state"));
        assertTrue(r.out().contains("next 0, end 1024"), r.out());
    }
}
