package dev.pqsign.state;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.StatefulSigner;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Main class run in child JVMs by every stateful scheme's crash and multi-process tests:
 * {@code SigningChild OPENER MODE ARGS...}, OPENER the class name of the scheme's
 * {@link SignerOpener}. Every index is printed only after its signature file {@code sig-<index>.bin}
 * has been created durably (create-only, so an index signed twice makes the second write fail and the
 * child exit with status 4).
 *
 * <ul>
 *   <li>{@code loop STATE SIGDIR BATCH [ahead]}: signs until killed ({@code ahead}: reserving ahead).
 *   <li>{@code count STATE SIGDIR BATCH THREADS N GOFILE}: prints {@code READY}, waits for GOFILE, then
 *       THREADS threads, each with its own store and signer on STATE, sign N messages each; exits 0.
 *   <li>{@code hold STATE MILLIS}: takes the state's lock through an update that prints
 *       {@code HOLDING}, sleeps MILLIS and writes the state back unchanged.
 *   <li>{@code open STATE TIMEOUT_MS}: opens a signer with that lock timeout and signs one message into
 *       no file; prints {@code SIGNED <index>} or {@code ERROR <message>} (exit 3).
 * </ul>
 */
public final class SigningChild {
    private SigningChild() {}

    /**
     * Starts a child running this class with {@code opener}; 96 MB, as a signer's tree caches need
     * more than a bare store.
     */
    public static ChildJvm start(Class<? extends SignerOpener> opener, Path workDir, String... args)
            throws IOException {
        String[] all = new String[args.length + 1];
        all[0] = opener.getName();
        System.arraycopy(args, 0, all, 1, args.length);
        return ChildJvm.start(workDir, 96, SigningChild.class, all);
    }

    /** The message signed under {@code index}, so the parent can verify any signature file. */
    public static byte[] message(long index) {
        return ("crash-test reading " + index).getBytes(StandardCharsets.UTF_8);
    }

    /** The signature file of {@code index} in {@code dir}. */
    public static Path sigFile(Path dir, long index) {
        return dir.resolve("sig-" + index + ".bin");
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        // Our stdout carries only the protocol lines; anything else printed by library code goes to stderr.
        System.setOut(System.err);
        SignerOpener opener = opener(args[0]);
        String[] a = Arrays.copyOfRange(args, 1, args.length);
        Path state = Path.of(a[1]);
        switch (a[0]) {
            case "loop" ->
                loop(out, opener, state, Path.of(a[2]), Integer.parseInt(a[3]), a.length > 4 && a[4].equals("ahead"));
            case "count" ->
                count(
                        out,
                        opener,
                        state,
                        Path.of(a[2]),
                        Integer.parseInt(a[3]),
                        Integer.parseInt(a[4]),
                        Integer.parseInt(a[5]),
                        Path.of(a[6]));
            case "hold" -> hold(out, state, Long.parseLong(a[2]));
            case "open" -> open(out, opener, state, Long.parseLong(a[2]));
            default -> throw new IllegalArgumentException("unknown mode " + a[0]);
        }
    }

    /** A new instance of the opener class {@code name} (its no-argument constructor may be package-private). */
    static SignerOpener opener(String name) {
        try {
            Constructor<? extends SignerOpener> c =
                    Class.forName(name).asSubclass(SignerOpener.class).getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("cannot make a signer opener of class " + name, e);
        }
    }

    /**
     * Signs the next index, creates its signature file durably and only then prints the index; an
     * index signed twice halts the JVM with status 4.
     */
    public static void signAndRecord(StatefulSigner signer, Path sigDir, PrintStream out) throws IOException {
        IndexedSignature s = signer.signIndexed(SigningChild::message);
        try {
            DurableFiles.createAtomically(sigFile(sigDir, s.index()), s.signature());
        } catch (FileAlreadyExistsException e) {
            System.err.println("INDEX REUSED: " + s.index());
            System.err.flush();
            Runtime.getRuntime().halt(4);
        }
        synchronized (out) {
            out.println(s.index());
            out.flush();
        }
    }

    private static void loop(PrintStream out, SignerOpener opener, Path state, Path sigDir, int batch, boolean ahead)
            throws IOException {
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(60));
                StatefulSigner signer = opener.open(store, batch, 1, ahead)) {
            while (true) {
                signAndRecord(signer, sigDir, out);
            }
        }
    }

    private static void count(
            PrintStream out, SignerOpener opener, Path state, Path sigDir, int batch, int threads, int n, Path go)
            throws Exception {
        List<FileStateStore> stores = new ArrayList<>();
        List<StatefulSigner> signers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            FileStateStore store = FileStateStore.open(state, Duration.ofMinutes(2));
            stores.add(store);
            signers.add(opener.open(store, batch, 1, false));
        }
        ChildJvm.signalReadyAndAwaitGo(out, go, Duration.ofMinutes(2));
        List<Thread> workers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            StatefulSigner signer = signers.get(t);
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

    private static void hold(PrintStream out, Path state, long millis) throws IOException {
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(60))) {
            ChildJvm.holdLock(out, store, millis, cur -> cur);
        }
    }

    private static void open(PrintStream out, SignerOpener opener, Path state, long timeoutMillis) throws IOException {
        try (FileStateStore store = FileStateStore.open(state, Duration.ofMillis(timeoutMillis));
                StatefulSigner signer = opener.open(store, 1, 1, false)) {
            out.println("SIGNED " + signer.signIndexed(SigningChild::message).index());
            out.flush();
        } catch (RuntimeException e) {
            out.println("ERROR " + e.getMessage());
            out.flush();
            System.exit(3);
        }
    }
}
