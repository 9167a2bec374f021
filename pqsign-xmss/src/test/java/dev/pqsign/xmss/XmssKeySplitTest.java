package dev.pqsign.xmss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.core.KeyExhaustedException;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Splitting a key's remaining range into disjoint key files, in memory and on disk. */
class XmssKeySplitTest {
    private static final XmssParameterSet SET1 = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final XmssPrivateKey KEY = XmssStatefulSignerTest.key(SET1, 21);

    @TempDir
    Path dir;

    private static byte[] msg(long i) {
        return ("split reading " + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void split_rangesAreContiguousDisjointCoveringAndBalanced() {
        List<XmssKeyState> parts = XmssKeyState.fresh(KEY).withRange(100, 110).split(3);
        assertEquals(3, parts.size());
        assertEquals(
                List.of(100L, 104L, 107L),
                parts.stream().map(XmssKeyState::nextIndex).toList());
        assertEquals(
                List.of(104L, 107L, 110L),
                parts.stream().map(XmssKeyState::endIndex).toList());
        for (XmssKeyState p : parts) {
            assertArrayEquals(KEY.publicKey().keyId(), p.key().publicKey().keyId());
        }
        List<XmssKeyState> exact = XmssKeyState.fresh(KEY).withRange(0, 1024).split(1024);
        for (int i = 0; i < 1024; i++) {
            assertEquals(i, exact.get(i).nextIndex());
            assertEquals(1, exact.get(i).remaining());
        }
    }

    @Test
    void split_badPartCountsAndExhaustedKey_refused() {
        XmssKeyState s = XmssKeyState.fresh(KEY).withRange(1020, 1024);
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class, () -> s.split(1));
        assertTrue(one.getMessage().contains("at least 2"), one.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.split(0));
        assertThrows(IllegalArgumentException.class, () -> s.split(-3));
        IllegalArgumentException many = assertThrows(IllegalArgumentException.class, () -> s.split(5));
        assertTrue(many.getMessage().contains("4 remaining"), many.getMessage());
        assertEquals(4, s.split(4).size());
        KeyExhaustedException ex = assertThrows(
                KeyExhaustedException.class,
                () -> XmssKeyState.fresh(KEY).withRange(1024, 1024).split(2));
        assertTrue(ex.getMessage().contains("exhausted"), ex.getMessage());
    }

    @Test
    void splitOnDisk_everyPartSignsUniqueIndicesThatVerifyUnderOnePublicKey() throws Exception {
        Path original = dir.resolve("key.state");
        FileStateStore.create(
                        original, XmssKeyState.fresh(KEY).withRange(900, 1024).encode(), TIMEOUT)
                .close();
        List<XmssKeySplit.Part> parts;
        FilePartWriter writer = new FilePartWriter(Files.createDirectory(dir.resolve("parts")));
        try (FileStateStore store = FileStateStore.open(original, TIMEOUT)) {
            parts = XmssKeySplit.split(store, 4, writer);
        }
        assertEquals(
                List.of(31L, 31L, 31L, 31L),
                parts.stream().map(XmssKeySplit.Part::size).toList());
        List<Path> files = List.of(original, writer.path(2), writer.path(3), writer.path(4));
        for (int i = 0; i < 4; i++) {
            XmssKeyState s = XmssKeyState.decode(Files.readAllBytes(files.get(i)));
            assertEquals(parts.get(i).nextIndex(), s.nextIndex(), "part " + (i + 1));
            assertEquals(parts.get(i).endIndex(), s.endIndex(), "part " + (i + 1));
        }
        XmssVerifier verifier = new XmssVerifier(KEY.publicKey());
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            XmssKeySplit.Part part = parts.get(i);
            try (FileStateStore store = FileStateStore.open(files.get(i), TIMEOUT);
                    XmssStatefulSigner signer =
                            XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
                assertEquals(part.size(), signer.remaining());
                for (long k = 0; k < part.size(); k++) {
                    IndexedSignature s = signer.signIndexed(XmssKeySplitTest::msg);
                    assertTrue(
                            s.index() >= part.nextIndex() && s.index() < part.endIndex(),
                            "part " + part.number() + " signed index " + s.index());
                    assertTrue(seen.add(s.index()), "index used twice: " + s.index());
                    assertEquals(s.index(), XmssSignatures.index(SET1, s.signature()));
                    assertTrue(verifier.verify(msg(s.index()), s.signature()), "index " + s.index());
                }
                assertThrows(KeyExhaustedException.class, () -> signer.sign(msg(0)), "part " + part.number());
            }
        }
        assertEquals(124, seen.size());
    }

