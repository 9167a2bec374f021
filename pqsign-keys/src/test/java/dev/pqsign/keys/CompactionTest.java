package dev.pqsign.keys;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssPrivateKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compacting retired generations into the handover log on a real key directory (real keys, real
 * files, fsync): what stays on disk, what reading the chain returns, and how opening repairs what an
 * interrupted compaction left and refuses what damage left.
 */
class CompactionTest {
    private static final Instant T = Instant.parse("2026-12-02T03:00:00Z");

    @TempDir
    Path tmp;

    private Path dir;
    private PqPublicKey first;
    /** Every handover the directory made, oldest first. */
    private final List<SignedKeyHandover> made = new ArrayList<>();

    private SensorKeyDirectory create() throws IOException {
        XmssPrivateKey key = XmssKeyGenerator.generate(TestKeys.SET);
        first = PqPublicKey.of(key.publicKey());
        dir = tmp.resolve("sensor");
        SensorKeyDirectory.create(dir, key);
        key.destroy();
        return open(SensorKeyDirectory.Observer.NONE);
    }

    private SensorKeyDirectory open(SensorKeyDirectory.Observer observer) throws IOException {
        return SensorKeyDirectory.open(
                dir, SensorKeyDirectory.Options.defaults().withObserver(observer));
    }

    /** One rollover as {@link KeyRollover} runs it, without compacting; the next key gets a certificate file. */
    private void rollOver(SensorKeyDirectory d) throws IOException {
        d.prepareNext();
        long next = d.generation() + 1;
        Files.write(d.certificateFile(next), certificate(next));
        made.add(d.handOver(T));
        d.destroyRetired();
    }

    private static byte[] certificate(long g) {
        return ("certificate chain of generation " + g).getBytes(StandardCharsets.US_ASCII);
    }

