package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.HandoverCheck;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.VerdictEvent;
import dev.pqsign.telemetry.VerdictJsonl;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's verifier following a sensor's key handovers ({@link KeyChainFollower}) with real
 * XMSS^MT keys on real state files, and {@link StreamAudit} re-verifying the resulting JSON Lines.
 */
class KeyHandoverFollowingTest {
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    static final Instant T = Instant.parse("2026-12-01T12:00:00Z");

    @TempDir
    Path dir;

    /** A sensor key: its signer on a real state file. */
    final class Key implements AutoCloseable {
        final FileStateStore store;
        final XmssStatefulSigner signer;
        final PqPublicKey pub;
        final KeyId id;
        final ReadingSigner readings;

        Key(String name) throws IOException {
            XmssPrivateKey k = XmssKeyGenerator.generate(SET);
            store = FileStateStore.create(
                    dir.resolve(name + ".state"), XmssKeyState.fresh(k).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT);
            k.destroy();
            signer = XmssStatefulSigner.open(store);
            pub = PqPublicKey.of(signer.publicKey());
            id = KeyId.ofPublicKey(pub.rawEncoding());
            readings = new ReadingSigner(signer);
        }

        SignedRecord sign(String text) {
            return SignedRecord.of(id, SET.setName(), readings.sign(text), T, 0, 0, 0, 0);
        }

        @Override
        public void close() {
            signer.close();
            store.close();
        }
    }

    private final List<AutoCloseable> open = new ArrayList<>();
    private ReplayGuard guard;
    private AcceptedRecords accepted;

