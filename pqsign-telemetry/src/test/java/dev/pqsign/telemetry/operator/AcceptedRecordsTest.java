package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.SignedRecordTest;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The accepted-records rings on real files: what {@code unreported} offers after a restart. */
class AcceptedRecordsTest {
    private static final int SIGNATURE_BYTES = 8;
    private static final int CAPACITY = 4;

    @TempDir
    Path dir;

    private final KeyId key = SignedRecordTest.example().keyId();

    private SignedRecord record(long index) {
        return SignedRecord.of(
                key,
                "HAETAE-2",
                new SignedReading("1503.27," + index, index, new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) index}),
                Instant.parse("2026-11-30T01:26:16Z").plusSeconds(index),
                1000 + index,
                0,
                0,
                0);
    }

    private List<Long> unreportedAfterRestart(long lastAccepted) throws IOException {
        try (AcceptedRecords again = AcceptedRecords.inDirectory(dir, CAPACITY)) {
            return again.unreported(key, lastAccepted, SIGNATURE_BYTES).stream()
                    .map(SignedRecord::index)
                    .toList();
        }
    }

    @Test
    void markReported_rightAfterPut_notOfferedAfterRestart() throws IOException {
        try (AcceptedRecords a = AcceptedRecords.inDirectory(dir, CAPACITY)) {
            for (long i = 0; i < 3; i++) {
                a.put(record(i), SIGNATURE_BYTES);
                a.markReported(record(i), SIGNATURE_BYTES);
            }
            a.put(record(3), SIGNATURE_BYTES);
            assertArrayEquals(
                    record(2).encode(),
                    a.get(key, 2, SIGNATURE_BYTES).orElseThrow().encode());
        }
        assertEquals(List.of(3L), unreportedAfterRestart(3));
    }

    @Test
    void markReported_afterLaterPuts_marksTheRightSlot() throws IOException {
        try (AcceptedRecords a = AcceptedRecords.inDirectory(dir, CAPACITY)) {
            a.put(record(0), SIGNATURE_BYTES);
            a.put(record(1), SIGNATURE_BYTES);
            a.put(record(2), SIGNATURE_BYTES);
            a.markReported(record(1), SIGNATURE_BYTES);
            a.markReported(record(1), SIGNATURE_BYTES); // twice: still one flag, record intact
            assertArrayEquals(
                    record(1).encode(),
                    a.get(key, 1, SIGNATURE_BYTES).orElseThrow().encode());
        }
        assertEquals(List.of(2L), unreportedAfterRestart(2));
    }

    @Test
    void markReported_afterAWholePageWasPut_marksEveryRecordOnce_recordsIntact() throws IOException {
        try (AcceptedRecords a = AcceptedRecords.inDirectory(dir, CAPACITY)) {
            for (long i = 0; i < CAPACITY; i++) {
                a.put(record(i), SIGNATURE_BYTES); // a page judged first, its verdicts written after
            }
            for (long i = 0; i < CAPACITY; i++) {
                a.markReported(record(i), SIGNATURE_BYTES);
            }
            for (long i = 0; i < CAPACITY; i++) {
                assertArrayEquals(
                        record(i).encode(),
                        a.get(key, i, SIGNATURE_BYTES).orElseThrow().encode());
            }
        }
        assertEquals(List.of(), unreportedAfterRestart(CAPACITY - 1));
    }

    @Test
    void markReported_slotOverwrittenByLaterIndex_leavesTheLaterRecordUnreported() throws IOException {
        try (AcceptedRecords a = AcceptedRecords.inDirectory(dir, CAPACITY)) {
            for (long i = 0; i <= CAPACITY; i++) {
                a.put(record(i), SIGNATURE_BYTES); // index CAPACITY replaces index 0
            }
            a.markReported(record(0), SIGNATURE_BYTES);
        }
        List<Long> offered = unreportedAfterRestart(CAPACITY);
        assertTrue(offered.contains((long) CAPACITY), offered.toString());
        assertEquals(List.of(1L, 2L, 3L, 4L), offered);
    }
}