    private List<Long> generationDirectories() throws IOException {
        Path parent = dir.resolve(SensorKeyDirectory.GENERATIONS);
        try (Stream<Path> s = Files.list(parent)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.matches("\\d{12}"))
                    .map(Long::parseLong)
                    .sorted()
                    .toList();
        }
    }

    private void assertChainAsMade(SensorKeyDirectory d) throws IOException {
        List<SignedKeyHandover> read = d.handovers();
        assertEquals(made, read);
        int from = Math.min(3, made.size());
        assertEquals(made.subList(from, made.size()), d.handoversAfter(from));
        for (long g = 1; g <= d.generation(); g++) {
            assertArrayEquals(certificate(g), d.certificate(g).orElseThrow(), "generation " + g);
        }
    }

    @Test
    void compact_afterEachOfSixRollovers_keepsOnlyCurrentAndPreparedDirectoriesAndTheChainReadsTheSame()
            throws Exception {
        try (SensorKeyDirectory d = create()) {
            for (int n = 1; n <= 6; n++) {
                rollOver(d);
                assertEquals(n >= 2 ? 1 : 0, d.compact(), "rollover " + n + " compacts generation n-1");
                d.prepareNext();
                assertEquals(n >= 2 ? List.of((long) n, n + 1L) : List.of(1L, 2L), generationDirectories());
            }
            assertEquals(6, d.generation());
            assertChainAsMade(d);
            assertEquals(0, d.compact(), "the current and the prepared generation are never compacted");
        }
        // After reopening, everything reads the same; the prepared key is still the next one.
        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertEquals(6, d.generation());
            assertEquals(made.get(5).statement().newKey(), d.currentKey());
            assertTrue(d.nextKeyReady());
            assertChainAsMade(d);
        }
        SensorKeyDirectory.Inspection i = SensorKeyDirectory.inspect(dir);
        assertEquals(6, i.handovers());
        assertEquals(5, i.compacted());
        KeyDirectoryAudit.Report r = KeyDirectoryAudit.run(dir, first);
        assertTrue(r.passed(), r.problems().toString());
        assertEquals(6, r.verified());
        assertEquals(5, r.logEntries());
    }

    @Test
    void compact_directoriesWithoutLog_openUnchangedThenTheFirstCompactionTakesTheWholeBacklog() throws Exception {
        try (SensorKeyDirectory d = create()) {
            for (int n = 1; n <= 4; n++) {
                rollOver(d);
            }
        }
        assertFalse(Files.exists(dir.resolve(SensorKeyDirectory.HANDOVER_LOG)));
        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertEquals(List.of(1L, 2L, 3L, 4L), generationDirectories());
            assertChainAsMade(d);
            assertEquals(3, d.compact());
            assertEquals(List.of(4L), generationDirectories());
            assertChainAsMade(d);
        }
        assertTrue(KeyDirectoryAudit.run(dir).passed());
    }

    @Test
    void open_temporaryFileOfALogNeverCreated_isRemovedAndTheDirectoryOpensWithoutLog() throws Exception {
        try (SensorKeyDirectory d = create()) {
            rollOver(d);
        }
        Path leftover = dir.resolve("." + SensorKeyDirectory.HANDOVER_LOG + ".tmp-0123456789abcdef");
        Files.write(leftover, new byte[] {'P', 'Q'});
        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertFalse(Files.exists(leftover));
            assertFalse(Files.exists(dir.resolve(SensorKeyDirectory.HANDOVER_LOG)));
            assertChainAsMade(d);
        }
    }

    /** Stops a compaction right after a step, as a crash would (the next open sees what it left). */
    private static SensorKeyDirectory.Observer stopAfter(CompactionStep stop) {
        return new SensorKeyDirectory.Observer() {
            @Override
            public void stepDone(RolloverStep step, long generation) {}

            @Override
            public void compactionStepDone(CompactionStep step, long generation) {
                if (step == stop) {
                    throw new IllegalStateException("stopped after " + step);
                }
            }
        };
    }

    /** Three rollovers; the compaction of generation 2 stops right after it is logged. */
    private void interruptedAfterLogging() throws IOException {
        try (SensorKeyDirectory d = create()) {
            rollOver(d);
            rollOver(d);
            assertEquals(1, d.compact());
        }
        try (SensorKeyDirectory d = open(stopAfter(CompactionStep.RECORD_LOGGED))) {
            rollOver(d);
            assertThrows(IllegalStateException.class, d::compact);
        }
        assertEquals(List.of(2L, 3L), generationDirectories(), "generation 2 is in both places");
    }

    @Test
    void open_afterCompactionStoppedBetweenItsSteps_removesTheLoggedDirectory() throws Exception {
        interruptedAfterLogging();
        assertEquals(3, SensorKeyDirectory.inspect(dir).handovers(), "inspect reads both places as one");
        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertEquals(List.of(3L), generationDirectories());
            assertChainAsMade(d);
        }
        assertTrue(KeyDirectoryAudit.run(dir).passed());
    }

    @Test
    void open_tornLastEntryWhoseDirectoryStillExists_cutsItAndTheNextCompactionLogsItAgain() throws Exception {
        interruptedAfterLogging();
        long size = Files.size(dir.resolve(SensorKeyDirectory.HANDOVER_LOG));
        truncate(size - 7);
        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertEquals(List.of(2L, 3L), generationDirectories(), "the torn generation stays in its directory");
            assertChainAsMade(d);
            assertEquals(1, d.compact());
            assertEquals(size, Files.size(dir.resolve(SensorKeyDirectory.HANDOVER_LOG)));
            assertEquals(List.of(3L), generationDirectories());
            assertChainAsMade(d);
        }
    }

    private void truncate(long size) throws IOException {
        Path log = dir.resolve(SensorKeyDirectory.HANDOVER_LOG);
        byte[] b = Files.readAllBytes(log);
        Files.write(log, Arrays.copyOf(b, (int) size));
    }

    /** Four rollovers, compacted: generations 1 to 3 in the log, 4 current. */
    private void compactedFour() throws IOException {
        try (SensorKeyDirectory d = create()) {
            for (int n = 1; n <= 4; n++) {
                rollOver(d);
                d.compact();
            }
        }
        assertEquals(List.of(4L), generationDirectories());
    }

    private void flipLogByte(long offset) throws IOException {
        Path log = dir.resolve(SensorKeyDirectory.HANDOVER_LOG);
        byte[] b = Files.readAllBytes(log);
        b[(int) offset] ^= 0x10;
        Files.write(log, b);
    }

    @Test
    void openAndAudit_flippedByteInLastEntryWhoseDirectoryIsGone_fail() throws Exception {
        compactedFour();
        flipLogByte(Files.size(dir.resolve(SensorKeyDirectory.HANDOVER_LOG)) - 50);
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> open(SensorKeyDirectory.Observer.NONE));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
        assertThrows(KeyFormatException.class, () -> SensorKeyDirectory.inspect(dir));
        KeyDirectoryAudit.Report r = KeyDirectoryAudit.run(dir);
        assertFalse(r.passed());
    }

    @Test
    void openAndAudit_flippedByteInMiddleEntry_fail() throws Exception {
        compactedFour();
        flipLogByte(HandoverLog.HEADER_BYTES + 300);
        assertThrows(KeyFormatException.class, () -> open(SensorKeyDirectory.Observer.NONE));
        KeyDirectoryAudit.Report r = KeyDirectoryAudit.run(dir);
        assertFalse(r.passed());
        assertTrue(r.problems().get(0).contains("CRC-32C"), r.problems().toString());
    }

    @Test
    void audit_signatureOfALoggedRecordChangedWithItsCrcRecomputed_failsWhereOpenDoesNotLook() throws Exception {
        compactedFour();
        Path log = dir.resolve(SensorKeyDirectory.HANDOVER_LOG);
        byte[] b = Files.readAllBytes(log);
        int at = HandoverLog.HEADER_BYTES;
        int length = ByteBuffer.wrap(b, at, 4).getInt();
        int body0 = at + HandoverLog.ENTRY_HEAD_BYTES;
        int recordLength = ByteBuffer.wrap(b, body0 + 8, 4).getInt();
        b[body0 + 12 + recordLength - 10] ^= 0x01; // inside generation 1's signature
        byte[] body =
                Arrays.copyOfRange(b, at + HandoverLog.ENTRY_HEAD_BYTES, at + HandoverLog.ENTRY_HEAD_BYTES + length);
        ByteBuffer.wrap(b, at + 4, 4).putInt(HandoverLog.crc32c(body));
        Files.write(log, b);
        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertEquals(4, d.generation(), "open checks the log's links, not every signature");
        }
        KeyDirectoryAudit.Report r = KeyDirectoryAudit.run(dir);
        assertFalse(r.passed());
        assertTrue(r.problems().get(0).contains("BAD_SIGNATURE"), r.problems().toString());
        assertEquals(0, r.verified());
    }

    @Test
    void open_leftoverDirectoryThatDiffersFromTheLog_fails() throws Exception {
        interruptedAfterLogging();
        Path handover = dir.resolve("generations/000000000002").resolve(SensorKeyDirectory.HANDOVER);
        byte[] b = Files.readAllBytes(handover);
        b[b.length - 1] ^= 0x01;
        Files.write(handover, b);
        KeyFormatException e = assertThrows(KeyFormatException.class, () -> open(SensorKeyDirectory.Observer.NONE));
        assertTrue(e.getMessage().contains("differs"), e.getMessage());
        assertTrue(Files.exists(handover), "nothing is removed");
    }

    @Test
    void compact_unknownFileInRetiredDirectory_refusesAndLeavesItWhole() throws Exception {
        try (SensorKeyDirectory d = create()) {
            rollOver(d);
            rollOver(d);
            Files.writeString(d.generationDir(1).resolve("notes.txt"), "kept");
            assertThrows(KeyFormatException.class, d::compact);
            assertEquals(List.of(1L, 2L), generationDirectories());
            assertFalse(Files.exists(dir.resolve(SensorKeyDirectory.HANDOVER_LOG)));
            assertChainAsMade(d);
        }
    }

    @Test
    void open_retiredDirectoryWithTheStatesLockAndATemporaryCopy_destroysBothAndCompactionTakesIt() throws Exception {
        byte[] state;
        try (SensorKeyDirectory d = create()) {
            rollOver(d);
            rollOver(d);
            state = Files.readAllBytes(d.generationDir(2).resolve(SensorKeyDirectory.STATE));
        }
        // What a SIGKILL can leave in a retired generation's directory (first seen as a CI failure of
        // CompactionCrashTest): the state's lock file, killed between the state's deletion and the
        // lock's, and a temporary copy of the state from a write of its signer (reserving indices
        // ahead, or returning them on close) that the handover had overtaken.
        Path g1 = dir.resolve(SensorKeyDirectory.GENERATIONS).resolve("000000000001");
        Path lock = g1.resolve(SensorKeyDirectory.STATE + ".lock");
        Path copy = g1.resolve("." + SensorKeyDirectory.STATE + ".tmp-0123456789abcdef");
        Files.write(lock, new byte[0]);
        Files.write(copy, state);
        Path rootCopy = dir.resolve("." + SensorKeyDirectory.STATE + ".tmp-fedcba9876543210");
        Files.write(rootCopy, state);

        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertFalse(Files.exists(lock), "lock file of a destroyed state");
            assertFalse(Files.exists(copy), "temporary copy of a retired state");
            assertFalse(Files.exists(rootCopy), "temporary copy of generation 0's state");
            assertEquals(1, d.compact());
            assertEquals(List.of(2L), generationDirectories());
            assertChainAsMade(d);
        }
    }

    @Test
    void compact_retiredDirectoryWithTemporaryFilesOfItsPublicFiles_removesThemAndTakesIt() throws Exception {
        // CI failure of CompactionCrashTest (main 15fb9fa): a SIGKILL between a create's hard link and
        // the deletion of its temporary file left ".handover.pqho.tmp-…" beside handover.pqho, and
        // compaction refused that generation and every later one.
        try (SensorKeyDirectory d = create()) {
            rollOver(d);
            rollOver(d);
        }
        Path g1 = dir.resolve(SensorKeyDirectory.GENERATIONS).resolve("000000000001");
        Path handoverTemp = g1.resolve("." + SensorKeyDirectory.HANDOVER + ".tmp-0123456789abcdef");
        Path keyTemp = g1.resolve("." + SensorKeyDirectory.PUBLIC_KEY + ".tmp-fedcba9876543210");
        Files.copy(g1.resolve(SensorKeyDirectory.HANDOVER), handoverTemp);
        Files.copy(g1.resolve(SensorKeyDirectory.PUBLIC_KEY), keyTemp);

        try (SensorKeyDirectory d = open(SensorKeyDirectory.Observer.NONE)) {
            assertEquals(1, d.compact());
            assertFalse(Files.exists(g1), "generation 1's directory");
            assertEquals(List.of(2L), generationDirectories());
            assertChainAsMade(d);
        }
    }

    @Test
    void destroyState_inADirectoryThatIsGone_doesNothing() throws Exception {
        // create() cleans up its temporary directory with this after a failure, also one that came
        // after the directory was renamed into place: the original failure must be the one reported.
        StateDestruction.destroy(tmp.resolve("renamed").resolve(SensorKeyDirectory.STATE));
        assertFalse(Files.exists(tmp.resolve("renamed")));
    }

    @Test
    void open_logHoldingTheCurrentGeneration_refusedAndCurrentDirectoryKept() throws Exception {
        try (SensorKeyDirectory d = create()) {
            for (int n = 1; n <= 3; n++) {
                rollOver(d);
                d.compact();
            }
        }
        // Generation 3 is current, the log holds 1 and 2. No compaction logs the current generation:
        // a log that holds it too (found by HandoverLogFuzzTest) is damage.
        Path current = dir.resolve(SensorKeyDirectory.GENERATIONS).resolve("000000000003");
        HandoverLog.read(dir.resolve(SensorKeyDirectory.HANDOVER_LOG), first)
                .append(new HandoverLog.Entry(
                        3,
                        Files.readAllBytes(current.resolve(SensorKeyDirectory.HANDOVER)),
                        Files.readAllBytes(current.resolve(SensorKeyDirectory.CERTIFICATE))));
        List<String> before = fileNames(current);

        assertThrows(KeyFormatException.class, () -> SensorKeyDirectory.inspect(dir));
        assertThrows(KeyFormatException.class, () -> open(SensorKeyDirectory.Observer.NONE));
        assertEquals(before, fileNames(current), "the current generation's files are kept");
        assertFalse(KeyDirectoryAudit.run(dir, first).passed());
    }

    private static List<String> fileNames(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
