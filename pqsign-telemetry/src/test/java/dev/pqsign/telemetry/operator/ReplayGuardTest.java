package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.testing.MemoryStateStore;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayGuardTest {

    private final Map<KeyId, MemoryStateStore> stores = new HashMap<>();
    private final KeyId a = KeyId.ofPublicKey(new byte[] {1});
    private final KeyId b = KeyId.ofPublicKey(new byte[] {2});

    private ReplayGuard guard() {
        return new ReplayGuard(k -> stores.computeIfAbsent(k, x -> MemoryStateStore.empty(x.hex())));
    }

    @Test
    void tryAccept_strictlyIncreasing_acceptsOnlyNewerIndices() throws IOException {
        ReplayGuard g = guard();
        assertTrue(g.tryAccept(a, 0));
        assertFalse(g.tryAccept(a, 0), "same index again is a replay");
        assertTrue(g.tryAccept(a, 5));
        assertFalse(g.tryAccept(a, 3), "older index (reordered) is rejected");
        assertTrue(g.tryAccept(a, 6));
        assertEquals(6, g.lastAccepted(a));
    }

    @Test
    void tryAccept_keysAreIndependent() throws IOException {
        ReplayGuard g = guard();
        assertTrue(g.tryAccept(a, 10));
        assertTrue(g.tryAccept(b, 1));
        assertEquals(-1, guard().lastAccepted(KeyId.ofPublicKey(new byte[] {3})));
    }

    @Test
    void tryAccept_afterRestart_replayStillRejected() throws IOException {
        ReplayGuard g = guard();
        assertTrue(g.tryAccept(a, 7));
        g.close();
        ReplayGuard restarted = guard();
        assertFalse(restarted.tryAccept(a, 7));
        assertFalse(restarted.tryAccept(a, 2));
        assertTrue(restarted.tryAccept(a, 8));
    }

    @Test
    void tryAccept_twoGuardsShareStore_onlyOneAccepts() throws IOException {
        ReplayGuard g1 = guard();
        ReplayGuard g2 = guard();
        assertTrue(g1.tryAccept(a, 0));
        assertTrue(g2.tryAccept(a, 4), "g2 loads 1 and accepts 4");
        assertFalse(g1.tryAccept(a, 4), "g1's cache says 1, but the store says 5: re-checked under the lock");
        assertEquals(4, g1.lastAccepted(a));
    }

    @Test
    void tryAccept_persistFails_notAccepted() throws IOException {
        ReplayGuard g = guard();
        assertTrue(g.tryAccept(a, 0));
        stores.get(a).failNextWrites(1);
        assertThrows(IOException.class, () -> g.tryAccept(a, 1));
        assertTrue(g.tryAccept(a, 1), "index 1 was not recorded by the failed write");
    }

    @Test
    void open_stateOfOtherKey_throws() throws IOException {
        MemoryStateStore s = MemoryStateStore.empty("x");
        s.overwrite(ReplayGuard.encode(b, 3));
        ReplayGuard g = new ReplayGuard(k -> s);
        assertThrows(KeyFormatException.class, () -> g.tryAccept(a, 9));
    }

    @Test
    void inDirectory_fileStore_survivesRestartAndSequencedSignerContinues(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
        try (ReplayGuard g = ReplayGuard.inDirectory(dir.resolve("replay"))) {
            assertTrue(g.tryAccept(a, 41));
        }
        try (ReplayGuard g = ReplayGuard.inDirectory(dir.resolve("replay"))) {
            assertFalse(g.tryAccept(a, 41));
            assertTrue(g.tryAccept(a, 42));
        }
        Ed25519TestDouble k = Ed25519TestDouble.generate();
        try (SequencedSigner s =
                SequencedSigner.openFile(k.signer(), dir.resolve("nested").resolve("seq"), 1)) {
            assertEquals(0, s.signIndexed(i -> new byte[0]).index());
            assertEquals(1, s.signIndexed(i -> new byte[0]).index());
        }
        try (SequencedSigner s =
                SequencedSigner.openFile(k.signer(), dir.resolve("nested").resolve("seq"), 1)) {
            assertEquals(2, s.signIndexed(i -> new byte[0]).index());
        }
    }

    @Test
    void tryAccept_negativeOrMaxIndex_rejected() throws IOException {
        ReplayGuard g = guard();
        assertFalse(g.tryAccept(a, -1));
        assertFalse(g.tryAccept(a, Long.MAX_VALUE));
    }
}
