package dev.pqsign.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Test helper: lists the temporary files of a target that a write may leave behind. */
final class TempFiles {
    private TempFiles() {}

    static List<Path> of(Path target) {
        String prefix = "." + target.getFileName() + DurableFiles.TEMP_MARKER;
        try (Stream<Path> s = Files.list(target.toAbsolutePath().getParent())) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
