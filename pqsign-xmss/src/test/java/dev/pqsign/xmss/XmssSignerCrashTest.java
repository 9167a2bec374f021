package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
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
 * SIGKILLs a child JVM that signs in a loop with the durable XMSS^MT signer, at random moments, and
 * restarts it. After every kill: every signature file verifies and carries the index of its name, no
 * index was printed or written twice across all runs, every used index lies below the state's next
 * index, and the next run starts exactly at that next index. Counts the indices that a crash burned
 * without using them.
 */
class XmssSignerCrashTest {
    private static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_20_4_256;
    private static final Pattern SIG = Pattern.compile("sig-(\\d+)\\.bin");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void sigkillWhileSigning_batch1_noIndexReusedAndAllSignaturesVerify() throws Exception {
        Stats s = runKills(15, 1, 7);
        assertTrue(s.maxSkipped <= 1, "batch 1 lost more than one index in a crash: " + s);
    }

    @Test
    void sigkillWhileSigning_batch16_noIndexReusedAndLossBoundedByBatch() throws Exception {
        Stats s = runKills(8, 16, 8);
        assertTrue(s.maxSkipped <= 16, "batch 16 lost more than 16 indices in a crash: " + s);
    }

    @Test
    void sigkillWhileSigning_batch1ReservingAhead_noIndexReusedAndAtMostOneMoreLost() throws Exception {
        // The next index is reserved in the background right after a signature: a kill can burn it
        // besides the one whose signature file was not written yet.
        Stats s = runKills(10, 1, true, 9);
        assertTrue(s.maxSkipped <= 2, "batch 1 reserving ahead lost more than two indices in a crash: " + s);
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch1ReservingAhead_long() throws Exception {
        Stats s = runKills(200, 1, true, System.nanoTime());
        assertTrue(s.maxSkipped <= 2, s.toString());
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch1_long() throws Exception {
        Stats s = runKills(200, 1, System.nanoTime());
        assertTrue(s.maxSkipped <= 1, s.toString());
    }

    @Test
    @EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
    void sigkillWhileSigning_batch16_long() throws Exception {
        Stats s = runKills(200, 16, System.nanoTime());
        assertTrue(s.maxSkipped <= 16, s.toString());
    }

    /** Summary of one crash run. */
    record Stats(
            int kills,
            int signatures,
            long finalNext,
            long skippedTotal,
            long maxSkipped,
            int[] histogram,
            int killsBeforeFirstSignature,
            int leftTempFiles) {
        @Override
        public String toString() {
            StringBuilder h = new StringBuilder();
            for (int i = 0; i < histogram.length; i++) {
                if (histogram[i] > 0) {
                    h.append(h.length() == 0 ? "" : ", ").append(i).append(':').append(histogram[i]);
                }
            }
            return String.format(
                    "%d kills, %d signatures, final next index %d, %d indices burned unused "
                            + "(%.2f per crash, max %d; histogram skipped:crashes {%s}), %d kills before the run's first "
                            + "signature, %d kills left a temporary file",
                    kills,
                    signatures,
                    finalNext,
                    skippedTotal,
                    (double) skippedTotal / kills,
                    maxSkipped,
                    h,
                    killsBeforeFirstSignature,
                    leftTempFiles);
        }
    }

    private Stats runKills(int kills, int batch, long seed) throws Exception {
        return runKills(kills, batch, false, seed);
    }

    private Stats runKills(int kills, int batch, boolean ahead, long seed) throws Exception {
        // A kill loses the signature in flight plus the unused reservation: at most batch - 1 unused
        // indices when reserving synchronously, a whole batch when the next one was reserved ahead.
        int maxLoss = ahead ? batch + 1 : batch;
        Random random = new Random(seed);
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 31);
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        Path state = dir.resolve("key.state");
        Path sigs = Files.createDirectory(dir.resolve("sigs"));
        FileStateStore.create(state, XmssKeyState.fresh(key).encode(), TIMEOUT).close();

        Set<Long> printed = new HashSet<>();
        Set<Long> verified = new HashSet<>();
        long previousNext = 0;
        long skippedTotal = 0;
        long maxSkipped = 0;
        int[] histogram = new int[maxLoss + 2];
        int early = 0;
        int leftTemp = 0;
        for (int k = 0; k < kills; k++) {
            String where = "seed " + seed + ", batch " + batch + (ahead ? " ahead" : "") + ", run " + k;
            ChildJvm child = SignerChild.start(
                    dir, "loop", state.toString(), sigs.toString(), Integer.toString(batch), ahead ? "ahead" : "sync");
            if (random.nextInt(8) == 0) {
                // Now and then kill while the JVM starts or rebuilds its caches.
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
            // Temporary files of an interrupted state or signature write; the signature ones are
            // removed here so that each kill is counted on its own.
            if (removeTempFiles(sigs) + countTempFiles(dir) > 0) {
                leftTemp++;
            }
            long next;
            try (FileStateStore store = FileStateStore.open(state, TIMEOUT)) {
                next = XmssKeyState.decode(store.read()).nextIndex();
            }
            NavigableSet<Long> files = sigIndices(sigs);
            int newFiles = 0;
            for (long idx : files) {
                if (verified.contains(idx)) {
                    continue;
                }
                byte[] sig = Files.readAllBytes(SignerChild.sigFile(sigs, idx));
                assertEquals(idx, XmssSignatures.index(SET, sig), where + ": file name vs embedded index");
                assertTrue(verifier.verify(SignerChild.message(idx), sig), where + ": signature " + idx);
                assertTrue(
                        idx >= previousNext && idx < next,
                        where + ": new signature " + idx + " outside the range [" + previousNext + ", " + next
                                + ") burned by this run");
                verified.add(idx);
                newFiles++;
            }
            assertTrue(files.containsAll(printed), where + ": a printed index has no signature file");
            assertTrue(
                    next > (files.isEmpty() ? -1 : files.last()),
                    where + ": state next index " + next + " is not above the highest used index " + files.last());
            long skipped = next - previousNext - newFiles;
            assertTrue(skipped >= 0 && skipped <= maxLoss, where + ": " + skipped + " indices burned unused");
            skippedTotal += skipped;
            maxSkipped = Math.max(maxSkipped, skipped);
            histogram[(int) skipped]++;
            previousNext = next;
        }
        // Signing resumes after the highest burned index.
        try (FileStateStore store = FileStateStore.open(state, TIMEOUT);
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            long idx = signer.signIndexed(SignerChild::message).index();
            assertEquals(previousNext, idx);
        }
        Stats stats =
                new Stats(kills, verified.size(), previousNext, skippedTotal, maxSkipped, histogram, early, leftTemp);
        System.out.println("XMSS crash test (" + SET.setName() + ", batch " + batch + (ahead ? ", reserving ahead" : "")
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

    private static long countTempFiles(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.filter(p -> TEMP.matcher(p.getFileName().toString()).matches())
                    .count();
        }
    }

    private static int removeTempFiles(Path d) throws IOException {
        int n = 0;
        try (Stream<Path> s = Files.list(d)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (TEMP.matcher(p.getFileName().toString()).matches()) {
                    Files.delete(p);
                    n++;
                }
            }
        }
        return n;
    }
}
