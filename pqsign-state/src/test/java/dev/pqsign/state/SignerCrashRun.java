package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pqsign.core.StatefulSigner;
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

/**
 * SIGKILLs a {@link SigningChild} that signs in a loop with a durable stateful signer, at random
 * moments, and restarts it, for any scheme's crash test. After every kill: every signature file
 * verifies and carries the index of its name, no index was printed or written twice across all runs,
 * every used index lies below the state's next index, and the next run starts exactly at that next
 * index. Counts the indices that a crash burned without using them; at the end a signer opened in
 * this JVM resumes exactly at the last stored next index.
 */
public final class SignerCrashRun {
    private static final Pattern SIG = Pattern.compile("sig-(\\d+)\\.bin");
    private static final Pattern TEMP = Pattern.compile("\\..+\\.tmp-[0-9a-f]{16}");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final SignedKey key;
    private final Path dir;
    private final byte[] initialState;
    private final int earlyKillOneIn;

    /**
     * @param dir an empty directory for the state file, the signature files and the children's output
     * @param initialState the key state the first run starts from
     * @param earlyKillOneIn one run in this many is killed at a random moment of its start (JVM start,
     *     tree rebuild) instead of after its first signature
     */
    public SignerCrashRun(SignedKey key, Path dir, byte[] initialState, int earlyKillOneIn) {
        this.key = key;
        this.dir = dir;
        this.initialState = initialState.clone();
        this.earlyKillOneIn = earlyKillOneIn;
    }

    /** Summary of one crash run. */
    public record Stats(
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

    /**
     * Runs {@code kills} kill-and-restart rounds.
     *
     * @param batch the children's batch size
     * @param ahead whether the children reserve ahead
     * @param seed the seed of the kill moments (printed in every failure message)
     */
    public Stats run(int kills, int batch, boolean ahead, long seed) throws Exception {
        // A kill loses the signature in flight plus the unused reservation: at most batch - 1 unused
        // indices when reserving synchronously, a whole batch when the next one was reserved ahead.
        int maxLoss = ahead ? batch + 1 : batch;
        Random random = new Random(seed);
        Path state = dir.resolve("key.state");
        Path sigs = Files.createDirectory(dir.resolve("sigs"));
        FileStateStore.create(state, initialState, TIMEOUT).close();

        Set<Long> printed = new HashSet<>();
        Set<Long> verified = new HashSet<>();
        long previousNext = key.nextIndex(initialState);
        long skippedTotal = 0;
        long maxSkipped = 0;
        int[] histogram = new int[maxLoss + 2];
        int early = 0;
        int leftTemp = 0;
        for (int k = 0; k < kills; k++) {
            String where = "seed " + seed + ", batch " + batch + (ahead ? " ahead" : "") + ", run " + k;
            List<String> lines = killOneRun(where, random, state, sigs, batch, ahead);
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
                next = key.nextIndex(store.read());
            }
            NavigableSet<Long> files = sigIndices(sigs);
            int newFiles = 0;
            for (long idx : files) {
                if (verified.add(idx)) {
                    checkNewSignature(where, sigs, idx, previousNext, next);
                    newFiles++;
                }
            }
            assertTrue(files.containsAll(printed), where + ": a printed index has no signature file");
            long highest = files.isEmpty() ? -1 : files.last();
            assertTrue(
                    next > highest,
                    where + ": state next index " + next + " is not above the highest used index " + highest);
            long skipped = next - previousNext - newFiles;
            assertTrue(skipped >= 0 && skipped <= maxLoss, where + ": " + skipped + " indices burned unused");
            skippedTotal += skipped;
            maxSkipped = Math.max(maxSkipped, skipped);
            histogram[(int) skipped]++;
            previousNext = next;
        }
        // Signing resumes after the highest burned index.
        try (FileStateStore store = FileStateStore.open(state, TIMEOUT);
                StatefulSigner signer = key.newOpener().open(store, 1, 2, false)) {
            assertEquals(previousNext, signer.signIndexed(SigningChild::message).index());
        }
        Stats stats =
                new Stats(kills, verified.size(), previousNext, skippedTotal, maxSkipped, histogram, early, leftTemp);
        System.out.println(key.scheme() + " crash test (" + key.setName() + ", batch " + batch
                + (ahead ? ", reserving ahead" : "") + ", seed " + seed + "): " + stats);
        return stats;
    }

    /** Starts a child, kills it at a random moment and returns the indices it printed. */
    private List<String> killOneRun(String where, Random random, Path state, Path sigs, int batch, boolean ahead)
            throws Exception {
        ChildJvm child = SigningChild.start(
                key.opener(),
                dir,
                "loop",
                state.toString(),
                sigs.toString(),
                Integer.toString(batch),
                ahead ? "ahead" : "sync");
        if (random.nextInt(earlyKillOneIn) == 0) {
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
        return child.lines();
    }

    private void checkNewSignature(String where, Path sigs, long idx, long previousNext, long next) throws IOException {
        byte[] sig = Files.readAllBytes(SigningChild.sigFile(sigs, idx));
        assertEquals(idx, key.signatureIndex(sig), where + ": file name vs embedded index");
        assertTrue(key.verifies(SigningChild.message(idx), sig), where + ": signature " + idx);
        assertTrue(
                idx >= previousNext && idx < next,
                where + ": new signature " + idx + " outside the range [" + previousNext + ", " + next
                        + ") burned by this run");
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
