package dev.pqsign.edge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A real memory limit (memory and swap together) for a child process, the way a device would set
 * one: a memory cgroup. In order of preference: a transient systemd scope ({@code systemd-run
 * --scope -p MemoryMax=… -p MemorySwapMax=0}) where systemd runs; else, on a cgroup v1 host, a child
 * of this process's own memory cgroup ({@code memory.limit_in_bytes} and
 * {@code memory.memsw.limit_in_bytes}), nested so every limit above still applies. Without either
 * there is none: {@code ulimit -v} limits address space, not memory, and a JVM reserves far more
 * address space than it uses, so it is not a substitute.
 */
final class MemoryLimit implements AutoCloseable {
    /** How the limit is set. */
    enum Kind {
        SYSTEMD_SCOPE,
        CGROUP_V1
    }

    private final Kind kind;
    private final long bytes;
    /** v1: the cgroup directory; systemd: the scope's name. */
    private final String where;

    private MemoryLimit(Kind kind, long bytes, String where) {
        this.kind = kind;
        this.bytes = bytes;
        this.where = where;
    }

    /** A limit of {@code bytes} named {@code name}, or empty if this machine offers no way to set one. */
    static Optional<MemoryLimit> create(String name, long bytes) throws IOException, InterruptedException {
        if (run("systemd-run", "--scope", "--quiet", "-p", "MemoryMax=" + bytes, "true") == 0) {
            return Optional.of(new MemoryLimit(Kind.SYSTEMD_SCOPE, bytes, name + ".scope"));
        }
        Optional<Path> own = ownV1MemoryCgroup();
        if (own.isPresent() && Files.isWritable(own.get())) {
            Path cg = own.get().resolve(name);
            Files.createDirectory(cg);
            write(cg.resolve("memory.limit_in_bytes"), bytes);
            Path memsw = cg.resolve("memory.memsw.limit_in_bytes");
            if (Files.exists(memsw)) {
                write(memsw, bytes);
            }
            return Optional.of(new MemoryLimit(Kind.CGROUP_V1, bytes, cg.toString()));
        }
        return Optional.empty();
    }

    private static Optional<Path> ownV1MemoryCgroup() throws IOException {
        Path self = Path.of("/proc/self/cgroup");
        if (!Files.exists(self) || !Files.isDirectory(Path.of("/sys/fs/cgroup/memory"))) {
            return Optional.empty();
        }
        for (String line : Files.readAllLines(self)) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
                return Optional.of(Path.of("/sys/fs/cgroup/memory" + f[2]));
            }
        }
        return Optional.empty();
    }

    Kind kind() {
        return kind;
    }

    long bytes() {
        return bytes;
    }

    /** The command that runs the rest of a command line inside the limit. */
    List<String> wrapper() {
        if (kind == Kind.SYSTEMD_SCOPE) {
            return List.of(
                    "systemd-run",
                    "--scope",
                    "--quiet",
                    "--unit=" + where,
                    "-p",
                    "MemoryMax=" + bytes,
                    "-p",
                    "MemorySwapMax=0");
        }
        // the shell moves itself into the cgroup, then becomes the command: the JVM starts inside
        return List.of("/bin/sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"", where);
    }

    /** The cgroup directory (while the limited process runs, for a systemd scope). */
    private Path dir() throws IOException, InterruptedException {
        if (kind == Kind.CGROUP_V1) {
            return Path.of(where);
        }
        Process p = new ProcessBuilder("systemctl", "show", "-P", "ControlGroup", where)
                .redirectErrorStream(true)
                .start();
        String cg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(30, TimeUnit.SECONDS);
        Path v2 = Path.of("/sys/fs/cgroup" + cg);
        return Files.exists(v2.resolve("memory.current")) ? v2 : Path.of("/sys/fs/cgroup/memory" + cg);
    }

    private boolean v2(Path d) {
        return Files.exists(d.resolve("memory.current"));
    }

    /** The limit as the kernel has it, in bytes. */
    long effectiveLimit() throws IOException, InterruptedException {
        Path d = dir();
        return readLong(d.resolve(v2(d) ? "memory.max" : "memory.limit_in_bytes"));
    }

    /** Memory charged to the cgroup now (process memory, page cache, kernel memory). */
    long usage() throws IOException, InterruptedException {
        Path d = dir();
        return readLong(d.resolve(v2(d) ? "memory.current" : "memory.usage_in_bytes"));
    }

    /** The most memory charged so far, or -1 if the kernel does not say (cgroup v2 before Linux 5.19). */
    long peak() throws IOException, InterruptedException {
        Path d = dir();
        Path f = d.resolve(v2(d) ? "memory.peak" : "memory.max_usage_in_bytes");
        return Files.exists(f) ? readLong(f) : -1;
    }

    /** Anonymous memory (heap, stacks, malloc: what cannot be reclaimed without swap) charged now. */
    long anonymous() throws IOException, InterruptedException {
        Path d = dir();
        return stat(d.resolve("memory.stat"), v2(d) ? "anon" : "rss");
    }

    /** Processes of the cgroup the OOM killer ended. */
    long oomKills() throws IOException, InterruptedException {
        Path d = dir();
        return v2(d) ? stat(d.resolve("memory.events"), "oom_kill") : stat(d.resolve("memory.oom_control"), "oom_kill");
    }

    /** How often the cgroup reached its limit (the kernel then reclaimed page cache). */
    long limitReached() throws IOException, InterruptedException {
        Path d = dir();
        return v2(d) ? stat(d.resolve("memory.events"), "max") : readLong(d.resolve("memory.failcnt"));
    }

    private static long stat(Path file, String key) throws IOException {
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split(" ");
            if (f.length == 2 && f[0].equals(key)) {
                return Long.parseLong(f[1]);
            }
        }
        return 0;
    }

    private static long readLong(Path f) throws IOException {
        String s = Files.readString(f).strip();
        return s.equals("max") ? Long.MAX_VALUE : Long.parseLong(s);
    }

    private static void write(Path f, long value) throws IOException {
        Files.writeString(f, Long.toString(value));
    }

    private static int run(String... cmd) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (IOException notInstalled) {
            return -1;
        }
    }

    /** Removes a v1 cgroup once its processes have ended (systemd removes its scopes itself). */
    @Override
    public void close() throws IOException {
        if (kind != Kind.CGROUP_V1) {
            return;
        }
        Path d = Path.of(where);
        for (int i = 0; i < 100 && Files.exists(d); i++) {
            try {
                Files.delete(d);
            } catch (IOException stillInUse) {
                LockSupport.parkNanos(100_000_000L); // its last process is still exiting
            }
        }
    }

    @Override
    public String toString() {
        return (kind == Kind.SYSTEMD_SCOPE ? "systemd scope " : "cgroup v1 ") + where + ", " + (bytes >> 20) + " MiB";
    }

    /** The lines of a few key files of the cgroup, for a failure message. */
    List<String> describe() {
        List<String> out = new ArrayList<>();
        try {
            out.add(this + ": usage " + usage() + ", peak " + peak() + ", anonymous " + anonymous() + ", limit reached "
                    + limitReached() + " times, OOM kills " + oomKills());
        } catch (IOException | InterruptedException | RuntimeException e) {
            out.add(this + ": " + e);
        }
        return out;
    }
}
