package dev.pqsign.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** A per-JVM scratch directory for the targets that need files, deleted when the JVM exits. */
final class ScratchDirectory {
    private ScratchDirectory() {}

    /**
     * A new directory on tmpfs ({@code /dev/shm}) where there is one — the targets exercise the
     * parsing and the replay logic, not the disk — else in the default temporary directory.
     */
    static Path create(String prefix) {
        try {
            Path shm = Paths.get("/dev/shm");
            Path dir = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, prefix)
                    : Files.createTempDirectory(prefix);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    SeedCorpus.deleteTree(dir);
                } catch (IOException | UncheckedIOException e) {
                    // best effort at exit
                }
            }));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
