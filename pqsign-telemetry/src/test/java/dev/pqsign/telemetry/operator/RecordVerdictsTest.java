package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.FaultInjector;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SequencedSigner;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict.Gap;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.testing.MemoryStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ReadingVerifier#check(SignedRecord)}: gaps, duplicates, index reuse, with real files. */
class RecordVerdictsTest {

    @TempDir
    Path dir;

    private final Ed25519TestDouble key = Ed25519TestDouble.generate();
    private MemoryStateStore counter;
    private ReadingSigner signer;
    private ReplayGuard guard;
    private AcceptedRecords accepted;
    private ReadingVerifier verifier;
    private long sequence;

    @BeforeEach
    void setUp() throws IOException {
        counter = MemoryStateStore.empty("seq");
        signer = new ReadingSigner(SequencedSigner.open(key.signer(), counter, 1));
        openVerifier();
    }

    private void openVerifier() throws IOException {
        guard = ReplayGuard.inDirectory(dir.resolve("replay"));
        accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 64);
        verifier = new ReadingVerifier(
                guard,
                List.of(new ReadingVerifier.TrustedKey(key.keyId(), key.verifier(), EmbeddedIndex.NONE)),
                accepted,
                dir.resolve("evidence"));
    }

    @AfterEach
    void tearDown() throws IOException {
        accepted.close();
        guard.close();
    }

    private SignedRecord record(SignedReading r) {
        return SignedRecord.of(key.keyId(), Ed25519TestDouble.PARAMS.setName(), r, Instant.now(), ++sequence, 0, 0, 0);
    }

    private SignedRecord sign(String text) {
        return record(signer.sign(text));
    }

    @Test
    void check_consecutiveIndices_acceptedWithoutGaps() {
        for (int i = 0; i < 5; i++) {
            RecordCheck c = verifier.check(sign("r" + i));
            assertEquals(Reason.ACCEPTED, c.verdict().reason());
            assertEquals(List.of(), c.gaps());
        }
    }

    @Test
    void check_skippedIndices_reportsGapRange() {
        verifier.check(sign("r0"));
        sign("lost1");
        sign("lost2");
        RecordCheck c = verifier.check(sign("r3"));
        assertEquals(Reason.ACCEPTED, c.verdict().reason());
        assertEquals(List.of(new Gap(1, 2)), c.gaps());
    }

    @Test
    void check_firstReadingOfKeyAboveZero_reportsTheIndicesBeforeItAsGap() {
        sign("before the operator");
        sign("before the operator, too");
        RecordCheck c = verifier.check(sign("first seen"));
        assertEquals(Reason.ACCEPTED, c.verdict().reason());
        assertEquals(List.of(new Gap(0, 1)), c.gaps(), "a key's sequence starts at index 0");
    }

    @Test
    void check_rejectedIndexInBetween_notCountedAsGap() {
        verifier.check(sign("r0"));
        SignedRecord tampered = record(FaultInjector.withTamperedReading(signer.sign("r1")));
        assertEquals(Reason.BAD_SIGNATURE, verifier.check(tampered).verdict().reason());
        sign("lost2");
        RecordCheck c = verifier.check(sign("r3"));
        assertEquals(List.of(new Gap(2, 2)), c.gaps());
    }

    @Test
    void check_sameRecordAgain_duplicate_evenAfterRestart() throws IOException {
        SignedRecord r0 = sign("r0");
        SignedRecord r1 = sign("r1");
        assertEquals(Reason.ACCEPTED, verifier.check(r0).verdict().reason());
        assertEquals(Reason.ACCEPTED, verifier.check(r1).verdict().reason());
        assertEquals(Reason.DUPLICATE, verifier.check(r0).verdict().reason());
        tearDown();
        openVerifier();
        RecordCheck again = verifier.check(r1);
        assertEquals(Reason.DUPLICATE, again.verdict().reason());
        assertTrue(!again.verdict().alarm());
        assertEquals(Reason.ACCEPTED, verifier.check(sign("r2")).verdict().reason());
    }

    @Test
    void check_differentValidReadingUnderAcceptedIndex_indexReuseWithEvidence() throws IOException {
        MemoryStateStore backup = MemoryStateStore.empty("backup");
        backup.create(counter.read());
        SignedRecord genuine = sign("1500.00,genuine");
        assertEquals(Reason.ACCEPTED, verifier.check(genuine).verdict().reason());
        // A restored copy of the old counter signs a different reading under the same index.
        ReadingSigner restored = new ReadingSigner(SequencedSigner.open(key.signer(), backup, 1));
        SignedRecord clone = record(restored.sign("1400.00,clone"));
        assertEquals(genuine.index(), clone.index());
        RecordCheck c = verifier.check(clone);
        assertEquals(Reason.INDEX_REUSE, c.verdict().reason());
        assertTrue(c.verdict().alarm());
        List<Path> files;
        try (Stream<Path> s = Files.list(dir.resolve("evidence"))) {
            files = s.sorted().toList();
        }
        assertEquals(2, files.size(), files.toString());
        assertArrayEquals(genuine.encode(), Files.readAllBytes(files.get(0)));
        assertArrayEquals(clone.encode(), Files.readAllBytes(files.get(1)));
    }

    @Test
    void check_olderIndexNeverAccepted_replayed() {
        SignedRecord before = sign("signed before the operator saw the key");
        assertEquals(Reason.ACCEPTED, verifier.check(sign("r1")).verdict().reason());
        RecordCheck c = verifier.check(before);
        assertEquals(Reason.REPLAYED, c.verdict().reason());
        assertTrue(c.verdict().alarm());
    }

    @Test
    void acceptedUnreported_killedBeforeReporting_offeredOnceAfterRestart() throws IOException {
        SignedRecord r0 = sign("r0");
        SignedRecord r1 = sign("r1");
        SignedRecord r2 = sign("r2");
        for (SignedRecord r : List.of(r0, r1, r2)) {
            assertEquals(Reason.ACCEPTED, verifier.check(r).verdict().reason());
        }
        verifier.reported(r0); // r1 and r2 were accepted, then the operator died before writing them out
        tearDown();
        openVerifier();
        List<SignedRecord> missed = verifier.acceptedUnreported();
        assertEquals(List.of(1L, 2L), missed.stream().map(SignedRecord::index).toList());
        assertArrayEquals(r2.encode(), missed.get(1).encode());
        for (SignedRecord r : missed) {
            verifier.reported(r);
        }
        assertEquals(List.of(), verifier.acceptedUnreported());
        assertEquals(Reason.DUPLICATE, verifier.check(r2).verdict().reason(), "the reported flag keeps the record");
    }

    @Test
    void check_olderThanRingCapacity_replayed() {
        SignedRecord r0 = sign("r0");
        verifier.check(r0);
        for (int i = 1; i <= 64; i++) {
            verifier.check(sign("r" + i)); // index 64 takes r0's slot in a 64-slot ring
        }
        assertEquals(Reason.REPLAYED, verifier.check(r0).verdict().reason());
    }

    @Test
    void check_skipNoticeAfterBurnedIndices_reportsThemSkippedNotMissing() {
        verifier.check(sign("r0"));
        sign("lost 1"); // published, never arrived: a gap
        sign("burned 2"); // reserved ahead before a crash: never published
        sign("burned 3");
        RecordCheck c = verifier.check(sign(new dev.pqsign.telemetry.SkipNotice(2, 3).text()));
        assertEquals(Reason.ACCEPTED, c.verdict().reason());
        assertEquals(List.of(new Gap(1, 1)), c.gaps());
        assertEquals(List.of(new Gap(2, 3)), c.skipped());
    }

    @Test
    void check_skipNoticeNotExactlyTheFormat_isAnOrdinaryReading() {
        verifier.check(sign("r0"));
        sign("lost 1");
        for (String text :
                List.of("pqsign:skipped from=1 to=1 ", "pqsign:skipped from=01 to=1", "pqsign:skipped from=1 to=0")) {
            RecordCheck c = verifier.check(sign(text));
            assertEquals(List.of(), c.skipped(), text);
        }
    }

    @Test
    void check_skipNoticeClaimingItsOwnIndexOrLater_skipsNothing() {
        verifier.check(sign("r0"));
        sign("lost 1");
        RecordCheck c = verifier.check(sign(new dev.pqsign.telemetry.SkipNotice(1, 2).text())); // index 2
        assertEquals(List.of(new Gap(1, 1)), c.gaps());
        assertEquals(List.of(), c.skipped());
    }
}
