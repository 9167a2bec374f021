package dev.pqsign.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The separate processes of a process test: {@code pqsign} (or another main class of the test class
 * path) in a child JVM whose standard output and error go to {@code NAME.out} and {@code NAME.err}
 * in the test's directory; whatever is still running at the end is killed.
 */
final class ChildProcesses {
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
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
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