    @BeforeEach
    void setUp() throws IOException {
        // As the operator opens its data directory: marks with the floor the directory proves.
        guard = ReplayGuard.inDirectory(
                dir.resolve("replay"), new MarkRecovery(dir.resolve("accepted"), dir.resolve("chains")));
        accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 64);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        accepted.close();
        guard.close();
    }

    private static ByteArrayInputStream jsonl(String lines) {
        return new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8));
    }

    private Key key(String name) throws IOException {
        Key k = new Key(name);
        open.add(k);
        return k;
    }

    private ReadingVerifier verifier(PqPublicKey pinned) {
        return new ReadingVerifier(guard, List.of(TrustedKeys.of(pinned)), accepted, dir.resolve("evidence"));
    }

    private static SignedKeyHandover handover(Key from, PqPublicKey chainStart, long sequence, Key to) {
        return SignedKeyHandover.sign(from.signer, from.pub, PublicKeys.keyId(chainStart), sequence, to.pub, T);
    }

    @Test
    void genuineHandover_trustsNewKeyRetiresOldAndReportsItsMissingTail() throws Exception {
        Key k0 = key("k0");
        Key k1 = key("k1");
        ReadingVerifier v = verifier(k0.pub);
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(k0.pub, v);
        assertEquals(Reason.ACCEPTED, v.check(k0.sign("a")).verdict().reason());
        SignedRecord late = k0.sign("b"); // signed, delivered only after the handover
        k0.sign("c"); // signed, never delivered
        assertEquals(Reason.UNKNOWN_KEY, v.check(k1.sign("too early")).verdict().reason());

        HandoverCheck c = chains.receive(handover(k0, k0.pub, 1, k1).encode(), v);
        assertEquals(HandoverOutcome.FOLLOWED, c.outcome());
        assertEquals(Reason.HANDOVER, c.verdict().reason());
        assertEquals(List.of(new Verdict.Gap(1, 2)), c.gaps());
        assertEquals(Reason.ACCEPTED, v.check(k1.sign("d")).verdict().reason());
        assertEquals(Reason.ACCEPTED, v.check(late).verdict().reason(), "a reading below the handover index");
        assertEquals(
                Reason.RETIRED_KEY, v.check(k0.sign("after handover")).verdict().reason());
    }

    @Test
    void forgedHandovers_areRejectedAndTheirKeysNeverTrusted() throws Exception {
        Key k0 = key("k0");
        Key attacker = key("attacker");
        Key other = key("other-sensor");
        ReadingVerifier v = verifier(k0.pub);
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(k0.pub, v);
        chains.follow(other.pub, v);
        // Signed by a key the chain does not have, naming itself as signer.
        HandoverCheck own =
                chains.receive(handover(attacker, k0.pub, 1, attacker).encode(), v);
        assertEquals(HandoverOutcome.WRONG_SIGNER, own.outcome());
        assertEquals(Reason.HANDOVER_REJECTED, own.verdict().reason());
        assertTrue(own.verdict().alarm());
        // The genuine statement with a tampered new key.
        Key k1 = key("k1");
        byte[] rec = handover(k0, k0.pub, 1, k1).encode();
        byte[] swapped = rec.clone();
        byte[] attackerKey = attacker.pub.rawEncoding();
        int keyAt = 9
                + ((rec[5] & 0xff) << 24 | (rec[6] & 0xff) << 16 | (rec[7] & 0xff) << 8 | (rec[8] & 0xff))
                - attackerKey.length;
        System.arraycopy(attackerKey, 0, swapped, keyAt, attackerKey.length);
        assertEquals(HandoverOutcome.BAD_SIGNATURE, chains.receive(swapped, v).outcome());
        // A handover of this sensor's chain to a key of another sensor.
        assertEquals(
                HandoverOutcome.KEY_REUSED,
                chains.receive(handover(k0, k0.pub, 1, other).encode(), v).outcome());
        // Garbage.
        assertEquals(
                HandoverOutcome.MALFORMED,
                chains.receive(new byte[] {'P', 'Q', 'H', 'O', 1}, v).outcome());
        assertEquals(
                Reason.UNKNOWN_KEY, v.check(attacker.sign("forged")).verdict().reason());
        // The genuine one still works afterwards, and replaying an older statement is an alarm.
        assertEquals(HandoverOutcome.FOLLOWED, chains.receive(rec, v).outcome());
        Key k2 = key("k2");
        assertEquals(
                HandoverOutcome.FOLLOWED,
                chains.receive(handover(k1, k0.pub, 2, k2).encode(), v).outcome());
        assertEquals(HandoverOutcome.REPLAYED, chains.receive(rec, v).outcome());
    }

    @Test
    void restartedOperator_resumesTheChainFromItsDataDirectory() throws Exception {
        Key k0 = key("k0");
        Key k1 = key("k1");
        ReadingVerifier v = verifier(k0.pub);
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(k0.pub, v);
        assertEquals(
                HandoverOutcome.FOLLOWED,
                chains.receive(handover(k0, k0.pub, 1, k1).encode(), v).outcome());

        ReadingVerifier after = verifier(k0.pub);
        KeyChainFollower resumed = new KeyChainFollower(dir.resolve("chains"));
        assertEquals(1, resumed.follow(k0.pub, after).current().generation());
        assertEquals(Reason.ACCEPTED, after.check(k1.sign("x")).verdict().reason());
        assertEquals(Reason.RETIRED_KEY, after.check(k0.sign("y")).verdict().reason());
    }

    @Test
    void audit_followsHandoversInTheJsonlAndCatchesEveryKindOfProblem() throws Exception {
        Key k0 = key("k0");
        Key k1 = key("k1");
        StringWriter out = new StringWriter();
        VerdictJsonl jsonl = new VerdictJsonl(out, false);
        ReadingVerifier v = verifier(k0.pub);
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(k0.pub, v);
        for (int i = 0; i < 3; i++) {
            SignedRecord r = k0.sign("r" + i);
            jsonl.write(VerdictEvent.of("s", v.check(r).verdict(), r, T));
        }
        HandoverCheck c = chains.receive(handover(k0, k0.pub, 1, k1).encode(), v);
        jsonl.write(VerdictEvent.handover("s", c, T));
        for (int i = 0; i < 3; i++) {
            SignedRecord r = k1.sign("s" + i);
            jsonl.write(VerdictEvent.of("s", v.check(r).verdict(), r, T));
        }
        String good = out.toString();
        StreamAudit.Report ok = StreamAudit.run(k0.pub, jsonl(good));
        assertTrue(ok.passed(), ok.toString());
        assertEquals(6, ok.accepted());
        assertEquals(1, ok.handoversFollowed());

        // The same stream, audited from the wrong first key: nothing verifies.
        assertFalse(StreamAudit.run(k1.pub, jsonl(good)).passed());
        // A tampered reading.
        String tampered = good.replaceFirst("\"reading\":\"r1\"", "\"reading\":\"R1\"");
        StreamAudit.Report t = StreamAudit.run(k0.pub, jsonl(tampered));
        assertEquals(1, t.rejected());
        assertFalse(t.passed());
        // A missing line makes a gap.
        String[] lines = good.split("\n");
        StringBuilder gap = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i != 1) {
                gap.append(lines[i]).append('\n');
            }
        }
        StreamAudit.Report g = StreamAudit.run(k0.pub, jsonl(gap.toString()));
        assertEquals(1, g.gaps());
        assertFalse(g.passed());
        // Without the handover line, the new key's readings cannot be verified.
        StringBuilder noHandover = new StringBuilder();
        for (String l : lines) {
            if (!l.contains("\"HANDOVER\"")) {
                noHandover.append(l).append('\n');
            }
        }
        StreamAudit.Report n = StreamAudit.run(k0.pub, jsonl(noHandover.toString()));
        assertEquals(3, n.rejected());
        assertFalse(n.passed());
    }

    @Test
    void operatorAwayAcrossTwoHandovers_everyIndexOfEveryKeyAcceptedOrInAGap_liveAndInTheAudit() throws Exception {
        Key k0 = key("k0");
        Key k1 = key("k1");
        Key k2 = key("k2");
        StringWriter out = new StringWriter();
        VerdictJsonl jsonl = new VerdictJsonl(out, false);
        ReadingVerifier v = verifier(k0.pub);
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(k0.pub, v);
        SignedRecord r0 = k0.sign("r0");
        jsonl.write(VerdictEvent.of("s", v.check(r0).verdict(), r0, T));
        for (int i = 1; i <= 4; i++) {
            k0.sign("lost while away " + i); // indices 1..4 of generation 0
        }
        SignedKeyHandover h01 = handover(k0, k0.pub, 1, k1); // k0's index 5
        for (int i = 0; i < 4; i++) {
            k1.sign("never seen " + i); // indices 0..3 of generation 1
        }
        SignedKeyHandover h12 = handover(k1, k0.pub, 2, k2); // k1's index 4
        k2.sign("t0");
        k2.sign("t1");
        SignedRecord t2 = k2.sign("t2");

        List<Verdict.Gap> live = new ArrayList<>();
        for (SignedKeyHandover h : List.of(h01, h12)) {
            HandoverCheck c = chains.receive(h.encode(), v);
            assertEquals(HandoverOutcome.FOLLOWED, c.outcome());
            for (Verdict.Gap g : c.gaps()) {
                jsonl.write(VerdictEvent.gap("s", KeyId.of(h.statement().oldKeyId()), g, T));
            }
            live.addAll(c.gaps());
            jsonl.write(VerdictEvent.handover("s", c, T));
        }
        RecordCheck last = v.check(t2);
        assertEquals(Reason.ACCEPTED, last.verdict().reason());
        live.addAll(last.gaps());
        for (Verdict.Gap g : last.gaps()) {
            jsonl.write(VerdictEvent.gap("s", k2.id, g, T));
        }
        jsonl.write(VerdictEvent.of("s", last.verdict(), t2, T));

        assertEquals(
                List.of(new Verdict.Gap(1, 4), new Verdict.Gap(0, 3), new Verdict.Gap(0, 1)),
                live,
                "generation 0's tail, all of generation 1 and generation 2's head");
        StreamAudit.Report audit = StreamAudit.run(k0.pub, jsonl(out.toString()));
        assertEquals(10, audit.gaps(), audit.toString());
        assertEquals(2, audit.accepted(), audit.toString());
        assertEquals(2, audit.handoversFollowed(), audit.toString());
    }

    @Test
    void marksAndRingsLost_theChainStillProvesWhatTheRetiredKeyAccepted() throws Exception {
        Key k0 = key("k0");
        Key k1 = key("k1");
        ReadingVerifier v = verifier(k0.pub);
        KeyChainFollower chains = new KeyChainFollower(dir.resolve("chains"));
        chains.follow(k0.pub, v);
        SignedRecord r0 = k0.sign("r0");
        assertEquals(Reason.ACCEPTED, v.check(r0).verdict().reason());
        assertEquals(
                HandoverOutcome.FOLLOWED,
                chains.receive(handover(k0, k0.pub, 1, k1).encode(), v).outcome());
        accepted.close();
        guard.close();
        java.nio.file.Files.delete(dir.resolve("replay").resolve(ReplayGuard.MARK_FILE_NAME));
        java.nio.file.Files.delete(dir.resolve("accepted").resolve(k0.id.hex() + ".pqar"));

        guard = ReplayGuard.inDirectory(
                dir.resolve("replay"), new MarkRecovery(dir.resolve("accepted"), dir.resolve("chains")));
        accepted = AcceptedRecords.inDirectory(dir.resolve("accepted"), 64);
        ReadingVerifier after = verifier(k0.pub);
        new KeyChainFollower(dir.resolve("chains")).follow(k0.pub, after);
        assertEquals(Reason.REPLAYED, after.check(r0).verdict().reason(), "retired at index 1: 0 was accepted");
        assertEquals(Reason.ACCEPTED, after.check(k1.sign("x")).verdict().reason());
    }
}