    @Test
    void signerOpenBeforeSplit_neverUsesIndicesGivenAway() throws Exception {
        Path original = dir.resolve("key.state");
        FileStateStore.create(original, XmssKeyState.fresh(KEY).withRange(0, 64).encode(), TIMEOUT)
                .close();
        FilePartWriter writer = new FilePartWriter(dir);
        List<Long> used = new ArrayList<>();
        try (FileStateStore store = FileStateStore.open(original, TIMEOUT);
                XmssStatefulSigner signer = XmssStatefulSigner.open(
                        store, Options.defaults().withBatch(8).withThreads(2))) {
            used.add(signer.signIndexed(XmssKeySplitTest::msg).index()); // reserves [0, 8) on disk
            List<XmssKeySplit.Part> parts;
            try (FileStateStore other = FileStateStore.open(original, TIMEOUT)) {
                parts = XmssKeySplit.split(other, 2, writer);
            }
            // The split starts after the signer's durable reservation.
            assertEquals(8, parts.get(0).nextIndex());
            assertEquals(36, parts.get(0).endIndex());
            assertEquals(36, parts.get(1).nextIndex());
            assertEquals(64, parts.get(1).endIndex());
            // The running signer re-reads the file at its next reservation and stops at the new end.
            KeyExhaustedException e = null;
            for (int k = 0; k < 64 && e == null; k++) {
                try {
                    used.add(signer.signIndexed(XmssKeySplitTest::msg).index());
                } catch (KeyExhaustedException ex) {
                    e = ex;
                }
            }
            assertTrue(e != null, "signer kept signing past its new end");
            assertEquals(36, used.size());
            for (int k = 0; k < used.size(); k++) {
                assertEquals(k, used.get(k));
            }
        }
        try (FileStateStore store = FileStateStore.open(writer.path(2), TIMEOUT);
                XmssStatefulSigner signer =
                        XmssStatefulSigner.open(store, Options.defaults().withThreads(2))) {
            assertEquals(36, signer.signIndexed(XmssKeySplitTest::msg).index());
        }
    }

    @Test
    void split_existingPartFile_refusedBeforeAnythingIsWritten() throws Exception {
        Path original = dir.resolve("key.state");
        byte[] before = XmssKeyState.fresh(KEY).withRange(5, 1024).encode();
        FileStateStore.create(original, before, TIMEOUT).close();
        FilePartWriter writer = new FilePartWriter(dir);
        Files.writeString(writer.path(3), "someone else's file");
        try (FileStateStore store = FileStateStore.open(original, TIMEOUT)) {
            FileAlreadyExistsException e =
                    assertThrows(FileAlreadyExistsException.class, () -> XmssKeySplit.split(store, 3, writer));
            assertTrue(e.getMessage().contains("part-3.state"), e.getMessage());
        }
        assertArrayEquals(before, Files.readAllBytes(original));
        assertFalse(Files.exists(writer.path(2)));
        assertEquals("someone else's file", Files.readString(writer.path(3)));
    }

    @Test
    void split_exhaustedOrTooManyParts_refusedWithFileNamed() throws Exception {
        Path original = dir.resolve("key.state");
        byte[] before = XmssKeyState.fresh(KEY).withRange(1022, 1024).encode();
        FileStateStore.create(original, before, TIMEOUT).close();
        FilePartWriter writer = new FilePartWriter(dir);
        try (FileStateStore store = FileStateStore.open(original, TIMEOUT)) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> XmssKeySplit.split(store, 3, writer));
            assertTrue(
                    e.getMessage().contains(original.getFileName().toString())
                            && e.getMessage().contains("2 remaining"),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> XmssKeySplit.split(store, 1, writer));
            store.update(cur -> XmssKeyState.decode(cur).withNextIndex(1024).encode());
            KeyExhaustedException x =
                    assertThrows(KeyExhaustedException.class, () -> XmssKeySplit.split(store, 2, writer));
            assertTrue(x.getMessage().contains("exhausted") && x.getMessage().contains("key.state"), x.getMessage());
        }
        assertFalse(Files.exists(writer.path(2)));
    }

    @Test
    void split_partWriteFails_originalKeepsOnlyItsRangeAndLostIndicesAreNeverUsed() throws Exception {
        Path original = dir.resolve("key.state");
        FileStateStore.create(original, XmssKeyState.fresh(KEY).withRange(0, 30).encode(), TIMEOUT)
                .close();
        FilePartWriter failing = new FilePartWriter(dir) {
            @Override
            public void create(int part, byte[] encodedState) throws IOException {
                if (part == 3) {
                    throw new IOException("injected: No space left on device");
                }
                super.create(part, encodedState);
            }
        };
        try (FileStateStore store = FileStateStore.open(original, TIMEOUT)) {
            IOException e =
                    assertThrows(XmssKeySplit.PartWriteException.class, () -> XmssKeySplit.split(store, 3, failing));
            assertTrue(
                    e.getMessage().contains("shrunk to [0, 10)")
                            && e.getMessage().contains("part-3.state")
                            && e.getMessage().contains("[20, 30)")
                            && e.getMessage().contains("No space left"),
                    e.getMessage());
        }
        assertEquals(10, XmssKeyState.decode(Files.readAllBytes(original)).endIndex());
        XmssKeyState p2 = XmssKeyState.decode(Files.readAllBytes(failing.path(2)));
        assertEquals(10, p2.nextIndex());
        assertEquals(20, p2.endIndex());
        assertFalse(Files.exists(failing.path(3)));
    }

    @Test
    void split_inMemoryStore_originalShrinksAndPartsDecode() throws Exception {
        MemoryStateStore store = MemoryStateStore.holding(
                XmssKeyState.fresh(KEY).withRange(3, 13).encode());
        MemoryPartWriter mem = new MemoryPartWriter();
        List<byte[]> created = mem.created();
        List<XmssKeySplit.Part> parts = XmssKeySplit.split(store, 2, mem);
        assertEquals(new XmssKeySplit.Part(1, 3, 8, "memory"), parts.get(0));
        assertEquals(new XmssKeySplit.Part(2, 8, 13, "mem-2"), parts.get(1));
        assertEquals(8, XmssKeyState.decode(store.bytes()).endIndex());
        XmssKeyState second = XmssKeyState.decode(created.get(0));
        assertEquals(8, second.nextIndex());
        assertEquals(13, second.endIndex());
        assertArrayEquals(KEY.publicKey().encoded(), second.key().publicKey().encoded());
        assertEquals(1, store.writes());
    }
}
