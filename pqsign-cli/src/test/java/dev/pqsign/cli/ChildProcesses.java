package dev.pqsign.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The separate processes of a process test: {@code pqsign} (or another main class of the test class
 * path) in a child JVM whose standard output and error go to {@code NAME.out} and {@code NAME.err}
 * in the test's directory; whatever is still running at the end is killed. Also the waiting for a
 * command's output shared by the process tests and the tests that run a command in this JVM.
 */
final class ChildProcesses {
    /** Longest a test waits for a line from a command. */
    static final Duration AWAIT = Duration.ofMinutes(2);

    /** The line a sensor prints once it serves: {@code endpoint opc.tcp://HOST:PORT/PATH}. */
    static final Pattern ENDPOINT = Pattern.compile("endpoint (opc\\.tcp://\\S+)");

    private final Path dir;
    private final List<Process> started = new ArrayList<>();

    ChildProcesses(Path dir) {
        this.dir = dir;
    }

    /** Starts {@code pqsign ARGS} as {@code name}. */
    Process pqsign(String name, String... args) throws IOException {
        return java(name, PqsignCli.class, args);
    }

    /** Starts {@code main} with {@code args} as {@code name}. */
    Process java(String name, Class<?> main, String... args) throws IOException {
        return java(name, List.of(), main, args);
    }

    /** Starts {@code pqsign ARGS} as {@code name} in a JVM with {@code jvmOptions} (e.g. {@code -Xmx48m}). */
    Process pqsignWith(String name, List<String> jvmOptions, String... args) throws IOException {
        return java(name, jvmOptions, PqsignCli.class, args);
    }

    private Process java(String name, List<String> jvmOptions, Class<?> main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        Process proc = new ProcessBuilder(cmd)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile())
                .start();
        started.add(proc);
        return proc;
    }

    /** The standard output written so far by {@code name}. */
    String out(String name) throws IOException {
        Path f = dir.resolve(name + ".out");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    /** The ends of {@code name}'s output and error, for an assertion message. */
    String describe(String name) throws IOException {
        return name + " stdout:\n" + tail(out(name)) + "\n" + name + " stderr:\n"
                + tail(Files.readString(dir.resolve(name + ".err")));
    }

    /**
     * Waits until {@code name}'s output satisfies {@code condition} and returns that output; fails
     * with the ends of its output and error if the process ends first or {@link #AWAIT} passes.
     */
    String await(String name, Process proc, Predicate<String> condition) throws IOException, InterruptedException {
        return await(() -> out(name), proc::isAlive, condition, () -> describe(name));
    }

    /** Waits until the sensor {@code name} prints its endpoint line and returns the endpoint URL. */
    String endpoint(String name, Process sensor) throws IOException, InterruptedException {
        return endpoint(() -> out(name), sensor::isAlive, () -> describe(name));
    }

    /** What a running command printed so far (or a description of it, for an assertion message). */
    @FunctionalInterface
    interface Text {
        String read() throws IOException;
    }

    /**
     * Waits until {@code output} satisfies {@code condition} and returns it; fails with
     * {@code describe} if the command stops {@code running} first or {@link #AWAIT} passes.
     */
    static String await(Text output, BooleanSupplier running, Predicate<String> condition, Text describe)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (true) {
            boolean stillRunning = running.getAsBoolean(); // before reading: the last output counts too
            String out = output.read();
            if (condition.test(out)) {
                return out;
            }
            if (!stillRunning || System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached; " + describe.read());
            }
            Thread.sleep(50);
        }
    }

    /** Waits until a sensor's {@code output} holds its endpoint line and returns the endpoint URL. */
    static String endpoint(Text output, BooleanSupplier running, Text describe)
            throws IOException, InterruptedException {
        Matcher m = ENDPOINT.matcher(
                await(output, running, out -> ENDPOINT.matcher(out).find(), describe));
        if (!m.find()) {
            throw new AssertionError("no endpoint; " + describe.read());
        }
        return m.group(1);
    }

    /** SIGKILLs every process still running. */
    void killAll() {
        for (Process p : started) {
            p.destroyForcibly();
        }
    }

    static String tail(String s) {
        return s.length() > 4000 ? "…" + s.substring(s.length() - 4000) : s;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
