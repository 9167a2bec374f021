package dev.pqsign.edge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the edge distribution holds: the sensor's jars and nothing of the operator's, the console's,
 * Kafka's or the benchmarks'; at most 30 MB as a directory and as a .tar.gz; the launcher
 * executable; the systemd units as the repository has them.
 */
class EdgeDistributionTest {
    /** The largest the distribution may be (issue 30 item 5), in bytes. */
    static final long MAX_BYTES = 30L * 1024 * 1024;

    /** Jars no sensor needs: the operator's, the console's, Kafka's, the demo's and the benchmarks'. */
    private static final Pattern NOT_FOR_A_SENSOR = Pattern.compile(
            "kafka|rocksdb|scala|jetty|jmh|jol-|prometheus|jackson|milo-sdk-client|pqsign-(operator|kafka|console|demo|bench|testing|fuzz)"
                    + "|zstd|lz4|snappy|selenium|caffeine|log4j|metrics-core|commons-");

    private static Path lib() {
        return EdgeProcesses.distribution().resolve("lib");
    }

    private static List<String> jars() throws IOException {
        try (Stream<Path> s = Files.list(lib())) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void lib_holdsNoJarOfTheOperatorConsoleKafkaDemoOrBenchmarks() throws IOException {
        List<String> misplaced =
                jars().stream().filter(j -> NOT_FOR_A_SENSOR.matcher(j).find()).toList();
        assertEquals(List.of(), misplaced, "jars a sensor does not need");
    }

    /**
     * Every jar of lib/, by artifact name: a jar that comes or goes (a new dependency of pqsign-cli,
     * or of Milo) fails this test until the list, and docs/edge.md, say why the sensor needs it.
     * BouncyCastle is here because Milo's stack (milo-stack-core) builds the sensor's OPC UA
     * application certificate with it, and pqsign-x509 reads and issues the device certificates of
     * --cert and --device-ca with it.
     */
    @Test
    void lib_holdsExactlyTheJarsTheSensorRuns() throws IOException {
        List<String> artifacts = jars().stream()
                .map(j -> j.replaceFirst("-\\d[^-]*(-SNAPSHOT|\\.Final)?\\.jar$", ""))
                .sorted()
                .toList();
        assertEquals(
                List.of(
                        "bcpkix-jdk18on",
                        "bcprov-jdk18on",
                        "bcutil-jdk18on",
                        "jspecify",
                        "milo-sdk-core",
                        "milo-sdk-server",
                        "milo-stack-core",
                        "milo-transport",
                        "netty-buffer",
                        "netty-channel-fsm",
                        "netty-codec",
                        "netty-common",
                        "netty-handler",
                        "netty-resolver",
                        "netty-transport",
                        "netty-transport-native-unix-common",
                        "picocli",
                        "pqsign-cli",
                        "pqsign-core",
                        "pqsign-haetae",
                        "pqsign-keys",
                        "pqsign-lms",
                        "pqsign-opcua",
                        "pqsign-state",
                        "pqsign-telemetry",
                        "pqsign-x509",
                        "pqsign-xmss",
                        "slf4j-api",
                        "slf4j-simple",
                        "strict-machine"),
                artifacts,
                "lib/: " + jars());
    }

    @Test
    void distribution_directoryAndTarball_atMost30MB() throws IOException {
        long dirBytes;
        try (Stream<Path> s = Files.walk(EdgeProcesses.distribution())) {
            dirBytes = s.filter(Files::isRegularFile)
                    .mapToLong(p -> {
                        try {
                            return Files.size(p);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .sum();
        }
        assertTrue(dirBytes <= MAX_BYTES, "directory: " + dirBytes + " bytes");
        long tarBytes = Files.size(tarball());
        assertTrue(tarBytes <= MAX_BYTES, "tar.gz: " + tarBytes + " bytes");
    }

    private static Path tarball() {
        Path d = EdgeProcesses.distribution();
        return d.resolveSibling(d.getFileName() + ".tar.gz");
    }

    @Test
    void tarball_holdsTheDirectoryUnderOneTopDirectory_launcherExecutable() throws Exception {
        Process tar = new ProcessBuilder("tar", "-tvzf", tarball().toString())
                .redirectErrorStream(true)
                .start();
        String listing = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, tar.exitValue(), listing);
        String top = EdgeProcesses.distribution().getFileName() + "/";
        Set<String> inTar = new TreeSet<>();
        for (String line : listing.split("\n")) {
            String[] f = line.trim().split("\\s+");
            String name = f[f.length - 1];
            assertTrue(name.startsWith(top), line);
            if (!name.endsWith("/")) {
                inTar.add(name.substring(top.length()));
            }
            if (name.equals(top + "bin/pqsign-sensor")) {
                assertTrue(f[0].startsWith("-rwxr-xr-x"), line);
            }
        }
        Set<String> inDir;
        try (Stream<Path> s = Files.walk(EdgeProcesses.distribution())) {
            inDir = s.filter(Files::isRegularFile)
                    .map(p -> EdgeProcesses.distribution().relativize(p).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertEquals(inDir, inTar);
        assertTrue(
                Files.getPosixFilePermissions(EdgeProcesses.launcher()).contains(PosixFilePermission.OTHERS_EXECUTE));
    }

    @Test
    void systemdUnits_shippedAsTheRepositoryHasThem() throws IOException {
        Path repo = Path.of(System.getProperty("pqsign.edge.units"));
        List<Path> files;
        try (Stream<Path> s = Files.list(repo)) {
            files = s.sorted().toList();
        }
        assertTrue(files.size() >= 2, files.toString());
        for (Path f : files) {
            Path shipped = EdgeProcesses.distribution().resolve("systemd").resolve(f.getFileName());
            assertArrayEquals(Files.readAllBytes(f), Files.readAllBytes(shipped), shipped.toString());
        }
    }
}
