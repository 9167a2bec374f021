package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator data directory whose replay marks are gone, cut short or damaged (issue 31, item 1):
 * reopened against the same running sensor, whose history still holds every reading, the operator
 * never accepts a reading at or below one it accepted before; a mark file it cannot read stops it
 * with one line that names the file and how to recover.
 */
class OperatorDataDirCliTest {
    private static final String SET = "XMSSMT-SHA2_10/2_256";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private ChildProcesses processes;
    private String url;

    @BeforeEach
    void sensor() throws Exception {
        processes = new ChildProcesses(dir);
        assertEquals(
                0, CliRunner.run("keygen", "--params", SET, "--out", p("k")).exit());
        Process sensor = processes.pqsign(
                "sensor",
                "sensor",
                "--key",
                p("k/key.state"),
                "--port",
                "0",
                "--rate",
                "50",
                "--data-dir",
                p("sensor-data"));
        url = processes.endpoint("sensor", sensor);
    }

    @AfterEach
    void killLeftovers() {
        processes.killAll();
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    private CliRunner.Result operator(String dataDir, String jsonl, int readings) {
        return CliRunner.run(
                "operator",
                "--url",
                url,
                "--pub",
                p("k/key.pub"),
                "--readings",
                Integer.toString(readings),
                "--publishing-ms",
                "2",
                "--jsonl",
                p(jsonl),
                "--data-dir",
                p(dataDir),
                // what follows the connection is tested here; on a loaded machine the
                // first connection took longer than the default 10 s
                "--connect-timeout",
                "120");
    }

    private List<Long> accepted(String jsonl) throws IOException {
        List<Long> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve(jsonl))) {
            JsonNode o = JSON.readTree(line);
            if ("ACCEPTED".equals(o.path("verdict").asText())) {
                out.add(o.get("index").asLong());
            }
        }
        return out;
    }

    private Path marks(String dataDir) {
        return dir.resolve(dataDir).resolve("replay").resolve("replay-marks.pqrm");
    }

    /** A used data directory: 40 readings accepted; copied to {@code copies} as they are now. */
    private List<Long> firstRun(String... copies) throws IOException {
        CliRunner.Result r = operator("op", "first.jsonl", 40);
        assertEquals(0, r.exit(), r.toString());
        List<Long> first = accepted("first.jsonl");
        assertEquals(40, first.size(), r.toString());
        for (String c : copies) {
            copyTree(dir.resolve("op"), dir.resolve(c));
        }
        return first;
    }

    /**
     * No index the first run reported ACCEPTED is ACCEPTED again (one it accepted but never wrote out
     * is reported once, now).
     */
    private void acceptsNothingTwice(List<Long> first, String jsonl, CliRunner.Result r) throws IOException {
        for (long i : accepted(jsonl)) {
            assertTrue(!first.contains(i), jsonl + ": index " + i + " accepted again\n" + r);
        }
    }

    @Test
    @Timeout(180)
    void marksDeleted_orCutShort_reopenedOperatorAcceptsNothingItHadAccepted() throws Exception {
        List<Long> first = firstRun("cut");
        Files.delete(marks("op"));
        try (RandomAccessFile f = new RandomAccessFile(marks("cut").toFile(), "rw")) {
            f.setLength(f.length() / 2);
        }
        for (String dataDir : List.of("op", "cut")) {
            String jsonl = dataDir + "-again.jsonl";
            CliRunner.Result r = operator(dataDir, jsonl, 20);
            assertEquals(0, r.exit(), r.toString());
            assertTrue(accepted(jsonl).size() >= 20, r.toString());
            acceptsNothingTwice(first, jsonl, r);
            assertTrue(
                    r.out().contains("operator: replay mark of key ") && r.out().contains(" rebuilt at "),
                    r.toString());
        }
    }

    @Test
    @Timeout(180)
    void markFileDamaged_refusesToStart_namingTheFileAndHowToRecover() throws Exception {
        List<Long> first = firstRun();
        byte[] b = Files.readAllBytes(marks("op"));
        b[0] ^= 0x20; // the header's magic
        Files.write(marks("op"), b);
        CliRunner.Result r = operator("op", "damaged.jsonl", 5);
        assertEquals(2, r.exit(), r.toString());
        List<String> lines = r.err().lines().toList();
        assertEquals(1, lines.size(), r.toString());
        assertTrue(lines.get(0).contains(marks("op").toString()), r.toString());
        assertTrue(lines.get(0).contains("move") && lines.get(0).contains("aside"), r.toString());
        // Moved aside as the message says: the marks are rebuilt and nothing is accepted twice.
        Files.move(marks("op"), dir.resolve("damaged-marks"));
        CliRunner.Result again = operator("op", "recovered.jsonl", 5);
        assertEquals(0, again.exit(), again.toString());
        acceptsNothingTwice(first, "recovered.jsonl", again);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }
}
