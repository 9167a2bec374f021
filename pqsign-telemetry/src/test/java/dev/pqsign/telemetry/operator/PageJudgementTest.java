package dev.pqsign.telemetry.operator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.keys.PublicKeys;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SensorVerification#judgeAll}: a page of a sensor's history is judged exactly as its values
 * one by one would be (same verdicts, gaps, duplicates and handovers, in the same order), but the
 * replay marks of the readings it accepts are made durable by one {@code fdatasync} of the mark
 * file, done before it returns; if they cannot be made durable, none of them is {@code ACCEPTED}.
 * The flushes are counted from the JVM's own {@code jdk.FileForce} events, real files throughout.
 */
class PageJudgementTest {
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    static final Instant T = Instant.parse("2026-12-03T12:00:00Z");

    @TempDir
    Path dir;

    private Key k0;
    private Key k1;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private long sequence;

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

        /** A reading signed under this key's next index, as the sensor publishes it. */
        byte[] sign(String text) {
            return SignedRecord.of(id, SET.setName(), readings.sign(text), T.plusSeconds(sequence), ++sequence, 0, 0, 0)
                    .encode();
        }

        /** The handover from this key to {@code next}, signed under this key's next index. */
        byte[] handOverTo(Key next) {
            return SignedKeyHandover.sign(signer, pub, PublicKeys.keyId(k0.pub), 1, next.pub, T)
                    .encode();
        }

