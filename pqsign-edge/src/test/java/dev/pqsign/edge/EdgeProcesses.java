package dev.pqsign.edge;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The processes of an edge test. The device side runs the edge distribution's own launcher,
 * {@code bin/pqsign-sensor} of the directory the build made (so its class path is exactly the
 * distribution's {@code lib/}); the plant side (operator, certificates) runs the full CLI as
 * pqsign-cli packaged it. Each process writes {@code NAME.out} and {@code NAME.err} in the test's
 * directory; whatever still runs at the end is killed.
 */
final class EdgeProcesses {
    /** Longest a test waits for a line from a process. */
    static final Duration AWAIT = Duration.ofMinutes(2);

    /** The line a sensor prints once it serves. */
    static final Pattern ENDPOINT = Pattern.compile("endpoint (opc\\.tcp://\\S+)");

    private final Path dir;
    private final List<Process> started = new ArrayList<>();

    EdgeProcesses(Path dir) {
        this.dir = dir;
    }

    /** The edge distribution's directory (target/pqsign-edge-VERSION), from the build. */
    static Path distribution() {
        return Path.of(property("pqsign.edge.dist"));
    }

    /** The distribution's launcher. */
    static Path launcher() {
        return distribution().resolve("bin").resolve("pqsign-sensor");
    }

    /** The full CLI's jar (pqsign-cli/target/pqsign.jar, its lib/ beside it). */
    static Path cliJar() {
        return Path.of(property("pqsign.cli.jar"));
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        if (v == null) {
            throw new IllegalStateException(name + " is not set: run these tests through Maven (pqsign-edge's POM)");
        }
        return v;
    }

    /** Starts {@code bin/pqsign-sensor ARGS} as {@code name}. */
    Process edge(String name, String... args) throws IOException {
        return edge(name, List.of(), Map.of(), args);
    }

    /**
     * Starts {@code bin/pqsign-sensor ARGS} as {@code name} behind {@code wrapper} (a command that
     * runs the rest of its command line, e.g. in a memory-limited cgroup; empty for none), with
     * {@code env} added to the environment.
     */
    Process edge(String name, List<String> wrapper, Map<String, String> env, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(launcher().toString());
        cmd.addAll(List.of(args));
        return command(name, cmd, env);
    }

    /**
     * Starts {@code cmd}, a command line that runs the launcher (e.g. through a shell or a
     * symlink), as {@code name}, in the environment {@link #edge} gives it plus {@code env}.
     */
    Process command(String name, List<String> cmd, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        // the launcher runs the java of JAVA_HOME: the one running these tests
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("JAVA_OPTS");
        pb.environment().remove("PQSIGN_JAVA_OPTS");
        pb.environment().putAll(env);
        return start(name, pb);
    }

    /** Starts {@code pqsign ARGS} of the full CLI as {@code name}. */
    Process plant(String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-jar");
        cmd.add(cliJar().toString());
        cmd.addAll(List.of(args));
        return start(name, new ProcessBuilder(cmd));
    }

    private Process start(String name, ProcessBuilder pb) throws IOException {
        Process p = pb.directory(dir.toFile())
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile())
                .start();
        started.add(p);
        return p;
    }

    /** Runs {@code bin/pqsign-sensor ARGS} to its end (at most two minutes) and returns its exit code. */
    int runEdge(String name, String... args) throws IOException, InterruptedException {
        return finish(name, edge(name, args));
    }

    /** Runs {@code pqsign ARGS} of the full CLI to its end (at most two minutes) and returns its exit code. */
    int runPlant(String name, String... args) throws IOException, InterruptedException {
        return finish(name, plant(name, args));
    }

    /** Waits for {@code p} (started as {@code name}) to end, at most two minutes; returns its exit code. */
    int finish(String name, Process p) throws IOException, InterruptedException {
        assertTrue(p.waitFor(AWAIT.toSeconds(), TimeUnit.SECONDS), name + " did not end; " + describe(name));
        return p.exitValue();
    }

    /** What {@code name} wrote to its standard output so far. */
    String out(String name) throws IOException {
        Path f = dir.resolve(name + ".out");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    /** What {@code name} wrote to its standard error so far. */
    String err(String name) throws IOException {
        Path f = dir.resolve(name + ".err");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    /** The ends of {@code name}'s output and error, for an assertion message. */
    String describe(String name) throws IOException {
        return name + " stdout:\n" + tail(out(name)) + "\n" + name + " stderr:\n" + tail(err(name));
    }

    /**
     * Waits until {@code name}'s output satisfies {@code condition} and returns it; fails with the
     * ends of its output and error if the process ends first or {@link #AWAIT} passes.
     */
    String await(String name, Process p, Predicate<String> condition) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (true) {
            boolean alive = p.isAlive(); // before reading: the last output counts too
            String out = out(name);
            if (condition.test(out)) {
                return out;
            }
            if (!alive || System.nanoTime() > deadline) {
                throw new AssertionError("condition not reached; " + describe(name));
            }
            Thread.sleep(20);
        }
    }

    /** Waits for the sensor {@code name}'s endpoint line and returns the endpoint URL. */
    String endpoint(String name, Process sensor) throws IOException, InterruptedException {
        Matcher m = ENDPOINT.matcher(
                await(name, sensor, out -> ENDPOINT.matcher(out).find()));
        assertTrue(m.find());
        return m.group(1);
    }

    /** SIGKILLs every process still running. */
    void killAll() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
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
