package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.FileStateStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several JVMs, and several signers per JVM, sign with one HSS key file at the same time. The
 * store's lock makes each reservation an atomic read-modify-write across processes, and every signer
 * re-reads the file when it reserves (moving its trees to where the file says), so no index is ever
 * handed out twice and every signature verifies.
 */
class HssMultiProcessTest {
    private static final HssParameterSet SET = HssSignerCrashTest.SET;
    private static final int PER_THREAD = 20;

    @TempDir
    Path dir;

    @Test
    void threeProcessesAndParentThreads_signConcurrently_indicesUniqueAndAllVerify() throws Exception {
        HssPrivateKey key = HssTesting.key(SET, 41);
        Path state = dir.resolve("key.state");
        Path sigs = Files.createDirectory(dir.resolve("sigs"));
        Path go = dir.resolve("go");
        FileStateStore.create(state, HssKeyState.fresh(key).encode(), Duration.ofSeconds(10))
                .close();

        int[] batches = {1, 1, 4};
        int threadsPerChild = 2;
        List<ChildJvm> children = new ArrayList<>();
        for (int batch : batches) {
            children.add(HssSignerChild.start(
                    dir,
                    "count",
                    state.toString(),
                    sigs.toString(),
                    Integer.toString(batch),
                    Integer.toString(threadsPerChild),
                    Integer.toString(PER_THREAD),
                    go.toString()));
        }
        for (ChildJvm c : children) {
            assertEquals("READY", c.awaitLine(1, 120_000), c.stderr());
        }
        ByteArrayOutputStream parentOut = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(parentOut, true, StandardCharsets.UTF_8);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> futures = new ArrayList<>();
        Files.createFile(go);
        for (int t = 0; t < 2; t++) {
            futures.add(pool.submit(() -> {
                try (FileStateStore store = FileStateStore.open(state, Duration.ofMinutes(2));
                        HssStatefulSigner signer = HssStatefulSigner.open(
                                store, HssSignerOptions.defaults().withThreads(1))) {
                    for (int i = 0; i < PER_THREAD; i++) {
                        HssSignerChild.signAndRecord(signer, sigs, ps);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();
        List<Long> all = new ArrayList<>();
        for (ChildJvm c : children) {
            assertEquals(0, c.await(180), c.stderr());
            List<String> lines = c.lines();
            assertEquals(1 + threadsPerChild * PER_THREAD, lines.size(), c.stderr());
            for (String l : lines.subList(1, lines.size())) {
                all.add(Long.parseLong(l));
            }
        }
        for (String l : parentOut.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!l.isBlank()) {
                all.add(Long.parseLong(l.strip()));
            }
        }
        int expected = (batches.length * threadsPerChild + 2) * PER_THREAD;
        assertEquals(expected, all.size());
        Set<Long> unique = new HashSet<>(all);
        assertEquals(expected, unique.size(), "some index was handed out twice");
        HssVerifier verifier = new HssVerifier(key.publicKey(), SET);
        long max = -1;
        for (long idx : unique) {
            byte[] sig = Files.readAllBytes(HssSignerChild.sigFile(sigs, idx));
            assertEquals(idx, HssSignatures.index(SET, sig));
            assertTrue(verifier.verify(HssSignerChild.message(idx), sig), "signature " + idx);
            max = Math.max(max, idx);
        }
        long next = HssKeyState.decode(Files.readAllBytes(state)).nextIndex();
        assertTrue(next > max, "next index " + next + " not above highest used " + max);
        long burnedUnused = next - expected;
        assertTrue(burnedUnused >= 0 && burnedUnused <= 3L * threadsPerChild, "burned unused: " + burnedUnused);
        System.out.printf(
                "HSS multi-process test: %d signatures from 3 JVMs x 2 signers + 2 signers in the parent, all unique"
                        + " and valid; next index %d, %d burned unused by batch-4 signers%n",
                expected, next, burnedUnused);
    }
}
