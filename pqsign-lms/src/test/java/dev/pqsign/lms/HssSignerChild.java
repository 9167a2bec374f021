package dev.pqsign.lms;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Main class run in child JVMs by the HSS crash and multi-process tests. Every index is printed only
 * after its signature file {@code sig-<index>.bin} has been created durably (create-only, so an index
 * signed twice makes the second write fail and the child exit with status 4).
 *
 * <ul>
 *   <li>{@code loop STATE SIGDIR BATCH [ahead]}: signs until killed ({@code ahead}: reserving ahead).
 *   <li>{@code count STATE SIGDIR BATCH THREADS N GOFILE}: prints {@code READY}, waits for GOFILE, then
 *       THREADS threads, each with its own store and signer on STATE, sign N messages each; exits 0.
 * </ul>
 */
public final class HssSignerChild {
    private HssSignerChild() {}

    /** Starts a child running this class. */
    static ChildJvm start(Path workDir, String... args) throws IOException {
        return ChildJvm.start(workDir, 96, HssSignerChild.class, args);
    }

    /** The message signed under {@code index}, so the parent can verify any signature file. */
    static byte[] message(long index) {
        return ("crash-test reading " + index).getBytes(StandardCharsets.UTF_8);
    }

    static Path sigFile(Path dir, long index) {
        return dir.resolve("sig-" + index + ".bin");
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        System.setOut(System.err);
        Path state = Path.of(args[1]);
        switch (args[0]) {
            case "loop" ->
                loop(
                        out,
                        state,
                        Path.of(args[2]),
                        Integer.parseInt(args[3]),
                        args.length > 4 && args[4].equals("ahead"));
            case "count" ->
                count(
                        out,
                        state,
                        Path.of(args[2]),
                        Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]),
                        Integer.parseInt(args[5]),
                        Path.of(args[6]));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    static void signAndRecord(HssStatefulSigner signer, Path sigDir, PrintStream out) throws Exception {
        IndexedSignature s = signer.signIndexed(HssSignerChild::message);
        try {
            DurableFiles.createAtomically(sigFile(sigDir, s.index()), s.signature());
        } catch (java.nio.file.FileAlreadyExistsException e) {
            System.err.println("INDEX REUSED: " + s.index());
            System.err.flush();
            Runtime.getRuntime().halt(4);
        }
        synchronized (out) {
            out.println(s.index());
            out.flush();
        }
    }

    private static void loop(PrintStream out, Path state, Path sigDir, int batch, boolean ahead) throws Exception {
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(60));
                HssStatefulSigner signer = HssStatefulSigner.open(
                        store,
                        HssSignerOptions.defaults()
                                .withBatch(batch)
                                .withThreads(1)
                                .withReserveAhead(ahead))) {
            while (true) {
                signAndRecord(signer, sigDir, out);
            }
        }
    }

    private static void count(PrintStream out, Path state, Path sigDir, int batch, int threads, int n, Path go)
            throws Exception {
        List<FileStateStore> stores = new ArrayList<>();
        List<HssStatefulSigner> signers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            FileStateStore store = FileStateStore.open(state, Duration.ofMinutes(2));
            stores.add(store);
            signers.add(HssStatefulSigner.open(
                    store, HssSignerOptions.defaults().withBatch(batch).withThreads(1)));
        }
        ChildJvm.signalReadyAndAwaitGo(out, go, Duration.ofMinutes(2));
        List<Thread> workers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            HssStatefulSigner signer = signers.get(t);
            Thread w = new Thread(() -> {
                try {
                    for (int i = 0; i < n; i++) {
                        signAndRecord(signer, sigDir, out);
                    }
                } catch (Throwable e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                }
            });
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        for (int t = 0; t < threads; t++) {
            signers.get(t).close();
            stores.get(t).close();
        }
        if (failure[0] != null) {
            failure[0].printStackTrace();
            System.exit(5);
        }
    }
}
