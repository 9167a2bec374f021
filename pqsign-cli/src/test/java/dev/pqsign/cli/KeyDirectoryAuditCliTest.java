package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.SensorKeyDirectory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pqsign inspect DIR} and {@code pqsign audit --key-dir DIR} on a key directory that rolled
 * over many times with automatic rollover, its retired generations compacted into the handover log.
 */
class KeyDirectoryAuditCliTest {
    private static final String SET = "XMSSMT-SHA2_10/2_256";
    private static final int ROLLOVERS = 8;

    @TempDir
    Path tmp;

    private String p(String name) {
        return tmp.resolve(name).toString();
    }

    /** Signs with automatic rollover (a handover every few signatures) until {@link #ROLLOVERS} handovers are done. */
    private void rollOver(Path dir) throws Exception {
        try (SensorKeyDirectory keys = SensorKeyDirectory.open(dir, SensorKeyDirectory.Options.defaults());
                KeyRollover rollover = KeyRollover.of(keys, 0, 1_020, Clock.systemUTC())) {
            while (keys.generation() < ROLLOVERS) {
                rollover.beforeSignature();
                keys.currentSigner().sign("reading".getBytes(StandardCharsets.US_ASCII));
                rollover.afterSignature();
            }
        }
    }

    private static List<String> generationDirectories(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir.resolve(SensorKeyDirectory.GENERATIONS))) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void auditKeyDir_afterEightRollovers_atMostTwoGenerationDirectoriesAndTheLog_passes() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        rollOver(tmp.resolve("k"));

        List<String> dirs = generationDirectories(tmp.resolve("k"));
        assertTrue(dirs.size() <= 2, dirs.toString());
        assertTrue(dirs.contains(String.format("%012d", ROLLOVERS)), dirs.toString());
        assertTrue(Files.isRegularFile(tmp.resolve("k").resolve(SensorKeyDirectory.HANDOVER_LOG)));

        CliRunner.Result inspect = CliRunner.run("inspect", p("k"));
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("generation:     8 (8 key handovers)"), inspect.out());
        assertTrue(inspect.out().contains("compacted:      7 retired generations"), inspect.out());

        CliRunner.Result audit = CliRunner.run("audit", "--key-dir", p("k"));
        assertEquals(0, audit.exit(), audit.out() + audit.err());
        assertTrue(audit.out().contains("8 key handovers verified (7 from handovers.pqhc): PASSED"), audit.out());
        audit = CliRunner.run("audit", "--key-dir", p("k"), "--pub", p("k/key.pub"), "--params", SET);
        assertEquals(0, audit.exit(), audit.out() + audit.err());
    }

    @Test
    void auditKeyDir_flippedByteInTheLog_failsAndNamesIt() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        rollOver(tmp.resolve("k"));
        Path log = tmp.resolve("k").resolve(SensorKeyDirectory.HANDOVER_LOG);
        byte[] b = Files.readAllBytes(log);
        b[b.length / 2] ^= 0x04;
        Files.write(log, b);

        CliRunner.Result audit = CliRunner.run("audit", "--key-dir", p("k"));
        assertEquals(1, audit.exit(), audit.out() + audit.err());
        assertTrue(audit.out().contains("FAILED"), audit.out());
        assertTrue(audit.out().contains("handovers.pqhc"), audit.out());
        CliRunner.Result inspect = CliRunner.run("inspect", p("k"));
        assertEquals(2, inspect.exit());
        assertTrue(inspect.err().startsWith("pqsign: "), inspect.err());
        assertFalse(inspect.err().contains("Exception"), inspect.err());
    }

    @Test
    void audit_neitherJsonlNorKeyDir_isAUsageError() {
        CliRunner.Result r = CliRunner.run("audit", "--pub", p("k/key.pub"));
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--key-dir"), r.err());
    }
}
