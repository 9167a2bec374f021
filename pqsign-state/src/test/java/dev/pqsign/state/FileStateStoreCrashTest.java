package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child JVM that increments the state in a loop, at random moments, and checks after
 * every kill that the state is whole and never behind what the child had been told was durable.
 * (SIGKILL tests process-crash atomicity; the page cache survives it, so power-loss durability rests
 * on the fsync calls, which the fault-injection tests cover.)
 */
class FileStateStoreCrashTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void sigkillDuringUpdates_stateParsesAndIsNeverBehindAcknowledgedValue() throws Exception {
        runKills(20, 42);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillDuringUpdates_long() throws Exception {
        runKills(200, System.nanoTime());
    }

    @Test
    void sigkillOneOfSeveralConcurrentWriters_noValueIsEverObtainedTwice() throws Exception {
        runConcurrentKills(10, 7);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillOneOfSeveralConcurrentWriters_long() throws Exception {
        runConcurrentKills(100, System.nanoTime());
    }

    /**
     * Three writers update the same file continuously; one at a time is SIGKILLed (possibly while
     * it holds the lock) and replaced. Every printed value must be unique, and the values never
     * printed must be few: each killed writer can own at most one durable-but-unprinted value.
     */
    private void runConcurrentKills(int kills, long seed) throws Exception {
        Random random = new Random(seed);
        Path file = dir.resolve("key.state");
        FileStateStore.create(file, Counter.encode(0), TIMEOUT).close();
        int writers = 3;
        List<ChildJvm> running = new ArrayList<>();
        List<ChildJvm> all = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            ChildJvm c = StoreChild.start(dir, "forever", file.toString());
            running.add(c);
            all.add(c);
        }
        for (int k = 0; k < kills; k++) {
            Thread.sleep(50 + random.nextInt(200));
            ChildJvm victim = running.remove(random.nextInt(running.size()));
            victim.kill();
            ChildJvm c = StoreChild.start(dir, "forever", file.toString());
            running.add(c);
            all.add(c);
        }
        Thread.sleep(200);
        for (ChildJvm c : running) {
            c.kill();
        }
        Set<Long> printed = new HashSet<>();
        for (ChildJvm c : all) {
            for (String line : c.lines()) {
                assertTrue(printed.add(Long.parseLong(line)), "seed " + seed + ": value " + line + " obtained twice");
            }
        }
        long onDisk;
        try (FileStateStore store = FileStateStore.open(file, TIMEOUT)) {
            onDisk = Counter.decode(store.read());
        }
        long maxPrinted = printed.stream().mapToLong(Long::longValue).max().orElse(0);
        assertTrue(onDisk >= maxPrinted, "seed " + seed + ": on disk " + onDisk + " < printed " + maxPrinted);
        long unprinted = onDisk - printed.size();
        assertTrue(
                unprinted >= 0 && unprinted <= all.size(),
                "seed " + seed + ": " + unprinted + " values up to " + onDisk + " were never printed, but only "
                        + all.size() + " writers were killed");
        for (long v : printed) {
            assertTrue(v >= 1 && v <= onDisk, "seed " + seed + ": printed " + v + " outside 1.." + onDisk);
        }
        assertEquals(List.of(), TempFiles.of(file));
        System.out.printf(
                "concurrent crash test: %d kills of %d writers, counter %d, %d values durable but" + " unprinted%n",
                kills + writers, writers, onDisk, unprinted);
    }

    private void runKills(int kills, long seed) throws Exception {
        Random random = new Random(seed);
        Path file = dir.resolve("key.state");
        FileStateStore.create(file, Counter.encode(0), TIMEOUT).close();
        long previous = 0;
        int killedMidRun = 0;
        int leftTemp = 0;
        for (int k = 0; k < kills; k++) {
            ChildJvm child = StoreChild.start(dir, "forever", file.toString());
            String first = child.awaitLine(1, 60_000);
            assertNotNull(first, "child printed nothing; " + child.stderr());
            // The first value must continue exactly where the last run left the file.
            assertEquals(previous + 1, Long.parseLong(first), "seed " + seed + ", run " + k);
            Thread.sleep(random.nextInt(150));
            child.kill();
            List<String> lines = child.lines();
            long lastAcknowledged = Long.parseLong(lines.get(lines.size() - 1));
            if (!TempFiles.of(file).isEmpty()) {
                leftTemp++;
            }
            long onDisk;
            // Re-opening also deletes any temp file the kill left behind; the value must parse.
            try (FileStateStore store = FileStateStore.open(file, TIMEOUT)) {
                onDisk = Counter.decode(store.read());
            }
            // At most one update can have been made durable without being printed yet.
            assertTrue(
                    onDisk == lastAcknowledged || onDisk == lastAcknowledged + 1,
                    "seed " + seed + ", run " + k + ": on disk " + onDisk + ", last acknowledged "
                            + lastAcknowledged + "; child printed " + lines.size() + " values, last ones "
                            + lines.subList(Math.max(0, lines.size() - 5), lines.size()) + "; " + child.stderr());
            if (onDisk == lastAcknowledged + 1) {
                killedMidRun++;
            }
            assertEquals(List.of(), TempFiles.of(file));
            previous = onDisk;
        }
        System.out.printf(
                "crash test: %d kills, final counter %d, %d kills after an unacknowledged durable"
                        + " update, %d kills left a temporary file behind%n",
                kills, previous, killedMidRun, leftTemp);
    }
}
