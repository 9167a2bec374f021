package dev.pqsign.keys;

import static dev.pqsign.keys.SensorKeyDirectory.GENERATIONS;
import static dev.pqsign.keys.SensorKeyDirectory.HANDOVER_LOG;
import static dev.pqsign.keys.SensorKeyDirectory.STATE;

import dev.pqsign.state.DurableFiles;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;

/**
 * What opening a key directory does before its current key signs (docs/key-directory.md): removes
 * what a crash left half made, destroys the state of every retired generation, and finishes an
 * interrupted compaction, so that no index of any key is ever reused.
 */
final class CrashRecovery {
    private CrashRecovery() {}

    /**
     * Recovers the key directory {@code dir} (owned by this process) and finds its generations.
     *
     * @return the generations as they are once recovered
     */
    static Generations recover(Path dir, PqPublicKey firstKey) throws IOException {
        deleteTemporaryDirectories(dir);
        // A first compaction that crashed while creating the log leaves its temporary file.
        DurableFiles.deleteLeftoverTemps(dir.resolve(HANDOVER_LOG));
        Generations found = Generations.scan(dir, firstKey);
        for (var e : found.dirs().headMap(found.current()).entrySet()) {
            StateDestruction.destroy(e.getValue().resolve(STATE));
        }
        if (found.current() > 0) {
            StateDestruction.destroy(dir.resolve(STATE)); // generation 0 lives in the directory itself
        }
        if (found.log() != null) {
            found.log().cutTail(); // scan made sure its generation is still in its directory
            finishCompaction(dir, found);
        }
        return found;
    }

    /** Removes the directories of generations already in the log (a compaction interrupted after its first step). */
    private static void finishCompaction(Path dir, Generations found) throws IOException {
        NavigableMap<Long, Path> logged = found.dirs().headMap(found.compacted(), true);
        for (var e : logged.entrySet()) {
            Compaction.removeGenerationDirectory(
                    e.getValue(),
                    Compaction.leftoverFiles(e.getValue(), found.log().entry(e.getKey())));
        }
        if (!logged.isEmpty()) {
            DurableFiles.forceDirectory(dir.resolve(GENERATIONS));
        }
    }

    private static void deleteTemporaryDirectories(Path dir) throws IOException {
        Path parent = dir.resolve(GENERATIONS);
        if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> leftovers = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(
                parent, p -> p.getFileName().toString().startsWith(KeyDirectoryLayout.TEMP_PREFIX))) {
            s.forEach(leftovers::add);
        }
        for (Path tmp : leftovers) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(tmp)) {
                for (Path f : s) {
                    StateDestruction.destroy(f);
                }
            }
            Files.deleteIfExists(tmp);
        }
        if (!leftovers.isEmpty()) {
            DurableFiles.forceDirectory(parent);
        }
    }
}
