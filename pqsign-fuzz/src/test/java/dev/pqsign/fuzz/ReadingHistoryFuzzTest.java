package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.SignedRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The sensor's history file ({@code DATA_DIR/history.pqhl}, {@code PQHL}, docs/formats/signed-record.md)
 * that a restarted sensor reads back and serves to operators: {@link ReadingHistory#open}.
 *
 * <p>Input: a mode byte, then the file. Bit 0 of the mode: recompute every entry's CRC-32C (walking
 * the entry lengths as the reader does), so the records behind them are reached; bits 1–4: the
 * history's count limit minus one.
 *
 * <p>Asserts: opening throws only {@link IOException} (not a history file); the records held decode,
 * have strictly increasing source times and are at most the count limit; reopening the file the
 * reader left (a torn tail cut off) gives the same records; a record added after the newest one is
 * the newest after another reopen.
 */
class ReadingHistoryFuzzTest {
    private static final Instant NOW = SeedCorpus.HISTORY_NOW;
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final Duration MAX_AGE = Duration.ofDays(3650);
    private static final Path DIR = ScratchDirectory.create("pqsign-fuzz-history");
    private static final byte[] MAGIC = {'P', 'Q', 'H', 'L'};
    private static final int HEADER_BYTES = 16;
    /** The one version the reader opens (docs/formats/signed-record.md); any other is refused. */
    private static final int VERSION = 2;
    /** A genuine record (the first committed seed of {@link SignedRecordFuzzTest}) to add. */
    private static final SignedRecord TEMPLATE =
            SignedRecord.decode(FuzzKeys.resource(SeedCorpus.inputs(SignedRecordFuzzTest.class, "record-xmss-0")));

    @FuzzTest
    void fuzz(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        byte[] file = Arrays.copyOfRange(data, 1, data.length);
        if ((mode & 1) != 0) {
            withEntryChecksums(file);
        }
        int maxCount = 1 + ((mode >> 1) & 15);
        Path path = DIR.resolve("history.pqhl");
        Files.write(path, file);
        List<SignedRecord> held;
        try (ReadingHistory h = ReadingHistory.open(path, maxCount, MAX_AGE, CLOCK)) {
            held = all(h);
            assertEquals(held.size(), h.size());
            assertTrue(held.size() <= maxCount, held.size() + " records held, limit " + maxCount);
            for (int i = 1; i < held.size(); i++) {
                assertTrue(held.get(i - 1).sourceTime().isBefore(held.get(i).sourceTime()), "source times increase");
            }
            if (!held.isEmpty()) {
                assertArrayEquals(
                        held.get(held.size() - 1).encode(),
                        h.newest().orElseThrow().encode());
            }
        } catch (IOException documented) {
            assertTrue(
                    file.length < HEADER_BYTES
                            || !Arrays.equals(MAGIC, Arrays.copyOf(file, 4))
                            || file[4] != VERSION
                            || !Arrays.equals(new byte[11], Arrays.copyOfRange(file, 5, HEADER_BYTES)),
                    "a file with a valid header was refused: " + documented.getMessage());
            return;
        }
        SignedRecord added = null;
        try (ReadingHistory h = ReadingHistory.open(path, maxCount, MAX_AGE, CLOCK)) {
            List<SignedRecord> again = all(h);
            assertEquals(held.size(), again.size(), "reopening gives the same records");
            for (int i = 0; i < held.size(); i++) {
                assertArrayEquals(held.get(i).encode(), again.get(i).encode(), "reopening gives the same records");
            }
            Instant after = held.isEmpty()
                    ? NOW
                    : held.get(held.size() - 1).sourceTime().plusNanos(1);
            if (after.isBefore(NOW.plus(MAX_AGE))) {
                added = SignedRecord.of(
                        TEMPLATE.keyId(),
                        TEMPLATE.parameterSetName(),
                        TEMPLATE.reading(),
                        after,
                        TEMPLATE.sequence(),
                        TEMPLATE.signNanos(),
                        TEMPLATE.signStartNanoTime(),
                        TEMPLATE.publishNanoTime());
                h.add(added);
            }
        }
        if (added != null) {
            try (ReadingHistory h = ReadingHistory.open(path, maxCount, MAX_AGE, CLOCK)) {
                assertArrayEquals(added.encode(), h.newest().orElseThrow().encode(), "the added record is the newest");
            }
        }
    }

    private static List<SignedRecord> all(ReadingHistory h) {
        return h.range(Instant.MIN, Instant.MAX, Integer.MAX_VALUE);
    }

    /** Sets the CRC-32C of every entry whose length the reader would accept, front to back. */
    static void withEntryChecksums(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int at = HEADER_BYTES;
        while (at + 8 <= file.length) {
            long n = b.getInt(at) & 0xffffffffL;
            if (n > file.length - at - 8) {
                return;
            }
            CRC32C c = new CRC32C();
            c.update(file, at + 8, (int) n);
            b.putInt(at + 4, (int) c.getValue());
            at += 8 + (int) n;
        }
    }
}
