package dev.pqsign.lms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.testing.MemoryStateStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class HssKeySplitTest {
    private static final HssParameterSet SET = HssStatefulSignerTest.TWO_BY_FIVE;
    private static final HssPrivateKey KEY = HssTesting.key(SET, 70);

    /** Keeps each created part's encoded state in memory, part 2 first. */
    static final class MemoryParts implements HssKeySplit.PartWriter {
        final List<byte[]> created = new ArrayList<>();

        @Override
        public void checkAbsent(int part) {}

        @Override
        public void create(int part, byte[] encodedState) {
            assertEquals(created.size() + 2, part, "parts are created in order");
            created.add(encodedState.clone());
        }

        @Override
        public String describe(int part) {
            return "mem-" + part;
        }
    }

    @Test
    void split_threeParts_signDisjointRanges_untilEachIsExhausted() throws Exception {
        MemoryStateStore original = HssTesting.storeAt(KEY, 100, 1024);
        MemoryParts parts = new MemoryParts();
        List<HssKeySplit.Part> ranges = HssKeySplit.split(original, 3, parts);
        assertEquals(3, ranges.size());
        assertEquals(100, ranges.get(0).nextIndex());
        assertEquals(408, ranges.get(0).endIndex());
        assertEquals(308, ranges.get(1).size());
        assertEquals(1024, ranges.get(2).endIndex());

        List<MemoryStateStore> stores = new ArrayList<>();
        stores.add(original);
        for (byte[] p : parts.created) {
            stores.add(MemoryStateStore.holding(p));
        }
        HssVerifier verifier = new HssVerifier(KEY.publicKey(), SET);
        Set<Long> used = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            HssKeySplit.Part range = ranges.get(i);
            try (HssStatefulSigner s = HssStatefulSigner.open(
                    stores.get(i), HssSignerOptions.defaults().withThreads(2))) {
                assertEquals(range.size(), s.remaining());
                assertEquals(range.nextIndex(), s.nextIndex());
                // The first few and the last few of each range (every range starts inside a tree).
                for (long k = 0; k < range.size(); k++) {
                    IndexedSignature sig = s.signIndexed(HssTesting::msg);
                    assertTrue(used.add(sig.index()));
                    if (k < 3 || k >= range.size() - 3) {
                        assertTrue(verifier.verify(HssTesting.msg(sig.index()), sig.signature()));
                    }
                }
                assertEquals(0, s.remaining());
                assertThrows(KeyExhaustedException.class, () -> s.sign(HssTesting.msg(0)));
            }
        }
        assertEquals(924, used.size());
    }

    @Test
    void split_exhaustedOrTooManyParts_writesNothing() throws IOException {
        MemoryStateStore exhausted = HssTesting.storeAt(KEY, 1024, 1024);
        assertThrows(KeyExhaustedException.class, () -> HssKeySplit.split(exhausted, 2, new MemoryParts()));
        MemoryStateStore small = HssTesting.storeAt(KEY, 1020, 1024);
        byte[] before = small.read();
        assertThrows(IllegalArgumentException.class, () -> HssKeySplit.split(small, 5, new MemoryParts()));
        assertEquals(
                HssKeyState.decode(before).endIndex(),
                HssKeyState.decode(small.read()).endIndex());
    }

    @Property(tries = 100)
    void split_rangesAreDisjointContiguousAndCoverTheRest(
            @ForAll @IntRange(min = 0, max = 1000) int next, @ForAll @IntRange(min = 2, max = 24) int parts)
            throws IOException {
        MemoryStateStore store = HssTesting.storeAt(KEY, next, 1024);
        MemoryParts writer = new MemoryParts();
        List<HssKeySplit.Part> ranges = HssKeySplit.split(store, parts, writer);
        long at = next;
        for (HssKeySplit.Part p : ranges) {
            assertEquals(at, p.nextIndex());
            assertTrue(p.size() >= (1024 - next) / parts && p.size() <= (1024 - next) / parts + 1);
            at = p.endIndex();
        }
        assertEquals(1024, at);
        assertEquals(ranges.get(0).endIndex(), HssKeyState.decode(store.read()).endIndex());
        for (int i = 0; i < writer.created.size(); i++) {
            HssKeyState s = HssKeyState.decode(writer.created.get(i));
            assertEquals(ranges.get(i + 1).nextIndex(), s.nextIndex());
            assertEquals(ranges.get(i + 1).endIndex(), s.endIndex());
        }
    }
}
