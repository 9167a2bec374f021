package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.internal.MarkFile;
import dev.pqsign.testing.MemoryStateStore;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory whose replay marks are lost, cut short or rewound never accepts a reading at or
 * below one it accepted: {@link MarkRecovery} rebuilds the mark from the accepted records, with real
 * files.
 */
class MarkRecoveryTest {

    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private final Ed25519TestDouble other = Ed25519TestDouble.generate();
    private ReadingSigner signer;
    private ReadingSigner otherSigner;
    private ReplayGuard guard;
    private AcceptedRecords accepted;
    private ReadingVerifier verifier;
    private long sequence;

    @BeforeEach
    void setUp() throws IOException {
        signer = new ReadingSigner(SequencedSigner.open(key.signer(), MemoryStateStore.empty("seq"), 1));
        otherSigner = new ReadingSigner(SequencedSigner.open(other.signer(), MemoryStateStore.empty("seq2"), 1));
        open();
    }

    private void open() throws IOException {
        guard = ReplayGuard.inDirectory(
                dir.resolve("replay"), new MarkRecovery(dir.resolve("accepted"), dir.resolve("chains")));
        accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 64);
        verifier = new ReadingVerifier(
                guard,
                List.of(
                        new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE),
                        new ReadingVerifier.TrustedKey(other.keyId(), other.verifier(), EmbeddedIndex.NONE)),
                accepted,
                dir.resolve("evidence"));
    }

    @AfterEach
    void close() throws IOException {
        accepted.close();
        guard.close();
    }

    private void reopen() throws IOException {
        close();
        open();
    }

    private Path markFile() {
        return dir.resolve("replay").resolve(ReplayGuard.MARK_FILE_NAME);
    }

    private SignedRecord sign(ReadingSigner s, Ed25519TestDouble k, String text) {
        return SignedRecord.of(
                k.keyId(), Ed25519TestDouble.PARAMS.setName(), s.sign(text), Instant.now(), ++sequence, 0, 0, 0);
    }

    private List<SignedRecord> acceptFive() {
        List<SignedRecord> out = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            SignedRecord r = sign(signer, key, "r" + i);
            assertEquals(Reason.ACCEPTED, verifier.check(r).verdict().reason());
            out.add(r);
        }
        return out;
    }

    @Test
    void markFileDeleted_acceptedReadingsAgain_duplicate_newOnesAccepted() throws IOException {
        List<SignedRecord> earlier = acceptFive();
        close();
        Files.delete(markFile());
        open();
        for (SignedRecord r : earlier) {
            assertEquals(Reason.DUPLICATE, verifier.check(r).verdict().reason(), "index " + r.index());
        }
        assertEquals(List.of(new ReplayGuard.RebuiltMark(key.keyId(), 0, 5)), guard.rebuiltMarks());
        RecordCheck next = verifier.check(sign(signer, key, "r5"));
        assertEquals(Reason.ACCEPTED, next.verdict().reason());
        assertEquals(List.of(), next.gaps());
    }

    @Test
    void markFileCutShort_keyPastTheCutRebuilt() throws IOException {
        assertEquals(
                Reason.ACCEPTED,
                verifier.check(sign(otherSigner, other, "o0")).verdict().reason());
        List<SignedRecord> earlier = acceptFive(); // the second key's pair lies behind the first's
        close();
        try (RandomAccessFile f = new RandomAccessFile(markFile().toFile(), "rw")) {
            f.setLength(MarkFile.HEADER_BYTES + MarkFile.PAIR_BYTES + MarkFile.RECORD_BYTES / 2);
        }
        open();
        for (SignedRecord r : earlier) {
            assertEquals(Reason.DUPLICATE, verifier.check(r).verdict().reason(), "index " + r.index());
        }
        assertEquals(
                Reason.ACCEPTED,
                verifier.check(sign(signer, key, "r5")).verdict().reason());
    }

    @Test
    void markFileReplacedByAnOlderCopy_laterAcceptedReadingsStayRefused() throws IOException {
        SignedRecord first = sign(signer, key, "r0");
        assertEquals(Reason.ACCEPTED, verifier.check(first).verdict().reason());
        close();
        Path copy = dir.resolve("old-marks");
        Files.copy(markFile(), copy);
        open();
        List<SignedRecord> later = acceptFive();
        close();
        Files.copy(copy, markFile(), StandardCopyOption.REPLACE_EXISTING);
        open();
        for (SignedRecord r : later) {
            assertEquals(Reason.DUPLICATE, verifier.check(r).verdict().reason(), "index " + r.index());
        }
        assertEquals(Reason.DUPLICATE, verifier.check(first).verdict().reason());
    }

    @Test
    void marksIntact_noMarkRebuilt() throws IOException {
        acceptFive();
        reopen();
        assertEquals(4, guard.lastAccepted(key.keyId()));
        assertEquals(-1, guard.lastAccepted(other.keyId()));
        assertTrue(guard.rebuiltMarks().isEmpty(), guard.rebuiltMarks().toString());
    }

    @Test
    void ringDamaged_markFileStillDecides() throws IOException {
        List<SignedRecord> earlier = acceptFive();
        close();
        Path ring = dir.resolve("accepted").resolve(key.keyId().hex() + ".pqar");
        byte[] b = Files.readAllBytes(ring);
        b[AcceptedRecords.HEADER_BYTES + 12] ^= 1; // slot 0's record no longer matches its checksum
        Files.write(ring, b);
        open();
        assertEquals(Reason.REPLAYED, verifier.check(earlier.get(0)).verdict().reason());
        assertEquals(Reason.DUPLICATE, verifier.check(earlier.get(4)).verdict().reason());
    }
}
