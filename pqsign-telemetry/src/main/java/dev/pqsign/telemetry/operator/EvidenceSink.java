package dev.pqsign.telemetry.operator;

import dev.pqsign.telemetry.SignedRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/** Keeps the two records that prove a key's index was used twice ({@code INDEX_REUSE}). */
@FunctionalInterface
public interface EvidenceSink {

    /**
     * Keeps the evidence.
     *
     * @param first the record accepted earlier under the index
     * @param second the different record received now under the same index
     * @return where it is kept, for the verdict's detail (e.g. "evidence FILE, FILE")
     * @throws IOException if it cannot be kept (the verdict then says so)
     */
    String save(SignedRecord first, SignedRecord second) throws IOException;

    /**
     * Evidence files in {@code dir} ({@code index-reuse-<key id>-<index>-<n>-first.pqsr} and
     * {@code ...-second.pqsr}, each in the signed-record format, written durably).
     *
     * @param dir the directory (created when first needed)
     * @return the sink
     */
    static EvidenceSink files(Path dir) {
        Objects.requireNonNull(dir, "dir");
        return (first, second) -> {
            List<Path> files = IndexReuseEvidence.save(dir, first, second);
            return "evidence " + files.get(0).getFileName() + ", "
                    + files.get(1).getFileName();
        };
    }
}
