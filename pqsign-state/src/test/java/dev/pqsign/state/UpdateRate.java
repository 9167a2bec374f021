package dev.pqsign.state;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Measures fsync-bound update throughput on the disk holding the given directory (default: the
 * working directory). Not a test: run it by hand and copy the numbers into docs/state-durability.md.
 *
 * <pre>java -cp ... dev.pqsign.state.UpdateRate [DIR] [SECONDS]</pre>
 */
public final class UpdateRate {
    private UpdateRate() {}

    public static void main(String[] args) throws Exception {
        Path base = Path.of(args.length > 0 ? args[0] : ".");
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path dir = Files.createTempDirectory(base.toAbsolutePath(), "update-rate-");
        Path file = dir.resolve("key.state");
        byte[] payload = new byte[132]; // about the size of an XMSS^MT state record
        try (FileStateStore store = FileStateStore.create(file, Counter.encode(0), Duration.ofSeconds(10))) {
            for (int i = 0; i < 50; i++) {
                store.update(Counter::increment); // warm-up
            }
            long n = 0;
            long start = System.nanoTime();
            long end = start + Duration.ofSeconds(seconds).toNanos();
            while (System.nanoTime() < end) {
                store.update(Counter::increment);
                n++;
            }
            double secs = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "FileStateStore.update: %d updates in %.2f s = %.0f updates/s (%.3f ms each)%n",
                    n, secs, n / secs, secs * 1000 / n);
        }
        Path other = dir.resolve("plain.bin");
        long n = 0;
        long start = System.nanoTime();
        long end = start + Duration.ofSeconds(seconds).toNanos();
        while (System.nanoTime() < end) {
            DurableFiles.writeAtomically(other, payload);
            n++;
        }
        double secs = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "DurableFiles.writeAtomically (132 B, no locks): %.0f writes/s (%.3f ms each)%n",
                n / secs, secs * 1000 / n);
        // For comparison only: the same replace without the two fsyncs (NOT crash-safe).
        n = 0;
        start = System.nanoTime();
        end = start + Duration.ofSeconds(seconds).toNanos();
        Path tmp = dir.resolve("plain.tmp");
        while (System.nanoTime() < end) {
            Files.write(tmp, payload);
            Files.move(tmp, other, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            n++;
        }
        secs = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "same replace without fsync (comparison only): %.0f writes/s (%.3f ms each)%n",
                n / secs, secs * 1000 / n);
        try (var s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }
}
