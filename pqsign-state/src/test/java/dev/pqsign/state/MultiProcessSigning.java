package dev.pqsign.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.StatePersistenceException;
import dev.pqsign.core.StatefulSigner;
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
import java.util.stream.Stream;

/**
 * Several JVMs, and several signers per JVM, sign with one key file of any stateful scheme at the
 * same time. The store's lock makes each reservation an atomic read-modify-write across processes,
 * and every signer re-reads the file when it reserves (moving its caches to where the file says), so
 * no index is ever handed out twice and every signature verifies.
 */
public final class MultiProcessSigning {
    private MultiProcessSigning() {}

    /**
     * Three child JVMs (batches 1, 1 and 4) with two signers each, and two signers in this JVM, sign
     * {@code perThread} messages each on one key file created from {@code initialState}: all indices
     * are unique, every signature file verifies, the stored next index is above all of them, and at
     * most 3 indices per batch-4 signer are burned unused.
     */
    public static void signConcurrently(SignedKey key, Path dir, byte[] initialState, int perThread) throws Exception {
        Path state = dir.resolve("key.state");
        Path sigs = Files.createDirectory(dir.resolve("sigs"));
        Path go = dir.resolve("go");
        FileStateStore.create(state, initialState, Duration.ofSeconds(10)).close();

        int[] batches = {1, 1, 4};
        int threadsPerChild = 2;
        List<ChildJvm> children = new ArrayList<>();
        for (int batch : batches) {
            children.add(SigningChild.start(
                    key.opener(),
                    dir,
                    "count",
                    state.toString(),
                    sigs.toString(),
                    Integer.toString(batch),
                    Integer.toString(threadsPerChild),
                    Integer.toString(perThread),
                    go.toString()));
        }
        for (ChildJvm c : children) {
            assertEquals("READY", c.awaitLine(1, 120_000), c.stderr());
        }
        // Two more signers in this JVM, each with its own store object on the same file.
        ByteArrayOutputStream parentOut = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(parentOut, true, StandardCharsets.UTF_8);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> futures = new ArrayList<>();
        Files.createFile(go);
        for (int t = 0; t < 2; t++) {
            futures.add(pool.submit(() -> {
                try (FileStateStore store = FileStateStore.open(state, Duration.ofMinutes(2));
                        StatefulSigner signer = key.newOpener().open(store, 1, 1, false)) {
                    for (int i = 0; i < perThread; i++) {
                        SigningChild.signAndRecord(signer, sigs, ps);
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
            assertEquals(1 + threadsPerChild * perThread, lines.size(), c.stderr());
            for (String l : lines.subList(1, lines.size())) {
                all.add(Long.parseLong(l));
            }
        }
        for (String l : parentOut.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!l.isBlank()) {
                all.add(Long.parseLong(l.strip()));
            }
        }
        int expected = (batches.length * threadsPerChild + 2) * perThread;
        assertEquals(expected, all.size());
        Set<Long> unique = new HashSet<>(all);
        assertEquals(expected, unique.size(), "some index was handed out twice");

        try (Stream<Path> files = Files.list(sigs)) {
            List<Path> list = files.filter(p -> p.getFileName().toString().startsWith("sig-"))
                    .toList();
            assertEquals(expected, list.size());
        }
        long max = -1;
        for (long idx : unique) {
            byte[] sig = Files.readAllBytes(SigningChild.sigFile(sigs, idx));
            assertEquals(idx, key.signatureIndex(sig));
            assertTrue(key.verifies(SigningChild.message(idx), sig), "signature " + idx);
            max = Math.max(max, idx);
        }
        long next = key.nextIndex(Files.readAllBytes(state));
        assertTrue(next > max, "next index " + next + " not above highest used " + max);
        // Only the batch-4 signers can leave reserved indices unused (when another signer reserved
        // after them, their rest cannot be given back): at most 3 per such signer.
        long burnedUnused = next - key.nextIndex(initialState) - expected;
        assertTrue(burnedUnused >= 0 && burnedUnused <= 3L * threadsPerChild, "burned unused: " + burnedUnused);
        System.out.printf(
                "%s multi-process test: %d signatures from 3 JVMs x 2 signers + 2 signers in the parent, "
                        + "all unique and valid; next index %d, %d indices burned unused by batch-4 signers%n",
                key.scheme(), expected, next, burnedUnused);
    }

    /**
     * While another process holds the lock of a key file created from {@code initialState} (at
     * index 0), a signer here and a second process that opens the key both give up after their lock
     * timeout with a clear message, and nothing is burned: once the holder is killed, signing goes
     * on at index 1.
     */
    public static void lockHeldByAnotherProcess(SignedKey key, Path dir, byte[] initialState) throws Exception {
        Path state = dir.resolve("key.state");
        FileStateStore.create(state, initialState, Duration.ofSeconds(10)).close();
        try (FileStateStore store = FileStateStore.open(state, Duration.ofMillis(300));
                StatefulSigner signer = key.newOpener().open(store, 1, 2, false)) {
            assertEquals(0, signer.signIndexed(SigningChild::message).index());
            ChildJvm holder = SigningChild.start(key.opener(), dir, "hold", state.toString(), "60000");
            try {
                assertEquals("HOLDING", holder.awaitLine(1, 120_000), holder.stderr());
                long t0 = System.nanoTime();
                StatePersistenceException e =
                        assertThrows(StatePersistenceException.class, () -> signer.signIndexed(SigningChild::message));
                long waitedMs = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(waitedMs >= 290, "gave up after " + waitedMs + " ms");
                assertInstanceOf(StateLockTimeoutException.class, e.getCause());
                assertTrue(
                        e.getMessage().contains(store.stateFile().toString())
                                && e.getMessage().contains("locked by another process")
                                && e.getMessage().contains("waited 300 ms"),
                        e.getMessage());
                assertFalse(signer.isUsable(), "a signer whose reservation failed must not sign again");

                // A second process that wants the key meanwhile gets the same clear message.
                ChildJvm waiter = SigningChild.start(key.opener(), dir, "open", state.toString(), "300");
                assertEquals(3, waiter.await(120), waiter.stderr());
                String line = waiter.lines().get(0);
                assertTrue(
                        line.startsWith("ERROR ")
                                && line.contains("locked by another process")
                                && line.contains("waited 300 ms")
                                && line.contains("key.state"),
                        line);
                System.out.println(
                        key.scheme() + " lock timeout message seen by a second process: " + line.substring(6));
            } finally {
                holder.kill();
            }
        }
        // The kernel released the dead holder's lock; the failed attempts burned nothing.
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(10));
                StatefulSigner signer = key.newOpener().open(store, 1, 2, false)) {
            assertEquals(1, signer.nextIndex());
            IndexedSignature s = signer.signIndexed(SigningChild::message);
            assertEquals(1, s.index());
            assertTrue(key.verifies(SigningChild.message(1), s.signature()));
        }
        assertNotNull(Files.readAllBytes(state));
    }
}
