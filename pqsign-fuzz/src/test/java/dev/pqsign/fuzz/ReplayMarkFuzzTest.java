package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.internal.MarkFile;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.MarkRecovery;
import dev.pqsign.telemetry.operator.ReplayGuard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The operator data directory's replay state (docs/formats/signed-reading.md, signed-record.md): the
 * group-committed {@code replay/replay-marks.pqrm} ({@link MarkFile}) and a key's ring of accepted
 * records {@code accepted/<key id>.pqar} ({@link AcceptedRecords}), from which a lost mark is
 * rebuilt ({@link MarkRecovery}).
 *
 * <p>Each input starts from a data directory of an earlier run that accepted indices
 * {@value #FIRST} and {@value #LAST} of key A (each record in A's ring) and 0 of key B. Input: a
 * flags byte, then a file image. flags mod 3 picks what the image does: replace the mark file,
 * replace key A's ring, or (deleting the mark file first) replace the mark file only if the image is
 * not empty, so a missing mark file is reached too; if (flags / 3) is odd the target first
 * recomputes the image's CRC-32C fields (every 128-byte record of a mark file), so the fields behind
 * the checksums are reached. A guard reopened on the damaged directory then asks for the marks of
 * keys A and B and tries indices 0, 5, the earlier run's indices and last + 1 for each.
 *
 * <p>Asserts: nothing but {@link IOException} (the only documented failure) is thrown; with only
 * one of the two files damaged, no index at or below what the earlier run accepted for key A is
 * accepted again (the intact file proves it); an accepted index is then refused (a replay) by the
 * same guard and by a guard reopened on the same directory, and the last accepted index is at least
 * every index that was accepted or refused.
 */
class ReplayMarkFuzzTest {
    static final KeyId KEY_A = KeyId.of(DeterministicRandom.bytes("replay key A", KeyId.BYTES));
    static final KeyId KEY_B = KeyId.of(DeterministicRandom.bytes("replay key B", KeyId.BYTES));
    static final long FIRST = 3;
    static final long LAST = 9;
    static final int RING_SLOTS = 8;
    static final int SIGNATURE_BYTES = 16;
    private static final Path BASE = ScratchDirectory.create("pqsign-fuzz-marks");
    private static long counter;

    @FuzzTest
    void fuzz(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        int flags = data[0] & 0xff;
        int kind = flags % 3;
        byte[] image = Arrays.copyOfRange(data, 1, data.length);
        if ((flags / 3) % 2 == 1 && kind != 1) {
            fixChecksums(image);
        }
        Path dir = BASE.resolve("d" + counter++);
        try {
            earlierRun(dir);
            Path marks = dir.resolve("replay").resolve(ReplayGuard.MARK_FILE_NAME);
            if (kind == 0) {
                Files.write(marks, image);
            } else if (kind == 1) {
                Files.write(dir.resolve("accepted").resolve(KEY_A.hex() + ".pqar"), image);
            } else {
                Files.delete(marks);
                if (image.length > 0) {
                    Files.write(marks, image);
                }
            }
            run(dir);
        } finally {
            SeedCorpus.deleteTree(dir);
        }
    }

    /** A data directory as an operator leaves it after accepting FIRST and LAST of key A and 0 of key B. */
    static void earlierRun(Path dir) throws IOException {
        try (ReplayGuard guard = guard(dir);
                AcceptedRecords accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), RING_SLOTS)) {
            // As the verifier does: a key's mark is loaded (its freshness checked) before its record is stored.
            guard.lastAccepted(KEY_A);
            for (long i : new long[] {FIRST, LAST}) {
                accepted.put(record(KEY_A, i), SIGNATURE_BYTES);
                assertTrue(guard.tryAccept(KEY_A, i));
            }
            assertTrue(guard.tryAccept(KEY_B, 0));
        }
    }

    /** A record of {@code key} at {@code index}, as a ring stores it (its signature is not checked there). */
    static SignedRecord record(KeyId key, long index) {
        byte[] sig = DeterministicRandom.bytes("record " + index, SIGNATURE_BYTES);
        return SignedRecord.of(
                key,
                "XMSSMT-SHA2_20/2_256",
                new SignedReading("reading " + index, index, sig),
                Instant.ofEpochSecond(1_700_000_000L + index),
                index,
                0,
                0,
                0);
    }

    static ReplayGuard guard(Path dir) throws IOException {
        return ReplayGuard.inDirectory(
                dir.resolve("replay"), new MarkRecovery(dir.resolve("accepted"), dir.resolve("chains")));
    }

    private static void run(Path dir) {
        List<KeyId> acceptedKeys = new ArrayList<>();
        List<Long> acceptedIndices = new ArrayList<>();
        try (ReplayGuard guard = guard(dir)) {
            for (KeyId key : List.of(KEY_A, KEY_B)) {
                long last = guard.lastAccepted(key);
                long[] tries = last < Long.MAX_VALUE - 2
                        ? new long[] {0, FIRST, 5, LAST, last + 1}
                        : new long[] {0, FIRST, 5, LAST};
                for (long i : tries) {
                    boolean accepted = guard.tryAccept(key, i);
                    long after = guard.lastAccepted(key);
                    assertTrue(
                            after >= i,
                            "index " + i + " was " + (accepted ? "accepted" : "refused")
                                    + " but the last accepted index is " + after);
                    if (key.equals(KEY_A)) {
                        assertFalse(
                                accepted && i <= LAST,
                                "index " + i + " of key A accepted again after its replay state was damaged; "
                                        + "the earlier run accepted up to " + LAST);
                    }
                    if (accepted) {
                        assertFalse(guard.tryAccept(key, i), "index " + i + " accepted twice");
                        acceptedKeys.add(key);
                        acceptedIndices.add(i);
                    }
                }
            }
        } catch (IOException documented) {
            return;
        }
        try (ReplayGuard reopened = guard(dir)) {
            for (int k = 0; k < acceptedKeys.size(); k++) {
                assertFalse(
                        reopened.tryAccept(acceptedKeys.get(k), acceptedIndices.get(k)),
                        "index " + acceptedIndices.get(k) + " accepted again after reopening");
            }
        } catch (IOException e) {
            throw new AssertionError("a mark file this guard wrote cannot be reopened: " + e.getMessage(), e);
        }
    }

    /** Recomputes the CRC-32C field of every 128-byte record of a mark file image. */
    static void fixChecksums(byte[] image) {
        int unit = MarkFile.RECORD_BYTES;
        for (int off = 0; off + unit <= image.length; off += unit) {
            CRC32C crc = new CRC32C();
            crc.update(image, off, unit - 4);
            int v = (int) crc.getValue();
            image[off + unit - 4] = (byte) (v >>> 24);
            image[off + unit - 3] = (byte) (v >>> 16);
            image[off + unit - 2] = (byte) (v >>> 8);
            image[off + unit - 1] = (byte) v;
        }
    }
}
