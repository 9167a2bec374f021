package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.telemetry.SignedRecord;

/**
 * The signed record ({@code PQSR}, docs/formats/signed-record.md): the one value a sensor publishes
 * per reading, which the operator decodes from every notification and every history entry, then
 * checks with its {@code ReadingVerifier} (which also remembers accepted records, so duplicates,
 * index reuse and gaps are reached).
 *
 * <p>Input: the record's bytes.
 *
 * <p>Asserts: {@link SignedRecord#decode} throws only {@link IllegalArgumentException}; a decoded
 * record re-encodes to its input; the verifier never throws, and its verdict passes
 * {@link PinnedSensors#assertRecordConsistent}: no reading accepted (or called a replay, duplicate or
 * index reuse) unless BouncyCastle 1.87 verifies it under the pinned key and set; no
 * {@code BAD_SIGNATURE} for a signature BouncyCastle accepts; accepted indices increase per key.
 */
class SignedRecordFuzzTest {

    @FuzzTest
    void fuzz(byte[] data) {
        check(data);
    }

    /** Decodes and checks one record value as the operator does; {@code false} if it does not decode. */
    static boolean check(byte[] value) {
        SignedRecord record;
        try {
            record = SignedRecord.decode(value);
        } catch (IllegalArgumentException documented) {
            return false;
        }
        assertArrayEquals(value, record.encode(), "a decoded record re-encodes to its input");
        assertEquals(32, record.contentDigest().length);
        PinnedSensors k = PinnedSensors.rememberingRecords();
        k.assertRecordConsistent(record, k.verifier.check(record));
        return true;
    }
}