        @Override
        public void close() {
            signer.close();
            store.close();
        }
    }

    @BeforeEach
    void keys() throws IOException {
        k0 = new Key("k0");
        k1 = new Key("k1");
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened) {
            c.close();
        }
        k0.close();
        k1.close();
    }

    /** The sensor's verification over a fresh operator data directory, as {@code pqsign operator} builds it. */
    private SensorVerification sensorIn(String dataDir) throws IOException {
        OperatorPipeline pipeline =
                OperatorPipeline.builder(dir.resolve(dataDir)).open();
        opened.add(pipeline);
        return pipeline.sensor("s", k0.pub);
    }

    private static List<ReceivedValue> history(List<byte[]> values) {
        return values.stream().map(v -> ReceivedValue.now(v, false)).toList();
    }

    /** What each observation says, in order: reason, index, gap range, handover outcome. */
    private static List<String> said(List<SensorVerification.Judgement> judged) {
        List<String> out = new ArrayList<>();
        for (SensorVerification.Judgement j : judged) {
            for (Observation o : j.observations()) {
                out.add(
                        o.gap() != null
                                ? o.verdict().reason() + " " + o.gap().from() + ".."
                                        + o.gap().to()
                                : o.verdict().reason() + " " + o.verdict().index()
                                        + (o.handover() == null
                                                ? ""
                                                : " " + o.handover().outcome()));
            }
        }
        return out;
    }

    /** The {@code fdatasync}s of {@code dataDir}'s replay mark file while {@code work} runs, and its result. */
    private <T> Counted<T> markFlushes(String dataDir, Callable<T> work) throws Exception {
        Path marks = dir.resolve(dataDir)
                .toRealPath()
                .resolve(OperatorPipeline.REPLAY)
                .resolve(ReplayGuard.MARK_FILE_NAME);
        Path jfr = Files.createTempFile(dir, "forces", ".jfr");
        T result;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.FileForce").withThreshold(Duration.ZERO);
            recording.start();
            result = work.call();
            recording.stop();
            recording.dump(jfr);
        }
        long n = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("jdk.FileForce")
                    && marks.toString().equals(e.getString("path"))) {
                n++;
            }
        }
        return new Counted<>(result, n);
    }

    record Counted<T>(T result, long flushes) {}

    @Test
    void judgeAll_freshReadings_allAcceptedWithOneFlushBeforeItReturns_oneByOneFlushesEach() throws Exception {
        List<byte[]> page = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            page.add(k0.sign("1500.0" + i % 10 + ",page-" + i));
        }
        SensorVerification batched = sensorIn("a");
        SensorVerification single = sensorIn("b");

        Counted<List<SensorVerification.Judgement>> together =
                markFlushes("a", () -> batched.judgeAll(history(page), KeyHistory.NONE));
        Counted<List<SensorVerification.Judgement>> oneByOne = markFlushes("b", () -> {
            List<SensorVerification.Judgement> out = new ArrayList<>();
            for (ReceivedValue v : history(page)) {
                out.add(single.judge(v, KeyHistory.NONE));
            }
            return out;
        });

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            expected.add("ACCEPTED " + i);
        }
        assertEquals(expected, said(together.result()));
        assertEquals(expected, said(oneByOne.result()));
        // Counted until judgeAll returned: the flush that makes the page's marks durable is done
        // by then, so no ACCEPTED verdict reaches whoever reports it before its mark is on disk.
        assertEquals(1, together.flushes(), "one flush for the page, done before judgeAll returned");
        assertEquals(12, oneByOne.flushes(), "one flush per reading");
        try (ReplayGuard second = ReplayGuard.inDirectory(dir.resolve("a").resolve(OperatorPipeline.REPLAY))) {
            assertEquals(11, second.lastAccepted(k0.id), "another operator sharing the directory reads the marks");
        }
    }

    @Test
    void judgeAll_mixedPage_sameVerdictsGapsDuplicatesAndHandoverAsOneByOne() throws Exception {
        byte[] r0 = k0.sign("1500.00,r0");
        byte[] r1 = k0.sign("1501.00,r1");
        byte[] r2 = k0.sign("1502.00,r2");
        k0.sign("1503.00,r3"); // never delivered: a gap
        byte[] r4 = k0.sign("1504.00,r4");
        byte[] tampered = r4.clone();
        tampered[tampered.length - 1] ^= 1; // the signature's last byte
        byte[] handover = k0.handOverTo(k1);
        byte[] n0 = k1.sign("1600.00,n0");
        byte[] n1 = k1.sign("1601.00,n1");
        // r0 once more as another publication (a new sequence number): the same signed reading
        SignedRecord first = SignedRecord.decode(r0);
        byte[] r0Again = SignedRecord.of(first.keyId(), SET.setName(), first.reading(), T, ++sequence, 0, 0, 0)
                .encode();
        List<byte[]> page = List.of(r0, r1, r1, r2, tampered, r4, handover, n0, r0Again, n1);

        List<SensorVerification.Judgement> together = sensorIn("a").judgeAll(history(page), KeyHistory.NONE);
        SensorVerification single = sensorIn("b");
        List<SensorVerification.Judgement> oneByOne = new ArrayList<>();
        for (ReceivedValue v : history(page)) {
            oneByOne.add(single.judge(v, KeyHistory.NONE));
        }

        assertEquals(
                List.of(
                        "ACCEPTED 0",
                        "ACCEPTED 1",
                        "ACCEPTED 2",
                        "BAD_SIGNATURE 4",
                        "GAP 3..3",
                        "ACCEPTED 4",
                        "HANDOVER 5 FOLLOWED",
                        "ACCEPTED 0",
                        "DUPLICATE 0",
                        "ACCEPTED 1"),
                said(oneByOne),
                "the one-by-one verdicts this test expects");
        assertEquals(said(oneByOne), said(together));
        assertEquals(page.size(), together.size(), "one judgement per value");
    }

    @Test
    void judgeAll_readingOfAKeyNotFollowedYet_sensorUnreachable_deferredThereAndWhatCameBeforeIsDurable()
            throws Exception {
        byte[] r0 = k0.sign("1500.00,r0");
        byte[] r1 = k0.sign("1501.00,r1");
        k0.handOverTo(k1); // published, but the operator never saw it
        byte[] n0 = k1.sign("1600.00,n0");
        byte[] n1 = k1.sign("1601.00,n1");
        KeyHistory unreachable = new KeyHistory() {
            @Override
            public Optional<List<byte[]>> handovers() throws IOException {
                throw new IOException("sensor gone");
            }

            @Override
            public Optional<List<byte[]>> certificateChains() throws IOException {
                throw new IOException("sensor gone");
            }

            @Override
            public Latest latest() throws IOException {
                throw new IOException("sensor gone");
            }
        };
        SensorVerification s = sensorIn("a");

        Counted<List<SensorVerification.Judgement>> judged =
                markFlushes("a", () -> s.judgeAll(history(List.of(r0, r1, n0, n1)), unreachable));

        List<SensorVerification.Judgement> j = judged.result();
        assertEquals(3, j.size(), "judged up to the deferred value, nothing after it");
        assertEquals(List.of("ACCEPTED 0", "ACCEPTED 1"), said(j));
        assertTrue(j.get(2).deferred());
        assertFalse(j.get(1).deferred());
        assertEquals(1, judged.flushes(), "the readings before the deferred one made durable before it returned");
    }

    @Test
    void judgeAll_marksCannotBeMadeDurable_noReadingOfThePageAccepted_noGapReported() throws Exception {
        OperatorPipeline pipeline = OperatorPipeline.builder(dir.resolve("a")).open();
        opened.add(pipeline);
        SensorVerification s = pipeline.sensor("s", k0.pub);
        k0.sign("1500.00,r0"); // not delivered: the first reading delivered reports a gap before it
        byte[] r1 = k0.sign("1501.00,r1");
        byte[] r2 = k0.sign("1502.00,r2");
        byte[] other = k1.sign("1600.00,n0"); // a key this operator does not trust
        // The store fails after the first two readings were decided (their marks written, not
        // flushed): here when the verification asks the sensor for handovers to the unknown key.
        KeyHistory failingStore = new KeyHistory() {
            @Override
            public Optional<List<byte[]>> handovers() throws IOException {
                pipeline.close();
                return Optional.of(List.of());
            }

            @Override
            public Optional<List<byte[]>> certificateChains() {
                return Optional.of(List.of());
            }

            @Override
            public Latest latest() {
                return new Latest(null, null);
            }
        };

        List<SensorVerification.Judgement> j = s.judgeAll(history(List.of(r1, r2, other)), failingStore);

        assertEquals(
                List.of("STATE_ERROR 1", "STATE_ERROR 2", "UNKNOWN_KEY 0"),
                said(j),
                "never ACCEPTED without a durable mark; the gap before index 1 goes with its acceptance");
        for (SensorVerification.Judgement judgement : j) {
            for (Observation o : judgement.observations()) {
                if (o.verdict().reason() == Verdict.Reason.STATE_ERROR) {
                    assertTrue(
                            o.verdict().detail().startsWith("replay state: "),
                            o.verdict().detail());
                }
            }
        }
    }
}
