package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Paths;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The committed seed corpus is exactly what {@link SeedCorpus} generates (no blob of unknown
 * origin). To regenerate it: {@code ./mvnw -pl pqsign-fuzz -am test -Dtest=SeedCorpusTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dpqsign.fuzz.writeSeeds=src/test/resources}.
 */
class SeedCorpusTest {

    @Test
    void committedSeeds_equalGeneratedSeeds() throws IOException {
        for (Map.Entry<String, byte[]> e : SeedCorpus.generate().entrySet()) {
            try (InputStream in = SeedCorpusTest.class.getClassLoader().getResourceAsStream(e.getKey())) {
                assertNotNull(in, "seed " + e.getKey() + " is not committed; regenerate the corpus");
                assertArrayEquals(
                        e.getValue(), in.readAllBytes(), "seed " + e.getKey() + " differs from the generator's");
            }
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
