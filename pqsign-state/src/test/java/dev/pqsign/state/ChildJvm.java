package dev.pqsign.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running {@link StoreChild}. Its stdout goes to a file rather than a pipe: after a
 * SIGKILL every line the child had written is still in that file, whereas draining a pipe of a dead
 * process through {@link Process#getInputStream()} was observed to lose lines.
 */
final class ChildJvm {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildJvm(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static ChildJvm start(Path workDir, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small, fast-starting JVMs: the tests spawn dozens of them on a 2-core machine.
        cmd.add("-Xmx64m");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-Xshare:auto");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(StoreChild.class.getName());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "child-", ".stdout");
        Path err = Files.createTempFile(workDir, "child-", ".stderr");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new ChildJvm(p, out, err);
    }

    /**
     * Waits until the child has printed at least {@code count} complete lines and returns the
     * {@code count}-th; {@code null} on timeout or if the child exits first.
     */
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
}
