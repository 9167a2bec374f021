package dev.pqsign.state;

import dev.pqsign.core.StateStore;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A child JVM running a test's main class (pqsign-state's {@link StoreChild}, the stateful schemes'
 * {@link SigningChild}), for the SIGKILL crash tests and the multi-process tests. Shared through this
 * module's test-jar so that every module's tests launch, kill and read children the same way.
 *
 * <p>Its stdout goes to a file rather than a pipe: after a SIGKILL every line the child had written
 * is still in that file, whereas draining a pipe of a dead process through
 * {@link Process#getInputStream()} was observed to lose lines.
 */
public final class ChildJvm {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildJvm(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * Starts {@code mainClass} with {@code args} in a new JVM on this JVM's test class path; its
     * stdout and stderr go to fresh files in {@code workDir}.
     *
     * @param maxHeapMegabytes the child's -Xmx: each child main class knows how much it needs
     */
    public static ChildJvm start(Path workDir, int maxHeapMegabytes, Class<?> mainClass, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small, fast-starting JVMs: the tests spawn hundreds of them on a 2-core machine.
        cmd.add("-Xmx" + maxHeapMegabytes + "m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(mainClass.getName());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "child-", ".stdout");
        Path err = Files.createTempFile(workDir, "child-", ".stderr");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new ChildJvm(p, out, err);
    }

    /**
     * Child side of the start line used by the multi-process tests: prints {@code READY} (the
     * parent waits for it from every child), then waits until the parent creates {@code go}, so that
     * all children really run at the same time.
     */
    public static void signalReadyAndAwaitGo(PrintStream out, Path go, Duration timeout) throws InterruptedException {
        out.println("READY");
        out.flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Files.exists(go)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no go file " + go + " after " + timeout.toSeconds() + " s");
            }
            Thread.sleep(1);
        }
    }

    /**
     * Child side of the lock tests: one update of {@code store} whose function prints {@code HOLDING}
     * (the parent waits for it) and then sleeps {@code millis} while the store's lock is held, and
     * writes back {@code result} applied to the state read; prints {@code DONE} once that is durable.
     */
    public static void holdLock(PrintStream out, StateStore store, long millis, StateStore.StateUpdate result)
            throws IOException {
        store.update(cur -> {
            out.println("HOLDING");
            out.flush();
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return result.apply(cur);
        });
        out.println("DONE");
        out.flush();
    }

    private static String snapshot;

    /**
     * The test class path with every directory entry (target/classes, target/test-classes, and a
     * reactor module's test-classes standing in for its test-jar) replaced by a private copy taken
     * once per JVM: other builds in the same working tree may rewrite those directories while
     * children start, which made a child fail with NoClassDefFoundError.
     */
    static synchronized String classPath() throws IOException {
        if (snapshot != null) {
            return snapshot;
        }
        Path root = Files.createTempDirectory("pqsign-child-cp-");
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                Path copy = root.resolve("dir" + i++);
                copyTree(p, copy);
                entries.add(copy.toString());
            } else {
                entries.add(entry);
            }
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root)));
        snapshot = String.join(File.pathSeparator, entries);
        return snapshot;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp directory
        }
    }

    /**
     * Waits until the child has printed at least {@code count} complete lines and returns the
     * {@code count}-th; {@code null} on timeout or if the child exits first.
     */
    public String awaitLine(int count, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            List<String> lines = lines();
            if (lines.size() >= count) {
                return lines.get(count - 1);
            }
            if ((!process.isAlive() && lines().size() < count) || System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(2);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL (on Unix), then waits for the process to be gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Waits for a normal exit and returns the exit code. */
    public int await(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    "child " + process.pid() + " did not finish in " + timeoutSeconds + " s; " + stderr());
        }
        return process.exitValue();
    }

    /** The complete lines (terminated by a newline) the child has printed so far. */
    public List<String> lines() {
        String text;
        try {
            text = Files.readString(stdout, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> result = new ArrayList<>();
        int start = 0;
        int nl;
        while ((nl = text.indexOf('\n', start)) >= 0) {
            result.add(text.substring(start, nl).strip());
            start = nl + 1;
        }
        return result;
    }

    /** The child's stderr with a label, for assertion messages. */
    public String stderr() {
        try {
            return "stderr of child: " + Files.readString(stderr);
        } catch (IOException e) {
            return "stderr unreadable: " + e;
        }
    }

    /** The child's stderr as it is, for assertions on what the child reported. */
    public String stderrText() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
