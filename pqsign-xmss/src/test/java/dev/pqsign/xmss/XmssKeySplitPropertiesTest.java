package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.testing.MemoryStateStore;
import java.util.List;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Random ranges and part counts: a split is always a balanced partition of the remaining range. */
class XmssKeySplitPropertiesTest {
    private static final XmssParameterSet P = XmssParameterSet.XMSSMT_SHA2_20_4_256;
    private static final XmssPrivateKey KEY = XmssStatefulSignerTest.key(P, 13);

    @Property(tries = 500)
    void split_partitionsRemainingRange(
            @ForAll @LongRange(min = 0, max = 1 << 20) long a,
            @ForAll @LongRange(min = 0, max = 1 << 20) long b,
            @ForAll @IntRange(min = 2, max = 5000) int parts) {
        long next = Math.min(a, b);
        long end = Math.max(a, b);
        Assume.that(end - next >= parts);
        List<XmssKeyState> split = XmssKeyState.fresh(KEY).withRange(next, end).split(parts);
        assertEquals(parts, split.size());
        long expectedStart = next;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (XmssKeyState s : split) {
            assertEquals(expectedStart, s.nextIndex(), "contiguous and disjoint");
            assertTrue(s.remaining() >= 1, "non-empty");
            min = Math.min(min, s.remaining());
            max = Math.max(max, s.remaining());
            expectedStart = s.endIndex();
        }
        assertEquals(end, expectedStart, "covering");
        assertTrue(max - min <= 1, "balanced: " + min + ".." + max);
    }

    @Property(tries = 200)
    void splitThroughStore_partsRoundTripAndOriginalShrinks(
            @ForAll @LongRange(min = 0, max = 1 << 20) long a,
            @ForAll @LongRange(min = 0, max = 1 << 20) long b,
            @ForAll @IntRange(min = 2, max = 40) int parts)
            throws Exception {
        long next = Math.min(a, b);
        long end = Math.max(a, b);
        MemoryStateStore store = MemoryStateStore.holding(
                XmssKeyState.fresh(KEY).withRange(next, end).encode());
        MemoryPartWriter mem = new MemoryPartWriter();
        List<byte[]> created = mem.created();
        if (end - next < parts) {
            byte[] before = store.bytes().clone();
            if (end == next) {
                assertThrows(dev.pqsign.core.KeyExhaustedException.class, () -> XmssKeySplit.split(store, parts, mem));
            } else {
                assertThrows(IllegalArgumentException.class, () -> XmssKeySplit.split(store, parts, mem));
            }
            assertArrayEquals(before, store.bytes(), "nothing written on refusal");
            assertEquals(0, created.size());
            return;
        }
        List<XmssKeySplit.Part> result = XmssKeySplit.split(store, parts, mem);
        XmssKeyState shrunk = XmssKeyState.decode(store.bytes());
        assertEquals(next, shrunk.nextIndex());
        assertEquals(result.get(0).endIndex(), shrunk.endIndex());
        assertEquals(parts - 1, created.size());
        long start = shrunk.endIndex();
        for (int i = 0; i < created.size(); i++) {
            XmssKeyState s = XmssKeyState.decode(created.get(i));
            assertArrayEquals(KEY.publicKey().keyId(), s.key().publicKey().keyId());
            assertEquals(start, s.nextIndex());
            assertEquals(result.get(i + 1).nextIndex(), s.nextIndex());
            assertEquals(result.get(i + 1).endIndex(), s.endIndex());
            start = s.endIndex();
        }
        assertEquals(end, start);
    }
}
