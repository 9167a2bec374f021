package dev.pqsign.xmss;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Main class run in child JVMs by the XMSS crash and multi-process tests. Every index is printed only
 * after its signature file {@code sig-<index>.bin} has been created durably (create-only, so an index
 * signed twice makes the second write fail and the child exit with status 4).
 *
 * <ul>
 *   <li>{@code loop STATE SIGDIR BATCH [ahead]}: signs until killed ({@code ahead}: reserving ahead).
 *   <li>{@code count STATE SIGDIR BATCH THREADS N GOFILE}: prints {@code READY}, waits for GOFILE, then
 *       THREADS threads, each with its own store and signer on STATE, sign N messages each; exits 0.
 *   <li>{@code hold STATE MILLIS}: takes the state's lock through an update that prints
 *       {@code HOLDING}, sleeps MILLIS and writes the state back unchanged.
 *   <li>{@code split STATE OUTDIR N PAUSE_MS}: splits STATE into N parts ({@code OUTDIR/part-i.state});
 *       prints {@code SHRUNK} when the original has been shrunk and sleeps PAUSE_MS before each part
 *       file is created, so that a kill can land between the durable steps; prints {@code DONE}.
 *   <li>{@code open STATE TIMEOUT_MS}: opens a signer with that lock timeout and signs one message into
 *       no file; prints {@code SIGNED <index>} or {@code ERROR <message>} (exit 3).
 * </ul>
 */
public final class SignerChild {
    private SignerChild() {}

    /** Starts a child running this class; 96 MB, as a signer's tree caches need more than a bare store. */
    static ChildJvm start(Path workDir, String... args) throws IOException {
        return ChildJvm.start(workDir, 96, SignerChild.class, args);
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
        // Our stdout carries only the protocol lines; anything else printed by library code goes to stderr.
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
            case "hold" -> hold(out, state, Long.parseLong(args[2]));
            case "open" -> open(out, state, Long.parseLong(args[2]));
            case "split" -> split(out, state, Path.of(args[2]), Integer.parseInt(args[3]), Long.parseLong(args[4]));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    static void signAndRecord(XmssStatefulSigner signer, Path sigDir, PrintStream out) throws Exception {
        IndexedSignature s = signer.signIndexed(SignerChild::message);
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
                XmssStatefulSigner signer = XmssStatefulSigner.open(
                        store,
                        Options.defaults().withBatch(batch).withThreads(1).withReserveAhead(ahead))) {
            while (true) {
                signAndRecord(signer, sigDir, out);
            }
        }
    }

    private static void count(PrintStream out, Path state, Path sigDir, int batch, int threads, int n, Path go)
            throws Exception {
        List<FileStateStore> stores = new ArrayList<>();
        List<XmssStatefulSigner> signers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            FileStateStore store = FileStateStore.open(state, Duration.ofMinutes(2));
            stores.add(store);
            signers.add(XmssStatefulSigner.open(
                    store, Options.defaults().withBatch(batch).withThreads(1)));
        }
        ChildJvm.signalReadyAndAwaitGo(out, go, Duration.ofMinutes(2));
        List<Thread> workers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            XmssStatefulSigner signer = signers.get(t);
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

    private static void hold(PrintStream out, Path state, long millis) throws Exception {
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(60))) {
            ChildJvm.holdLock(out, store, millis, cur -> cur);
        }
    }

    private static void split(PrintStream out, Path state, Path outDir, int parts, long pauseMillis) throws Exception {
        FilePartWriter files = new FilePartWriter(outDir) {
            @Override
            public void create(int part, byte[] encodedState) throws IOException {
                if (part == 2) {
                    out.println("SHRUNK");
                    out.flush();
                }
                try {
                    Thread.sleep(pauseMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                super.create(part, encodedState);
            }
        };
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(60))) {
            XmssKeySplit.split(store, parts, files);
        }
        out.println("DONE");
        out.flush();
    }

    private static void open(PrintStream out, Path state, long timeoutMillis) throws Exception {
        try (FileStateStore store = FileStateStore.open(state, Duration.ofMillis(timeoutMillis));
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(1))) {
            out.println("SIGNED " + signer.signIndexed(SignerChild::message).index());
            out.flush();
        } catch (RuntimeException e) {
            out.println("ERROR " + e.getMessage());
            out.flush();
            System.exit(3);
        }
    }
}
