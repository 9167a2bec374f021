package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaePublicKey;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.operator.AcceptedRecords;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.RecordCheck;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssSignatures;
import dev.pqsign.xmss.XmssVerifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An operator's verifier with two pinned sensor keys (the fixed XMSS^MT and HAETAE-2 keys, pinned the
 * way the CLI pins them), one replay guard for the whole run, and the differential oracle for its
 * verdicts: BouncyCastle 1.87 under the same keys.
 */
final class PinnedSensors {
    static final XmssParameterSet XMSS_SET = XmssParameterSet.XMSSMT_SHA2_20_2_256;
    static final HaetaeParameterSet HAETAE_SET = HaetaeParameterSet.HAETAE_2;
    private static PinnedSensors instance;
    private static PinnedSensors withRecords;

    final XmssPublicKey xmss = FuzzKeys.xmssPublicKey(XMSS_SET);
    final HaetaePublicKey haetae = FuzzKeys.haetae(HAETAE_SET).publicKey();
    final KeyId xmssId = KeyId.ofPublicKey(xmss.encoded());
    final KeyId haetaeId = KeyId.ofPublicKey(haetae.getEncoded());
    final KeyId unknownId = KeyId.of(DeterministicRandom.bytes("unpinned key", KeyId.BYTES));
    final ReadingVerifier verifier;
    private final BouncyCastle.Xmss bcXmss = new BouncyCastle.Xmss(xmss);
    private final BouncyCastle.Haetae bcHaetae = new BouncyCastle.Haetae(haetae);
    private final Map<KeyId, Long> highestAccepted = new HashMap<>();

    private PinnedSensors(boolean rememberRecords) throws IOException {
        Path dir = ScratchDirectory.create("pqsign-fuzz-readings");
        ReplayGuard guard = ReplayGuard.inDirectory(dir);
        verifier = new ReadingVerifier(
                guard,
                List.of(
                        ReadingVerifier.TrustedKey.forPublicKey(
                                xmss.encoded(),
                                XmssVerifier.withUpperLayerCache(xmss),
                                EmbeddedIndex.xmssMt(XMSS_SET.height())),
                        ReadingVerifier.TrustedKey.forPublicKey(
                                haetae.getEncoded(), new HaetaeVerifier(haetae), EmbeddedIndex.NONE)),
                rememberRecords ? AcceptedRecords.inDirectory(dir.resolve("accepted"), 64) : null,
                rememberRecords ? dir.resolve("evidence") : null);
    }

    static synchronized PinnedSensors get() {
        if (instance == null) {
            try {
                instance = new PinnedSensors(false);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /**
     * Pinned keys whose verifier also remembers accepted records, as the operator's does (so a
     * record can be a {@code DUPLICATE} or an {@code INDEX_REUSE}); its own replay guard.
     */
    static synchronized PinnedSensors rememberingRecords() {
        if (withRecords == null) {
            try {
                withRecords = new PinnedSensors(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return withRecords;
    }

    /**
     * Checks what {@link ReadingVerifier#check(SignedRecord)} made of a decoded record: the verdict
     * as {@link #assertConsistent}; a reading is accepted only under the pinned key's own set name;
     * gaps are reported only before an accepted reading, ascending and below its index.
     */
    void assertRecordConsistent(SignedRecord record, RecordCheck check) {
        assertNotNull(check);
        Verdict v = check.verdict();
        assertConsistent(record.keyId(), record.reading(), v);
        if (v.accepted()) {
            String pinnedSet = xmssId.equals(record.keyId()) ? XMSS_SET.setName() : HAETAE_SET.setName();
            assertEquals(pinnedSet, record.parameterSetName(), "accepted a record naming another parameter set");
        }
        if (!check.gaps().isEmpty()) {
            assertTrue(v.accepted(), "gaps reported before a " + v.reason());
        }
        long previous = -1;
        for (Verdict.Gap g : check.gaps()) {
            assertTrue(g.from() > previous && g.from() <= g.to() && g.to() < record.index(), "gap " + g);
            previous = g.to();
        }
    }

    /**
     * Checks a verdict of {@link #verifier}: an unpinned key id is {@code UNKNOWN_KEY}; a reading
     * accepted (or refused only as a replay, a duplicate or an index reuse) verifies under BouncyCastle over the canonical message,
     * with the index inside an XMSS^MT signature equal to the published one; a {@code BAD_SIGNATURE}
     * does not verify under BouncyCastle; an accepted index is above every one accepted before.
     */
    void assertConsistent(KeyId claimed, SignedReading reading, Verdict v) {
        assertNotNull(v);
        boolean isXmss = xmssId.equals(claimed);
        if (!isXmss && !haetaeId.equals(claimed)) {
            assertEquals(Verdict.Reason.UNKNOWN_KEY, v.reason(), "a reading under an unpinned key id");
            return;
        }
        Verdict.Reason r = v.reason();
        if (r == Verdict.Reason.ACCEPTED
                || r == Verdict.Reason.REPLAYED
                || r == Verdict.Reason.DUPLICATE
                || r == Verdict.Reason.INDEX_REUSE
                || r == Verdict.Reason.BAD_SIGNATURE) {
            String setName = isXmss ? XMSS_SET.setName() : HAETAE_SET.setName();
            byte[] message = ReadingMessage.encode(setName, reading.index(), reading.readingBytes());
            boolean theirs = isXmss
                    ? bcXmss.verify(message, reading.signature())
                    : bcHaetae.verify(message, new byte[0], reading.signature());
            assertEquals(
                    r != Verdict.Reason.BAD_SIGNATURE,
                    theirs,
                    "verdict " + r + " but BouncyCastle " + (theirs ? "accepts" : "rejects") + " the signature");
            if (theirs && isXmss) {
                assertEquals(
                        reading.index(),
                        XmssSignatures.index(XMSS_SET, reading.signature()),
                        "accepted an XMSS^MT signature whose index is not the published one");
            }
        }
        if (r == Verdict.Reason.ACCEPTED) {
            Long before = highestAccepted.get(claimed);
            assertTrue(
                    before == null || reading.index() > before,
                    "accepted index " + reading.index() + " after " + before);
            highestAccepted.put(claimed, reading.index());
        } else {
            assertFalse(v.accepted());
        }
    }
}
