package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pqsign sensor --key DIR/generations/N/key.state} would start a second key chain inside the
 * first (the generation directory has a key.pub and a key.state, like a key directory): it is
 * refused, pointing at {@code DIR/key.state}, before anything is signed or created.
 */
class GenerationKeyCliTest {
    private static final String SET = "XMSSMT-SHA2_20/4_256";
    private static final String GENERATION = "kd/generations/000000000001";

    @TempDir
    Path dir;

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private CliRunner.Result sensor(String key, String... more) {
        String[] base = {"sensor", "--key", key, "--port", "0", "--readings", "1", "--data-dir", p("sd")};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return CliRunner.run(args);
    }

    @Test
    @Timeout(300)
    void sensorOnAGenerationsKeyState_refusedPointingAtTheDirectorysKeyState() throws Exception {
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("kd")).exit());
        var first = sensor(p("kd/key.state")); // signs once and prepares generation 1
        assertEquals(0, first.exit(), first.err());
        Path gen = dir.resolve(GENERATION);
        assertTrue(Files.isRegularFile(gen.resolve("key.state")), "no prepared generation 1");
        byte[] state = Files.readAllBytes(gen.resolve("key.state"));

        for (String[] more : new String[][] {{}, {"--no-rollover"}}) {
            var r = sensor(p(GENERATION + "/key.state"), more);
            assertEquals(2, r.exit(), r.out() + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(
                    r.err().contains(p(GENERATION + "/key.state") + " is generation 1 of the key directory " + p("kd"))
                            && r.err().contains("--key " + p("kd/key.state")),
                    r.err());
        }
        assertFalse(Files.exists(gen.resolve("generations")), "a second chain was started in generation 1");
        assertEquals(
                java.util.Arrays.toString(state),
                java.util.Arrays.toString(Files.readAllBytes(gen.resolve("key.state"))));
    }
}
