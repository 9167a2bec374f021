package dev.pqsign.xmss;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A child JVM running {@link SignerChild}. Output goes to files, not pipes, so every line a child
 * printed before a SIGKILL can still be read afterwards.
 */
final class SignerJvm {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private SignerJvm(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static SignerJvm start(Path workDir, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small, fast-starting JVMs: the tests spawn hundreds of them on a 2-core machine.
        cmd.add("-Xmx96m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(SignerChild.class.getName());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "child-", ".stdout");
        Path err = Files.createTempFile(workDir, "child-", ".stderr");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new SignerJvm(p, out, err);
    }

    private static String snapshot;

    /**
     * The test class path with every directory entry (target/classes, target/test-classes) replaced by
     * a private copy taken once per JVM: other builds in the same working tree may rewrite those
     * directories while children start, which made a child fail with NoClassDefFoundError.
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

    /** The {@code count}-th complete line, waiting for it; {@code null} on timeout or early exit. */
    String awaitLine(int count, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            List<String> lines = lines();
            if (lines.size() >= count) {
                return lines.get(count - 1);
            }
            if (!process.isAlive() && lines().size() < count || System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(2);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL (on Unix), then waits for the process to be gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Waits for a normal exit and returns the exit code. */
    int await(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child " + process.pid() + " did not finish in " + timeoutSeconds + " s; "
                    + stderr());
        }
        return process.exitValue();
    }

    /** The complete lines (terminated by a newline) the child has printed so far. */
    List<String> lines() {
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

    String stderr() {
        try {
            return "stderr of child: " + Files.readString(stderr);
        } catch (IOException e) {
            return "stderr unreadable: " + e;
        }
    }

    String stderrText() {
        try {
            return Files.readString(stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
