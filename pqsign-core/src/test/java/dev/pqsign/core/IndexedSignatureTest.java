package dev.pqsign.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class IndexedSignatureTest {

    @Test
    void construct_validIndex_keepsIndexAndTheCallersArray() {
        byte[] sig = {1, 2};
        IndexedSignature s = new IndexedSignature(0, sig);
        assertEquals(0, s.index());
        assertSame(sig, s.signature());
        assertEquals(Long.MAX_VALUE, new IndexedSignature(Long.MAX_VALUE, sig).index());
    }

    @Test
    void construct_negativeIndexOrNullSignature_throws() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new IndexedSignature(-1, new byte[1]));
        assertEquals("index must be non-negative, got -1", e.getMessage());
        assertThrows(NullPointerException.class, () -> new IndexedSignature(3, null));
    }
}
