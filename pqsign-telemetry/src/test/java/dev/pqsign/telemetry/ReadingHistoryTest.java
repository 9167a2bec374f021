package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.telemetry.internal.HistoryFile;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadingHistoryTest {

    @TempDir
    Path dir;

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private final Clock clock = Clock.fixed(T0.plusSeconds(100), ZoneOffset.UTC);

    private static SignedRecord record(long index, Instant source) {
        KeyId id = KeyId.of(new byte[KeyId.BYTES]);
        return SignedRecord.of(
                id, "HAETAE-2", new SignedReading("r" + index, index, new byte[] {1, 2, 3}), source, index, 0, 0, 0);
    }

    @Test
    void add_moreThanCount_keepsNewest() throws IOException {
        ReadingHistory h = ReadingHistory.inMemory(5, Duration.ofHours(1), clock);
        for (int i = 0; i < 10; i++) {
            h.add(record(i, T0.plusSeconds(i)));
        }
        assertEquals(5, h.size());
        List<SignedRecord> all = h.range(Instant.EPOCH, Instant.MAX, 100);
        assertEquals(
                List.of(5L, 6L, 7L, 8L, 9L),
                all.stream().map(SignedRecord::index).toList());
    }

    @Test
    void range_fromToAndMax_inclusiveOldestFirst() throws IOException {
        ReadingHistory h = ReadingHistory.inMemory(100, Duration.ofHours(1), clock);
        for (int i = 0; i < 10; i++) {
            h.add(record(i, T0.plusSeconds(i)));
        }
        assertEquals(
                List.of(3L, 4L, 5L),
                h.range(T0.plusSeconds(3), T0.plusSeconds(5), 100).stream()
                        .map(SignedRecord::index)
                        .toList());
        assertEquals(
                List.of(3L, 4L),
                h.range(T0.plusSeconds(3), Instant.MAX, 2).stream()
                        .map(SignedRecord::index)
                        .toList());
    }

    @Test
    void add_olderThanAge_prunedButNewestKept() throws IOException {
        ReadingHistory h = ReadingHistory.inMemory(100, Duration.ofSeconds(50), clock);
        h.add(record(0, T0));
        h.add(record(1, T0.plusSeconds(10)));
        assertEquals(1, h.size(), "both older than 50 s at T0+100 s; the newest stays");
        h.add(record(2, T0.plusSeconds(60)));
        assertEquals(1, h.size());
        assertEquals(2, h.newest().orElseThrow().index());
    }

    @Test
    void add_notAfterNewest_refused() throws IOException {
        ReadingHistory h = ReadingHistory.inMemory(10, Duration.ofHours(1), clock);
        h.add(record(0, T0));
        assertThrows(IllegalArgumentException.class, () -> h.add(record(1, T0)));
    }

    @Test
    void open_afterRestart_recordsBack_tornTailCut() throws IOException {
        Path file = dir.resolve("history.pqhl");
        try (ReadingHistory h = ReadingHistory.open(file, 100, Duration.ofHours(1), clock)) {
            for (int i = 0; i < 3; i++) {
                h.add(record(i, T0.plusSeconds(i)));
            }
        }
        long good = Files.size(file);
        Files.write(file, new byte[] {0, 0, 0, 120, 1, 2}, StandardOpenOption.APPEND); // an append cut short
        try (ReadingHistory h = ReadingHistory.open(file, 100, Duration.ofHours(1), clock)) {
            assertEquals(3, h.size());
            assertArrayEquals(
                    record(2, T0.plusSeconds(2)).encode(),
                    h.newest().orElseThrow().encode());
            assertEquals(good, Files.size(file));
            h.add(record(3, T0.plusSeconds(3)));
        }
        try (ReadingHistory h = ReadingHistory.open(file, 100, Duration.ofHours(1), clock)) {
            assertEquals(4, h.size());
        }
    }

    @Test
    void open_manyMoreThanCount_fileRewrittenAndBounded() throws IOException {
        Path file = dir.resolve("history.pqhl");
        try (ReadingHistory h = ReadingHistory.open(file, 10, Duration.ofHours(1), clock)) {
            for (int i = 0; i < 3000; i++) {
                h.add(record(i, T0.plusMillis(i)));
            }
        }
        try (ReadingHistory h = ReadingHistory.open(file, 10, Duration.ofHours(1), clock)) {
            assertEquals(10, h.size());
            assertEquals(2999, h.newest().orElseThrow().index());
        }
        long perEntry = HistoryFile.ENTRY_HEADER_BYTES + record(0, T0).encode().length + 2L;
        assertEquals(
                true, Files.size(file) < HistoryFile.HEADER_BYTES + 1030L * perEntry, "file size " + Files.size(file));
    }

    @Test
    void open_notAHistoryFile_refused() throws IOException {
        Path file = dir.resolve("junk");
        Files.write(file, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17});
        assertThrows(IOException.class, () -> ReadingHistory.open(file, 10, Duration.ofHours(1), clock));
    }

    /** A real handover to generation {@code sequence} (signed by a fresh key; only its bytes matter here). */
    private static SignedKeyHandover handover(long sequence) {
        XmssPrivateKey oldKey = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_10_2_256);
        XmssPrivateKey newKey = XmssKeyGenerator.generate(XmssParameterSet.XMSSMT_SHA2_10_2_256);
        PqPublicKey oldPub = PqPublicKey.of(oldKey.publicKey());
        try (XmssStatefulSigner signer = XmssStatefulSigner.open(
                MemoryStateStore.holding(XmssKeyState.fresh(oldKey).encode()))) {
            return SignedKeyHandover.sign(
                    signer,
                    oldPub,
                    KeyChain.startingAt(oldPub).chainId(),
                    sequence,
                    PqPublicKey.of(newKey.publicKey()),
                    T0);
        } finally {
            oldKey.destroy();
            newKey.destroy();
        }
    }

    private static List<String> kinds(List<HistoryEntry> entries) {
        return entries.stream()
                .map(e -> e.handover().isPresent()
                        ? "h" + e.handover().get().statement().sequence()
                        : "r" + e.reading().orElseThrow().index())
                .toList();
    }

    /** r0, h1, r1, h2, r2, one second apart. */
    private ReadingHistory readingsAndHandovers() throws IOException {
        ReadingHistory h = ReadingHistory.inMemory(100, Duration.ofHours(1), clock);
        h.add(record(0, T0.plusSeconds(1)));
        h.addHandover(T0.plusSeconds(2), handover(1));
        h.add(record(1, T0.plusSeconds(3)));
        h.addHandover(T0.plusSeconds(4), handover(2));
        h.add(record(2, T0.plusSeconds(5)));
        return h;
    }

    @Test
    void addHandover_betweenReadings_servedInPublicationOrder() throws IOException {
        ReadingHistory h = readingsAndHandovers();
        assertEquals(List.of("r0", "h1", "r1", "h2", "r2"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100)));
        assertEquals(List.of("h1", "r1", "h2"), kinds(h.entries(T0.plusSeconds(2), T0.plusSeconds(4), 100)));
        assertEquals(List.of("r1", "h2"), kinds(h.entries(T0.plusSeconds(3), Instant.MAX, 2)));
        assertEquals(List.of("h1", "h2"), kinds(h.handovers(Instant.EPOCH, Instant.MAX, 100)));
        assertEquals(
                List.of(0L, 1L, 2L),
                h.range(Instant.EPOCH, Instant.MAX, 100).stream()
                        .map(SignedRecord::index)
                        .toList());
        assertEquals(T0.plusSeconds(5), h.newestSourceTime().orElseThrow());
        assertEquals(2, h.newestHandover().orElseThrow().statement().sequence());
        assertThrows(IllegalArgumentException.class, () -> h.addHandover(T0.plusSeconds(5), handover(3)));
    }

    @Test
    void entries_sizeLimit_stopAfterTheFirstEntryPastIt() throws IOException {
        ReadingHistory h = readingsAndHandovers();
        List<HistoryEntry> all = h.entries(Instant.EPOCH, Instant.MAX, 100);
        long first2 = (long) all.get(0).value().length + all.get(1).value().length;
        // exactly at the limit: not above it yet, so the next entry comes too (and passes it)
        assertEquals(List.of("r0", "h1", "r1"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100, first2)));
        assertEquals(List.of("r0", "h1"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100, first2 - 1)));
        assertEquals(List.of("r0"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100, 0)));
        assertEquals(List.of("r0", "h1"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 2, Long.MAX_VALUE)));
        long record = all.get(0).value().length;
        assertEquals(
                List.of(1L, 2L),
                h.range(T0.plusSeconds(2), Instant.MAX, 100, record).stream()
                        .map(SignedRecord::index)
                        .toList());
        assertEquals(List.of("h1"), kinds(h.handovers(Instant.EPOCH, Instant.MAX, 100, 1)));
        assertEquals(List.of("h1", "h2"), kinds(h.handovers(Instant.EPOCH, Instant.MAX, 100, Long.MAX_VALUE)));
    }

    @Test
    void add_manyMoreReadingsThanCount_handoverOutlivesThem() throws IOException {
        ReadingHistory h = ReadingHistory.inMemory(3, Duration.ofHours(1), clock);
        h.addHandover(T0, handover(1));
        for (int i = 0; i < 10; i++) {
            h.add(record(i, T0.plusSeconds(1 + i)));
        }
        assertEquals(List.of("h1", "r7", "r8", "r9"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100)));
        for (int g = 2; g <= 5; g++) {
            h.addHandover(T0.plusSeconds(20 + g), handover(g));
        }
        assertEquals(List.of("h3", "h4", "h5"), kinds(h.handovers(Instant.EPOCH, Instant.MAX, 100)));
        assertEquals(3, h.size());
    }

    @Test
    void add_pastTheByteBound_oldestReadingsGoFirst_handoversOnlyWhenNoReadingIsLeft() throws IOException {
        long one = 8L + record(0, T0).encode().length;
        ReadingHistory h = ReadingHistory.inMemory(100, 3 * one, Duration.ofHours(1), clock);
        for (int i = 0; i < 10; i++) {
            h.add(record(i, T0.plusSeconds(i)));
        }
        assertEquals(3, h.size());
        assertEquals(3 * one, h.bytes());
        h.addHandover(T0.plusSeconds(20), handover(1));
        h.add(record(10, T0.plusSeconds(21)));
        // the handover and the newest reading stay; the readings around them made room
        assertEquals(List.of("h1", "r10"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100)));
        h.addHandover(T0.plusSeconds(22), handover(2));
        // two handovers and the newest reading do not fit: the older handover goes
        assertEquals(List.of("r10", "h2"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100)));
        assertTrue(h.bytes() <= 3 * one || h.handoverCount() == 1);
    }

    @Test
    void open_byteBoundAndRewrite_fileStreamedBack_memoryHoldsNoBodies() throws IOException {
        Path file = dir.resolve("history.pqhl");
        try (ReadingHistory h = ReadingHistory.open(file, 50, Duration.ofHours(1), clock)) {
            for (int i = 0; i < 2000; i++) { // rewritten at 1,100 entries
                h.add(record(i, T0.plusSeconds(i)));
            }
            assertEquals(50, h.size());
            assertTrue(Files.size(file) < 1200L * (8 + record(0, T0).encode().length), Files.size(file) + " bytes");
        }
        try (ReadingHistory h = ReadingHistory.open(file, 10, Duration.ofHours(1), clock)) {
            assertEquals(
                    List.of(1990L, 1991L, 1992L, 1993L, 1994L, 1995L, 1996L, 1997L, 1998L, 1999L),
                    h.range(Instant.EPOCH, Instant.MAX, 100).stream()
                            .map(SignedRecord::index)
                            .toList());
        }
    }

    @Test
    void add_handoverOlderThanAge_prunedButNewestHandoverKept() throws IOException {
        ReadingHistory h = ReadingHistory.inMemory(100, Duration.ofSeconds(50), clock);
        h.addHandover(T0, handover(1));
        h.addHandover(T0.plusSeconds(10), handover(2));
        h.add(record(0, T0.plusSeconds(90)));
        assertEquals(List.of("h2", "r0"), kinds(h.entries(Instant.EPOCH, Instant.MAX, 100)));
    }

    @Test
    void open_afterRestart_handoversBackInOrder() throws IOException {
        Path file = dir.resolve("history.pqhl");
        SignedKeyHandover h1 = handover(1);
        try (ReadingHistory h = ReadingHistory.open(file, 100, Duration.ofHours(1), clock)) {
            h.add(record(0, T0.plusSeconds(1)));
            h.addHandover(T0.plusSeconds(2), h1);
            h.add(record(1, T0.plusSeconds(3)));
        }
        try (ReadingHistory h = ReadingHistory.open(file, 100, Duration.ofHours(1), clock)) {
            List<HistoryEntry> all = h.entries(Instant.EPOCH, Instant.MAX, 100);
            assertEquals(List.of("r0", "h1", "r1"), kinds(all));
            assertArrayEquals(h1.encode(), all.get(1).value());
            assertEquals(T0.plusSeconds(2), all.get(1).sourceTime());
        }
    }

    @Test
    void open_version1File_refusedAsNotAHistoryFile() throws IOException {
        // Version 1 (readings only) predates the first release; its migration is gone (issue 28).
        Path file = dir.resolve("history.pqhl");
        byte[] r = record(0, T0.plusSeconds(1)).encode();
        ByteBuffer b = ByteBuffer.allocate(HistoryFile.HEADER_BYTES + HistoryFile.ENTRY_HEADER_BYTES + r.length);
        b.put(new byte[] {'P', 'Q', 'H', 'L', 1}).position(HistoryFile.HEADER_BYTES);
        b.putInt(r.length)
                .putInt(dev.pqsign.telemetry.internal.StateCodec.crc32c(r, 0, r.length))
                .put(r);
        Files.write(file, b.array());
        IOException e =
                assertThrows(IOException.class, () -> ReadingHistory.open(file, 100, Duration.ofHours(1), clock));
        assertEquals(file + ": not a reading history file (magic / version)", e.getMessage());
        assertArrayEquals(b.array(), Files.readAllBytes(file), "a refused file stays as it was");
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 30, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void open_fifo_refusedByTypeBeforeAnyRead() throws Exception {
        Path file = dir.resolve("history.pqhl");
        Process mk = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor());
        IOException e = assertThrows(
                dev.pqsign.state.NotRegularFileException.class,
                () -> ReadingHistory.open(file, 10, Duration.ofHours(1), clock));
        assertEquals(file + ": is a named pipe (FIFO), not a regular file; refusing to open it", e.getMessage());
    }
}
