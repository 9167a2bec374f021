package dev.pqsign.telemetry.operator;

import dev.pqsign.state.DurableFiles;
import dev.pqsign.telemetry.SignedRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Saves the two records that prove an index was used twice: {@code index-reuse-<key id hex>-<index>-<n>-first.pqsr}
 * (the record accepted earlier) and {@code ...-second.pqsr} (the one received now), both in the
 * signed-record format, each written durably. {@code n} counts from 1 so that repeated evidence for
 * the same index never overwrites earlier files.
 */
final class IndexReuseEvidence {
    private IndexReuseEvidence() {}

    /** Writes both records; returns the two files. */
    static synchronized List<Path> save(Path dir, SignedRecord first, SignedRecord second) throws IOException {
        Files.createDirectories(dir);
        String base = "index-reuse-" + first.keyId().hex() + "-" + first.index() + "-";
        int n = 1;
        while (Files.exists(dir.resolve(base + n + "-first.pqsr")) && n < 100_000) {
            n++;
        }
        Path a = dir.resolve(base + n + "-first.pqsr");
        Path b = dir.resolve(base + n + "-second.pqsr");
        DurableFiles.writeAtomically(a, first.encode());
        DurableFiles.writeAtomically(b, second.encode());
        return List.of(a, b);
    }
}
