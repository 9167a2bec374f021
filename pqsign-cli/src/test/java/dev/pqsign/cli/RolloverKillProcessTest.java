package dev.pqsign.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pqsign.keys.KeyRollover;
import dev.pqsign.keys.RolloverStep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a rolling sensor (XMSSMT-SHA2_10/2_256, 1,024 signatures per key; in every build its
 * keys hand over after 100 readings, behind {@code -Plong} after 1,016 as the sensor's default
 * policy does) around its key rollovers while one live {@code pqsign operator} process stays
 * attached: right after each
 * {@link RolloverStep} at least once (the sensor pauses there, as in the key module's
 * RolloverCrashTest), and at seeded random moments a few readings before or after a handover. The
 * sensor ({@link RollingSensorChild}) is restarted on the same key directory and history file each
 * time. Afterwards: no (key, index) was signed twice, the operator — never restarted — reported no
 * rejection of any kind (no {@code INDEX_REUSE}, every signature verified, no key unknown or
 * retired), followed every handover, and every index of every key up to the last one it accepted is
 * either {@code ACCEPTED} exactly once or inside a reported {@code GAP} (indices a kill burned, or
 * readings the operator's queue dropped); every reading a sensor run reported as published was
 * accepted or reported missing.
 */
class RolloverKillProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

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

    /**
     * Every build: keys that hand over after 100 readings (so each sensor run reaches its kill point
     * within a second or two of signing), one SIGKILL after each rollover step and one at random.
     */
    @Test
    @Timeout(600)
    void sigkillAtEveryRolloverStepAndOnceAtRandom_operatorContinues_noIndexReused() throws Exception {
        run(1, 20261201L, SHORT_KEY_SWITCH_AT);
    }

    /** The same with the sensor's own rollover policy: 1,016 readings per key. */
    @Test
    @Timeout(1200)
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillAtEveryRolloverStepAndOnceAtRandom_fullKeys_long() throws Exception {
        run(1, 20261201L, KeyRollover.DEFAULT_SWITCH_AT);
    }

    @Test
    @Timeout(3600)
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillAtRandomAroundRollovers_long() throws Exception {
        long seed = System.nanoTime();
        System.out.println("RolloverKillProcessTest seed " + seed);
        run(20, seed, KeyRollover.DEFAULT_SWITCH_AT);
    }

    /** Signatures left at the handover for the every-build run: each key signs 100 readings. */
    private static final long SHORT_KEY_SWITCH_AT = 1024 - 100;

    /**
     * Runs the plan; on failure the processes' output and the operator's JSON Lines are kept under
     * {@code target/} (the temporary directory is removed) and named in the failure.
     */
    private void run(int randomKills, long seed, long switchAt) throws Exception {
        try {
            plan(randomKills, seed, switchAt);
        } catch (Exception | AssertionError e) {
            Path kept = Path.of("target", "RolloverKillProcessTest-" + seed + "-" + System.currentTimeMillis());
            Files.createDirectories(kept);
            try (var files = Files.list(dir)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Files.copy(f, kept.resolve(f.getFileName()));
                }
            }
            throw new AssertionError(
                    "seed " + seed + ", switch at " + switchAt + "; output kept in " + kept.toAbsolutePath() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    private void plan(int randomKills, long seed, long switchAt) throws Exception {
        this.switchAt = switchAt;
        Random rnd = new Random(seed);
        assertEquals(
                0,
                CliRunner.run("keygen", "--params", "XMSSMT-SHA2_10/2_256", "--out", p("k"))
                        .exit());
        int port = ChildProcesses.freePort();
        Process operator = processes.pqsign(
                "operator",
                "operator",
                "--port",
                Integer.toString(port),
                "--pub",
                p("k/key.pub"),
                "--jsonl",
                p("v.jsonl"),
                "--connect-timeout",
                "600",
                "--publishing-ms",
                "2",
                "--data-dir",
                p("op"));
        List<String> plan = new ArrayList<>();
        for (RolloverStep s : RolloverStep.values()) {
            plan.add(s.name());
        }
        for (int i = 0; i < randomKills; i++) {
            plan.add("random");
        }
        Set<String> stepsKilledAt = new HashSet<>();
        int runNo = 0;
        for (String step : plan) {
            runNo++;
            Process sensor = sensor(runNo, port, step.equals("random") ? "none" : step, 0);
            if (step.equals("random")) {
                // A few readings before or after the next handover (at 8 signatures left).
                int offset = rnd.nextInt(41) - 20;
                await(runNo, sensor, lines -> lines.stream().anyMatch(l -> l.startsWith("STARTED ")));
                long generation = lines(runNo).stream()
                        .filter(l -> l.startsWith("STARTED "))
                        .mapToLong(l -> Long.parseLong(l.substring(8)))
                        .findFirst()
                        .orElseThrow();
                await(runNo, sensor, lines -> lines.stream().anyMatch(l -> pastOffset(l, generation, offset)));
            } else {
                await(runNo, sensor, lines -> lines.contains("PAUSED"));
                stepsKilledAt.add(step);
            }
            sensor.destroyForcibly(); // SIGKILL
            assertTrue(sensor.waitFor(30, TimeUnit.SECONDS));
            assertTrue(operator.isAlive(), "the operator keeps running across sensor restarts");
        }
        assertEquals(RolloverStep.values().length, stepsKilledAt.size());
        Process last = sensor(++runNo, port, "none", 50);
        await(runNo, last, lines -> lines.contains("DONE"));

        // What the sensor runs published: no (key, index) twice.
        Set<String> published = new HashSet<>();
        String lastPublished = null;
        long generations = 0;
        for (int r = 1; r <= runNo; r++) {
            for (String l : lines(r)) {
                if (l.startsWith("SIG ")) {
                    String[] f = l.split(" ");
                    String keyIndex = f[2] + "/" + f[3];
                    assertTrue(published.add(keyIndex), "run " + r + " signed " + keyIndex + " again");
                    lastPublished = keyIndex;
                    generations = Math.max(generations, Long.parseLong(f[1]));
                }
            }
        }
        assertTrue(generations >= 2, "at least two rollovers, got " + generations);
        String wanted = lastPublished;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (!acceptedKeyIndices().contains(wanted) && System.nanoTime() < deadline && operator.isAlive()) {
            Thread.sleep(200);
        }
        assertTrue(operator.isAlive(), describe("operator"));
        last.destroy();
        operator.destroy();
        assertTrue(operator.waitFor(60, TimeUnit.SECONDS), describe("operator"));

        Map<String, TreeSet<Long>> accepted = new HashMap<>();
        Map<String, List<long[]>> gaps = new HashMap<>();
        Map<String, List<long[]>> skipped = new HashMap<>();
        int followed = 0;
        for (String line : Files.readAllLines(dir.resolve("v.jsonl"))) {
            JsonNode o = JSON.readTree(line);
            if ("HANDOVER".equals(o.path("event").asText())) {
                String outcome = o.get("outcome").asText();
                assertTrue(outcome.equals("FOLLOWED") || outcome.equals("ALREADY_FOLLOWED"), line);
                followed += outcome.equals("FOLLOWED") ? 1 : 0;
            } else if (o.has("verdict")) {
                String verdict = o.get("verdict").asText();
                String key = o.get("key_id").asText();
                if (verdict.equals("ACCEPTED")) {
                    assertTrue(
                            accepted.computeIfAbsent(key, k -> new TreeSet<>())
                                    .add(o.get("index").asLong()),
                            line);
                } else if (verdict.equals("GAP")) {
                    gaps.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[] {
                        o.get("from_index").asLong(), o.get("to_index").asLong()
                    });
                } else if (verdict.equals("SKIPPED")) {
                    // burned by a killed sensor without publishing, stated in its signed skip notice
                    skipped.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[] {
                        o.get("from_index").asLong(), o.get("to_index").asLong()
                    });
                } else {
                    assertEquals("DUPLICATE", verdict, "no rejection of any kind: " + line);
                }
            } else {
                assertFalse("KEY_ALARM".equals(o.path("event").asText()), line);
            }
        }
        assertEquals(generations, followed, "every handover followed once");
        for (String keyIndex : published) {
            // A reading the operator's queue dropped (it is slower than a sensor signing flat out)
            // is reported as a gap; nothing published may vanish without one.
            String[] f = keyIndex.split("/");
            long index = Long.parseLong(f[1]);
            assertTrue(
                    skipped.getOrDefault(f[0], List.of()).stream().noneMatch(g -> g[0] <= index && index <= g[1]),
                    "published but stated skipped (a skip notice must never cover a published index): " + keyIndex);
            assertTrue(
                    accepted.getOrDefault(f[0], new TreeSet<>()).contains(index)
                            || gaps.getOrDefault(f[0], List.of()).stream()
                                    .anyMatch(g -> g[0] <= index && index <= g[1]),
                    "published but neither accepted nor reported missing: " + keyIndex);
        }
        for (Map.Entry<String, TreeSet<Long>> e : accepted.entrySet()) {
            for (long i = 0; i <= e.getValue().last(); i++) {
                long index = i;
                boolean inGap =
                        gaps.getOrDefault(e.getKey(), List.of()).stream().anyMatch(g -> g[0] <= index && index <= g[1])
                                || skipped.getOrDefault(e.getKey(), List.of()).stream()
                                        .anyMatch(g -> g[0] <= index && index <= g[1]);
                assertTrue(
                        e.getValue().contains(i) != inGap,
                        "key " + e.getKey() + " index " + i
                                + " must be accepted or in a gap or skipped, not both or neither");
            }
        }
    }

    /** Signatures left at the handover in this run. */
    private long switchAt;

    /** Whether a sensor output line shows that the run got {@code offset} readings past the handover point. */
    private boolean pastOffset(String line, long generation, int offset) {
        if (!line.startsWith("SIG ")) {
            return false;
        }
        String[] f = line.split(" ");
        long g = Long.parseLong(f[1]);
        long index = Long.parseLong(f[3]);
        // The key hands over with switchAt signatures left (8 by default: after index 1,015 of its 1,024).
        long handover = 1_024 - switchAt;
        return offset < 0 ? g > generation || index >= handover + offset : g > generation && index >= offset;
    }

    private Set<String> acceptedKeyIndices() throws IOException {
        Set<String> out = new HashSet<>();
        Path f = dir.resolve("v.jsonl");
        if (!Files.exists(f)) {
            return out;
        }
        for (String line : Files.readAllLines(f)) {
            if (line.contains("\"verdict\":\"ACCEPTED\"")) {
                JsonNode o = JSON.readTree(line);
                out.add(o.get("key_id").asText() + "/" + o.get("index").asLong());
            }
        }
        return out;
    }

    private Process sensor(int runNo, int port, String pauseAt, int readings) throws IOException {
        return processes.java(
                "sensor-" + runNo,
                RollingSensorChild.class,
                p("k"),
                p("sensor-data"),
                Integer.toString(port),
                Integer.toString(runNo),
                pauseAt,
                Integer.toString(readings),
                Long.toString(switchAt));
    }

    private List<String> lines(int runNo) throws IOException {
        Path f = dir.resolve("sensor-" + runNo + ".out");
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    private void await(int runNo, Process proc, Predicate<List<String>> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (System.nanoTime() < deadline) {
            if (condition.test(lines(runNo))) {
                return;
            }
            if (!proc.isAlive()) {
                break;
            }
            Thread.sleep(2);
        }
        throw new AssertionError(
                "sensor run " + runNo + " never reached its kill point: " + processes.describe("sensor-" + runNo));
    }

    private String describe(String name) throws IOException {
        return processes.describe(name);
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }
}
