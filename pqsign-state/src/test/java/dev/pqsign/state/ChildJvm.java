package dev.pqsign.state;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A child JVM running {@link StoreChild}, with its stdout lines collected as they arrive. */
final class ChildJvm {
    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> fresh = new LinkedBlockingQueue<>();
    private final List<String> all = new ArrayList<>();
    private final Thread reader;

    private ChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(this::pump, "child-stdout-" + process.pid());
        reader.setDaemon(true);
        reader.start();
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
        Path err = Files.createTempFile(workDir, "child-", ".stderr");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        return new ChildJvm(p, err);
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (all) {
                    all.add(line);
                }
                fresh.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for the next stdout line; {@code null} on timeout. */
    String nextLine(long timeoutMillis) throws InterruptedException {
        return fresh.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** SIGKILL (on Unix), then waits for the process to die and for its stdout to be drained. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
        reader.join(TimeUnit.SECONDS.toMillis(30));
    }

    /** Waits for a normal exit and returns the exit code, draining stdout. */
    int await(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("child " + process.pid() + " did not finish in " + timeoutSeconds + " s; "
                    + stderr());
        }
        reader.join(TimeUnit.SECONDS.toMillis(30));
        return process.exitValue();
    }

    /** All stdout lines received so far. */
    List<String> lines() {
        synchronized (all) {
            return new ArrayList<>(all);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String stderr() {
        try {
            return "stderr of child: " + Files.readString(stderr);
        } catch (IOException e) {
            return "stderr unreadable: " + e;
        }
    }
}
