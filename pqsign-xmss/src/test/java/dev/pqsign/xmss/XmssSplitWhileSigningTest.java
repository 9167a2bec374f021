package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.state.ChildJvm;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.state.SigningChild;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splits a key while two other processes are signing with it (batch 4). The split shrinks the
 * original under its lock, so the running signers, which re-read the file at every reservation, stop
 * at the new end; the new part's indices are never used by them.
 */
class XmssSplitWhileSigningTest {
    private static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_20_4_256;

    @TempDir
    Path dir;

    @Test
    void splitWhileTwoProcessesSign_runningSignersStopAtNewEnd_partIndicesUnused() throws Exception {
        XmssPrivateKey key = XmssStatefulSignerTest.key(SET, 61);
        Path state = dir.resolve("key.state");
        Path sigs = Files.createDirectory(dir.resolve("sigs"));
        FileStateStore.create(state, XmssKeyState.fresh(key).withRange(0, 400).encode(), Duration.ofSeconds(10))
                .close();
        ChildJvm a = SigningChild.start(XmssTestScheme.class, dir, "loop", state.toString(), sigs.toString(), "4");
        ChildJvm b = SigningChild.start(XmssTestScheme.class, dir, "loop", state.toString(), sigs.toString(), "4");
        assertNotNull(a.awaitLine(3, 120_000), a.stderr());
        assertNotNull(b.awaitLine(3, 120_000), b.stderr());

        FilePartWriter writer = new FilePartWriter(dir);
        List<XmssKeySplit.Part> parts;
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(30))) {
            parts = XmssKeySplit.split(store, 2, writer);
        }
        long cut = parts.get(0).endIndex();
        assertEquals(cut, parts.get(1).nextIndex());
        assertEquals(400, parts.get(1).endIndex());

        // Both signers run into the new end and stop with "exhausted".
        for (ChildJvm c : List.of(a, b)) {
            assertNotEquals(0, c.await(180));
            assertTrue(
                    c.stderrText().contains(KeyExhaustedException.class.getName())
                            && c.stderrText().contains("exhausted"),
                    c.stderr());
        }
        Set<Long> used = new HashSet<>();
        for (ChildJvm c : List.of(a, b)) {
            for (String line : c.lines()) {
                long idx = Long.parseLong(line);
                assertTrue(
                        idx < cut, "a signer of the original used index " + idx + " given to part 2 (>= " + cut + ")");
                assertTrue(used.add(idx), "index " + idx + " used twice");
            }
        }
        XmssVerifier verifier = new XmssVerifier(key.publicKey());
        try (FileStateStore store = FileStateStore.open(writer.path(2), Duration.ofSeconds(10));
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            for (int i = 0; i < 5; i++) {
                IndexedSignature s = signer.signIndexed(SigningChild::message);
                assertEquals(cut + i, s.index());
                assertTrue(used.add(s.index()));
                assertTrue(verifier.verify(SigningChild.message(s.index()), s.signature()));
            }
        }
        try (FileStateStore store = FileStateStore.open(state, Duration.ofSeconds(10));
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            assertThrows(KeyExhaustedException.class, () -> signer.sign(SigningChild.message(0)));
        }
        System.out.printf(
                "split while signing: cut at %d, the two signers of the original used %d indices below it%n",
                cut, used.size() - 5);
    }
}
