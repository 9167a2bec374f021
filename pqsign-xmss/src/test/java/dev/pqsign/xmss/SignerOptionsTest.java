package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link XmssStatefulSigner.Options}: resuming SHA-256 mid-states changes how the hashes are
 * computed, never what they are, and the options are validated.
 */
class SignerOptionsTest {
    private static final XmssParameterSet SET1 = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    private static final XmssPrivateKey KEY = XmssStatefulSignerTest.key(SET1, 43);

    @Test
    void midstates_signByteIdenticallyToAllocationFreeHashing_acrossTreeBoundaries() {
        MemoryStateStore plainStore =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        MemoryStateStore midStore =
                MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode());
        XmssVerifier verifier = new XmssVerifier(KEY.publicKey());
        try (XmssStatefulSigner plain =
                        XmssStatefulSigner.open(plainStore, Options.defaults().withThreads(1));
                XmssStatefulSigner mid = XmssStatefulSigner.open(
                        midStore,
                        Options.defaults()
                                .withThreads(1)
                                .withBatch(8)
                                .withReserveAhead(true)
                                .withMidstates(true))) {
            // 70 signatures cross two bottom-tree boundaries (2^5 leaves each) of set 1.
            for (int i = 0; i < 70; i++) {
                byte[] m = ("reading " + i).getBytes(StandardCharsets.UTF_8);
                byte[] a = plain.sign(m);
                byte[] b = mid.sign(m);
                assertArrayEquals(a, b, "signature " + i);
                assertTrue(verifier.verify(m, b), "signature " + i);
            }
        }
        assertEquals(70, XmssKeyState.decode(plainStore.bytes()).nextIndex());
        assertTrue(XmssKeyState.decode(midStore.bytes()).nextIndex() >= 70);
    }

    @Test
    void options_defaultsAndValidation() {
        Options d = Options.defaults();
        assertEquals(1, d.batch());
        assertFalse(d.reserveAhead());
        assertFalse(d.midstates());
        assertTrue(d.threads() >= 1);
        assertThrows(IllegalArgumentException.class, () -> d.withBatch(0));
        assertThrows(IllegalArgumentException.class, () -> d.withThreads(0));
        assertThrows(
                NullPointerException.class,
                () -> XmssStatefulSigner.open(
                        MemoryStateStore.holding(XmssKeyState.fresh(KEY).encode()), null));
    }
}
