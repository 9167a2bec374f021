package dev.pqsign.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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

    @Test
    void equals_sameBytesInAnotherArray_equalAndSameHash() {
        IndexedSignature a = new IndexedSignature(7, new byte[] {1, 2, 3});
        IndexedSignature b = new IndexedSignature(7, new byte[] {1, 2, 3});
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, new IndexedSignature(8, new byte[] {1, 2, 3}));
        assertNotEquals(a, new IndexedSignature(7, new byte[] {1, 2, 4}));
        assertEquals("IndexedSignature[index=7, signature=3 bytes]", a.toString());
    }
}
