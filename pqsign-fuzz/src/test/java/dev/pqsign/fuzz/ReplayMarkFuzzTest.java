package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.MarkFile;
import dev.pqsign.telemetry.ReplayGuard;
import dev.pqsign.telemetry.SlotFileStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The replay-mark files of pqsign-telemetry (docs/formats/signed-reading.md): the group-committed
 * {@code replay-marks.pqrm} ({@link MarkFile}), and the earlier versions' per-key
 * {@code <key id>.marks} ({@link SlotFileStore}) and {@code <key id>.replay} files that
 * {@link ReplayGuard#inDirectory} carries over.
 *
 * <p>Input: a flags byte, then a file image. flags mod 3 picks the file the image becomes (mark file,
 * slot file, replay file of key A); if (flags / 3) is odd the target first recomputes the image's
 * CRC-32C fields (every 128-byte record of a mark file, both slots of a slot file), so the fields
 * behind the checksums are reached. The guard then asks for the marks of keys A and B and tries
 * indices 0, 5 and last + 1 for each.
 *
 * <p>Asserts: nothing but {@link IOException} (the only documented failure) is thrown; an accepted
 * index is then refused (a replay) by the same guard and by a guard reopened on the same directory,
 * and the last accepted index is at least every index that was accepted or refused.
 */
class ReplayMarkFuzzTest {
    static final KeyId KEY_A = KeyId.of(DeterministicRandom.bytes("replay key A", KeyId.BYTES));
    static final KeyId KEY_B = KeyId.of(DeterministicRandom.bytes("replay key B", KeyId.BYTES));
    private static final Path BASE = ScratchDirectory.create("pqsign-fuzz-marks");
    private static long counter;

    /** The file {@code flags} names inside {@code dir}. */
    static Path target(Path dir, int flags) {
        switch (flags % 3) {
            case 0:
                return dir.resolve(ReplayGuard.MARK_FILE_NAME);
            case 1:
                return dir.resolve(KEY_A.hex() + ".marks");
            default:
                return dir.resolve(KEY_A.hex() + ".replay");
        }
    }

    @FuzzTest
    void fuzz(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        int flags = data[0] & 0xff;
        byte[] image = Arrays.copyOfRange(data, 1, data.length);
        if ((flags / 3) % 2 == 1) {
            fixChecksums(flags % 3, image);
        }
        Path dir = BASE.resolve("d" + counter++);
        Files.createDirectories(dir);
        try {
            Files.write(target(dir, flags), image);
            run(dir);
        } finally {
            SeedCorpus.deleteTree(dir);
        }
    }

    private static void run(Path dir) {
        List<KeyId> acceptedKeys = new ArrayList<>();
        List<Long> acceptedIndices = new ArrayList<>();
        try (ReplayGuard guard = ReplayGuard.inDirectory(dir)) {
            for (KeyId key : List.of(KEY_A, KEY_B)) {
                long last = guard.lastAccepted(key);
                long[] tries = last < Long.MAX_VALUE - 2 ? new long[] {0, 5, last + 1} : new long[] {0, 5};
                for (long i : tries) {
                    boolean accepted = guard.tryAccept(key, i);
                    long after = guard.lastAccepted(key);
                    assertTrue(
                            after >= i,
                            "index " + i + " was " + (accepted ? "accepted" : "refused")
                                    + " but the last accepted index is " + after);
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
        try (ReplayGuard reopened = ReplayGuard.inDirectory(dir)) {
            for (int k = 0; k < acceptedKeys.size(); k++) {
                assertFalse(
                        reopened.tryAccept(acceptedKeys.get(k), acceptedIndices.get(k)),
                        "index " + acceptedIndices.get(k) + " accepted again after reopening");
            }
        } catch (IOException e) {
            throw new AssertionError("a mark file this guard wrote cannot be reopened: " + e.getMessage(), e);
        }
    }

    /** Recomputes the CRC-32C fields of a mark file (per record) or slot file (per slot) image. */
    static void fixChecksums(int kind, byte[] image) {
        int unit = kind == 0 ? MarkFile.RECORD_BYTES : kind == 1 ? SlotFileStore.SLOT_BYTES : 0;
        if (unit == 0) {
            return;
        }
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
