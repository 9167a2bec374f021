package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The committed seed corpus is exactly what {@link SeedCorpus} generates (no blob of unknown
 * origin). To regenerate it: {@code ./mvnw -pl pqsign-fuzz -am test -Dtest=SeedCorpusTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dpqsign.fuzz.writeSeeds=src/test/resources}.
 */
class SeedCorpusTest {

    @Test
    void committedSeeds_equalGeneratedSeeds() throws Exception {
        // The generator makes real keys and signatures, several times slower under the C1-only JIT
        // this module's test JVMs start with in CI mode (pom.xml, fuzz.jvmFlags): it runs in a JVM
        // with the defaults.
        Path log = Files.createTempFile("pqsign-seed-check", ".txt");
        try {
            Process p = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "-Xmx1g",
                            "-cp",
                            System.getProperty("java.class.path"),
                            SeedCorpus.class.getName(),
                            "--check")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail("the seed check did not finish in 5 minutes: " + Files.readString(log));
            }
            assertEquals(0, p.exitValue(), Files.readString(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.fuzz.writeSeeds", matches = ".+")
    void writeSeeds() throws IOException {
        SeedCorpus.main(new String[] {
            Paths.get(System.getProperty("pqsign.fuzz.writeSeeds"))
                    .toAbsolutePath()
                    .toString()
        });
    }
}
