package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.operator.SensorTarget;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The operator's sensors file ({@code pqsign operator --sensors FILE}, JSON,
 * docs/formats/operator-sensors.md), read by {@link SensorList#read}. This target lives in the CLI's
 * package because the reader is package-private there; it is part of pqsign-fuzz like every other.
 *
 * <p>Input: the file's bytes, written to {@code sensors.json} in a scratch directory that also holds
 * {@code x.pub} (the fixed XMSS^MT-SHA2_20/2_256 key), {@code h.pub} (the fixed HAETAE-2 key),
 * {@code sensor-x.der} and {@code root.der} (a certificate and the root it chains to), so the
 * relative names of the seeds resolve and valid files are reachable.
 *
 * <p>Asserts: the only failure is a {@link CliException} whose message is one line without control
 * characters and names a file (every path the reader resolves is absolute); no other exception
 * escapes; a file that is read gives 1 … 1,000 sensors with unique names, each with a pinned key.
 * libFuzzer's per-input time limit catches a hang.
 */
class OperatorSensorsFuzzTest {
    private static final Path DIR = scratch();

    @FuzzTest
    void fuzz(byte[] data) throws IOException {
        Path file = DIR.resolve("sensors.json");
        Files.write(file, data);
        List<SensorTarget> targets;
        try {
            targets = SensorList.read(file);
        } catch (CliException e) {
            String m = e.getMessage();
            assertNotNull(m);
            assertTrue(m.chars().noneMatch(Character::isISOControl), "control character in: " + m);
            assertTrue(m.contains("/"), "names no file: " + m);
            return;
        }
        assertFalse(targets.isEmpty());
        assertTrue(targets.size() <= SensorList.MAX_SENSORS);
        Set<String> names = new HashSet<>();
        for (SensorTarget t : targets) {
            assertTrue(names.add(t.name()), "name used twice: " + t.name());
            assertNotNull(t.firstKey());
            assertTrue(t.url().startsWith("opc.tcp://"));
        }
        assertEquals(targets.size(), names.size());
    }

    private static Path scratch() {
        try {
            Path dir = Files.createTempDirectory("pqsign-fuzz-sensors");
            copy("dev/pqsign/fuzz/material/XMSSMT-SHA2_20-2_256.pub", dir.resolve("x.pub"), 0);
            copy("dev/pqsign/fuzz/HaetaeKeyFuzzTestInputs/fuzz/HAETAE-2-public", dir.resolve("h.pub"), 1);
            copy("dev/pqsign/fuzz/material/cert-sensor-x.der", dir.resolve("sensor-x.der"), 0);
            copy("dev/pqsign/fuzz/material/cert-root.der", dir.resolve("root.der"), 0);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // best effort at exit
                }
            }));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies a committed resource, without its first {@code skip} bytes (a seed's mode byte). */
    private static void copy(String resource, Path to, int skip) throws IOException {
        try (InputStream in = OperatorSensorsFuzzTest.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            byte[] b = in.readAllBytes();
            Files.write(to, Arrays.copyOfRange(b, skip, b.length));
        }
    }
}
