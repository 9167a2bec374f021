package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pqsign.testing.MemoryStateStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Test {@link XmssKeySplit.PartWriter} that keeps each part's encoded state in memory, for splits
 * through a {@link MemoryStateStore}; the file-based counterpart is {@link FilePartWriter}.
 */
final class MemoryPartWriter implements XmssKeySplit.PartWriter {
    private final List<byte[]> created = new ArrayList<>();

    /** The parts created so far, part 2 first. */
    List<byte[]> created() {
        return created;
    }

    @Override
    public void checkAbsent(int part) {}

    @Override
    public void create(int part, byte[] encodedState) {
        // A split creates parts 2, 3, ... in that order; created.get(i) relies on it.
        assertEquals(created.size() + 2, part, "parts are created in order");
        created.add(encodedState.clone());
    }

    @Override
    public String describe(int part) {
        return "mem-" + part;
    }
}
