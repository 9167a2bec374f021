package dev.pqsign.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class MemoryStateStoreTest {

    @Test
    void empty_readBeforeCreate_throwsNoSuchFile_createTwice_throws() throws IOException {
        MemoryStateStore s = MemoryStateStore.empty("k");
        assertEquals("memory:k", s.describe());
        assertThrows(NoSuchFileException.class, s::read);
        s.create(new byte[] {1});
        assertThrows(IOException.class, () -> s.create(new byte[] {2}));
        assertArrayEquals(new byte[] {1}, s.read());
        assertEquals(1, s.writes());
    }

    @Test
    void failNextWrites_failsExactlyThatManyWrites_stateUnchanged() throws IOException {
        MemoryStateStore s = MemoryStateStore.holding(new byte[] {0});
        s.failNextWrites(2);
        assertThrows(IOException.class, () -> s.update(b -> new byte[] {1}));
        assertThrows(IOException.class, () -> s.update(b -> new byte[] {2}));
        assertArrayEquals(new byte[] {0}, s.bytes());
        assertArrayEquals(new byte[] {3}, s.update(b -> new byte[] {3}));
        assertEquals(1, s.writes());
    }

    @Test
    void failNextWrites_maxValue_failsUntilReset() throws IOException {
        MemoryStateStore s = MemoryStateStore.holding(new byte[] {0});
        s.failNextWrites(Integer.MAX_VALUE);
        for (int i = 0; i < 5; i++) {
            assertThrows(IOException.class, () -> s.update(b -> b));
        }
        s.failNextWrites(0);
        s.update(b -> new byte[] {9});
        assertArrayEquals(new byte[] {9}, s.bytes());
        assertThrows(IllegalArgumentException.class, () -> s.failNextWrites(-1));
    }

    @Test
    void holding_copiesInput_andReturnsCopies() throws IOException {
        byte[] in = {5, 6};
        MemoryStateStore s = MemoryStateStore.holding(in);
        in[0] = 0;
        byte[] out = s.read();
        out[1] = 0;
        assertArrayEquals(new byte[] {5, 6}, s.bytes());
        s.overwrite(new byte[] {7});
        assertArrayEquals(new byte[] {7}, s.read());
        assertEquals(0, s.writes(), "overwrite is not a write");
    }
}
