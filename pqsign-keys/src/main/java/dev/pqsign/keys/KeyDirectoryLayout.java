package dev.pqsign.keys;

import static dev.pqsign.keys.SensorKeyDirectory.GENERATIONS;
import static dev.pqsign.keys.SensorKeyDirectory.PUBLIC_KEY;
import static dev.pqsign.keys.SensorKeyDirectory.STATE;

import dev.pqsign.state.DurableFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where a sensor key directory's files are (docs/key-directory.md, "Layout"): generation 0 in the
 * directory itself, every later one in {@code generations/} under twelve digits, and the
 * temporary directories a new generation is made in before it is renamed into place.
 */
final class KeyDirectoryLayout {
    /** The name prefix of a generation directory still being made (temporary, then renamed). */
    static final String TEMP_PREFIX = ".next-";

    private KeyDirectoryLayout() {}

    /** Path of generation {@code g}'s directory in {@code dir} (generation 0: {@code dir} itself). */
    static Path generationDir(Path dir, long g) {
        return g == 0 ? dir : dir.resolve(GENERATIONS).resolve(String.format(Locale.ROOT, "%012d", g));
    }

    /** Path of generation {@code g}'s state file in {@code dir}. */
    static Path stateFile(Path dir, long g) {
        return generationDir(dir, g).resolve(STATE);
    }

    /** See {@link SensorKeyDirectory#enclosingKeyDirectory}. */
    static Optional<Path> enclosingKeyDirectory(Path dir) {
        Path name = dir.getFileName();
        Path generations =
                dir.getParent() != null ? dir.getParent() : dir.toAbsolutePath().getParent();
        if (name == null || generations == null || !isGenerationName(name.toString())) {
            return Optional.empty();
        }
        Path outer = generations.getParent() != null
                ? generations.getParent()
                : generations.toAbsolutePath().getParent();
        if (outer == null
                || generations.getFileName() == null
                || !generations.getFileName().toString().equals(GENERATIONS)
                || !Files.exists(outer.resolve(PUBLIC_KEY), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        return Optional.of(outer);
    }

    private static boolean isGenerationName(String name) {
        return name.length() == 12 && name.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    /** The generation directories under {@code dir/generations}, by generation (none if it is missing). */
    static NavigableMap<Long, Path> generationDirectories(Path dir) throws IOException {
        TreeMap<Long, Path> out = new TreeMap<>();
        Path parent = dir.resolve(GENERATIONS);
        if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(parent)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (isGenerationName(name)) {
                    out.put(Long.parseLong(name), p);
                }
            }
        }
        return out;
    }

    /** Reads a file of the directory (at most 1 MiB); a missing one is reported as {@code missing}. */
    static byte[] readSmall(Path file) throws IOException {
        try {
            return DurableFiles.readAll(file, 1 << 20);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString(), null, "missing");
        }
    }
}
