package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.FileStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child JVM that signs in a loop with the durable HSS signer, at random moments, and
 * restarts it. After every kill: every signature file verifies and carries the index of its name, no
 * index was printed or written twice across all runs, every used index lies below the state's next
 * index, and the next run starts exactly at that next index. Three levels of 32 leaves, so that the
 * runs cross bottom-tree and middle-tree switches (new upper signatures) and restart inside them.
 */
class HssSignerCrashTest {
    static final HssParameterSet SET =
            HssParameterSet.uniform(HssTesting.lms("LMS_SHA256_M32_H5/LMOTS_SHA256_N32_W4"), 3);
    private static final Pattern SIG = Pattern.compile("sig-(\\d+)\\.bin");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void sigkillWhileSigning_batch1_noIndexReusedAndAllSignaturesVerify() throws Exception {
        Stats s = runKills(6, 1, false, 7);
        assertTrue(s.maxSkipped <= 1, "batch 1 lost more than one index in a crash: " + s);
    }

    @Test
    void sigkillWhileSigning_batch16ReservingAhead_noIndexReusedAndLossBounded() throws Exception {
        Stats s = runKills(4, 16, true, 8);
        assertTrue(s.maxSkipped <= 17, "batch 16 reserving ahead lost more than 17 indices in a crash: " + s);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch1_long() throws Exception {
        Stats s = runKills(200, 1, false, System.nanoTime());
        assertTrue(s.maxSkipped <= 1, s.toString());
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch1ReservingAhead_long() throws Exception {
        Stats s = runKills(200, 1, true, System.nanoTime());
        assertTrue(s.maxSkipped <= 2, s.toString());
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch16_long() throws Exception {
        Stats s = runKills(200, 16, false, System.nanoTime());
        assertTrue(s.maxSkipped <= 16, s.toString());
    }

    record Stats(int kills, int signatures, long finalNext, long skippedTotal, long maxSkipped, int early) {
        @Override
        public String toString() {
            return String.format(
                    "%d kills, %d signatures, final next index %d, %d indices burned unused (max %d in one crash), "
                            + "%d kills before the run's first signature",
                    kills, signatures, finalNext, skippedTotal, maxSkipped, early);
        }
    }

    private Stats runKills(int kills, int batch, boolean ahead, long seed) throws Exception {
        int maxLoss = ahead ? batch + 1 : batch;
        Random random = new Random(seed);
        HssPrivateKey key = HssTesting.key(SET, 31);
        HssVerifier verifier = new HssVerifier(key.publicKey(), SET);
        Path state = dir.resolve("key.state");
        Path sigs = Files.createDirectory(dir.resolve("sigs"));
        // Start a little before index 1024, where the middle and the bottom tree are replaced.
        long first = 1024 - 24;
        FileStateStore.create(
                        state,
                        HssKeyState.fresh(key)
                                .withRange(first, SET.maxSignatures())
                                .encode(),
                        TIMEOUT)
                .close();

        Set<Long> printed = new HashSet<>();
        Set<Long> verified = new HashSet<>();
        long previousNext = first;
        long skippedTotal = 0;
        long maxSkipped = 0;
        int early = 0;
        for (int k = 0; k < kills; k++) {
            String where = "seed " + seed + ", batch " + batch + (ahead ? " ahead" : "") + ", run " + k;
            ChildJvm child = HssSignerChild.start(
                    dir, "loop", state.toString(), sigs.toString(), Integer.toString(batch), ahead ? "ahead" : "sync");
            if (random.nextInt(6) == 0) {
                // Now and then kill while the JVM starts or rebuilds its trees.
                Thread.sleep(random.nextInt(600));
            } else {
                if (child.awaitLine(1, 120_000) == null) {
                    fail(where + ": child printed nothing; " + child.stderr());
                }
                Thread.sleep(random.nextInt(300));
            }
            if (!child.isAlive()) {
                fail(where + ": child died before it was killed; " + child.stderr());
            }
            child.kill();

            List<String> lines = child.lines();
            if (lines.isEmpty()) {
                early++;
            }
            long last = -1;
            for (int i = 0; i < lines.size(); i++) {
                long idx = Long.parseLong(lines.get(i));
                if (i == 0) {
                    assertEquals(previousNext, idx, where + ": first index of the run is not the stored next index");
                } else {
                    assertTrue(idx > last, where + ": index " + idx + " after " + last);
                }
                assertTrue(printed.add(idx), where + ": index " + idx + " printed twice");
                last = idx;
            }
            removeTempFiles(sigs);
            long next;
            try (FileStateStore store = FileStateStore.open(state, TIMEOUT)) {
                next = HssKeyState.decode(store.read()).nextIndex();
            }
            NavigableSet<Long> files = sigIndices(sigs);
            int newFiles = 0;
            for (long idx : files) {
                if (verified.contains(idx)) {
                    continue;
                }
                byte[] sig = Files.readAllBytes(HssSignerChild.sigFile(sigs, idx));
                assertEquals(idx, HssSignatures.index(SET, sig), where + ": file name vs embedded index");
                assertTrue(verifier.verify(HssSignerChild.message(idx), sig), where + ": signature " + idx);
                assertTrue(
                        idx >= previousNext && idx < next,
                        where + ": new signature " + idx + " outside [" + previousNext + ", " + next + ")");
                verified.add(idx);
                newFiles++;
            }
            assertTrue(files.containsAll(printed), where + ": a printed index has no signature file");
            long skipped = next - previousNext - newFiles;
            assertTrue(skipped >= 0 && skipped <= maxLoss, where + ": " + skipped + " indices burned unused");
            skippedTotal += skipped;
            maxSkipped = Math.max(maxSkipped, skipped);
            previousNext = next;
        }
        try (FileStateStore store = FileStateStore.open(state, TIMEOUT);
                HssStatefulSigner signer = HssStatefulSigner.open(
                        store, HssSignerOptions.defaults().withThreads(2))) {
            assertEquals(
                    previousNext, signer.signIndexed(HssSignerChild::message).index());
        }
        Stats stats = new Stats(kills, verified.size(), previousNext, skippedTotal, maxSkipped, early);
        System.out.println("HSS crash test (" + SET.setName() + ", batch " + batch + (ahead ? ", reserving ahead" : "")
                + ", seed " + seed + "): " + stats);
        return stats;
    }

    private static NavigableSet<Long> sigIndices(Path sigs) throws IOException {
        TreeSet<Long> out = new TreeSet<>();
        try (Stream<Path> s = Files.list(sigs)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Matcher m = SIG.matcher(p.getFileName().toString());
                if (m.matches()) {
                    out.add(Long.parseLong(m.group(1)));
                }
            }
        }
        return out;
    }

    private static final Pattern TEMP = Pattern.compile("\\..+\\.tmp-[0-9a-f]{16}");

    private static void removeTempFiles(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (TEMP.matcher(p.getFileName().toString()).matches()) {
                    Files.delete(p);
                }
            }
        }
    }
}
