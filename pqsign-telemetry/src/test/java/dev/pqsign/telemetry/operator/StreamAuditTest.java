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
import dev.pqsign.telemetry.KeyStatusEvent;
import dev.pqsign.telemetry.ReadingSigner;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import dev.pqsign.telemetry.VerdictJsonl;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StreamAudit} reads an operator's JSON Lines as strictly as docs/telemetry.md describes
 * them (issue 31, item 8): a line is one JSON object of a documented shape, every key once, nothing
 * after it; numbers that must be indices are whole numbers in range; bytes that are not UTF-8 and
 * over-long lines are refused by line, not by ending the audit. Every line of a genuine stream, the
 * informational ones included, still passes.
 */
class StreamAuditTest {
    static final XmssParameterSet SET = XmssParameterSet.XMSSMT_SHA2_10_2_256;
    static final Instant T = Instant.parse("2026-12-01T12:00:00Z");

    @TempDir
    Path dir;

    private Key k0;
    private Key k1;
    /** A genuine stream: readings of k0, key-state events, a handover, readings of k1. */
    private String genuine;

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

    @BeforeEach
    void genuineStream() throws IOException {
        k0 = new Key("k0");
        k1 = new Key("k1");
        StringWriter out = new StringWriter();
        VerdictJsonl jsonl = new VerdictJsonl(out, false);
        SignedRecord first = null;
        for (int i = 0; i < 3; i++) {
            SignedRecord r = k0.sign("r" + i);
            first = first == null ? r : first;
            jsonl.write(accepted(r));
        }
        jsonl.write(VerdictEvent.of("s", new Verdict(Verdict.Reason.DUPLICATE, 0, "seen"), first, T));
        jsonl.write(new KeyStatusEvent("s", KeyStatusEvent.Kind.KEY_WARNING, 0, 7, Double.NaN, false, "few", T));
        jsonl.write(new KeyStatusEvent("s", KeyStatusEvent.Kind.KEY_ALARM, 0, 7, 12.5, false, "alarm", T));
        jsonl.write(new KeyStatusEvent("s", KeyStatusEvent.Kind.KEY_OK, 0, 7, 12.5, true, "ready", T));
        SignedKeyHandover h = SignedKeyHandover.sign(k0.signer, k0.pub, PublicKeys.keyId(k0.pub), 1, k1.pub, T);
        jsonl.write(VerdictEvent.handover(
                "s", new HandoverCheck(HandoverOutcome.FOLLOWED, h, 1, List.of(), "followed"), T));
        for (int i = 0; i < 2; i++) {
            jsonl.write(accepted(k1.sign("s" + i)));
        }
        genuine = out.toString();
    }

    @AfterEach
    void close() {
        k0.close();
        k1.close();
    }

    private static VerdictEvent accepted(SignedRecord r) {
        return VerdictEvent.of("s", new Verdict(Verdict.Reason.ACCEPTED, r.index(), "ok"), r, T);
    }

    private StreamAudit.Report audit(byte[] jsonl) throws IOException {
        return StreamAudit.run(k0.pub, new ByteArrayInputStream(jsonl));
    }

    private StreamAudit.Report audit(String jsonl) throws IOException {
        return audit(jsonl.getBytes(StandardCharsets.UTF_8));
    }

    /** The genuine stream's line that holds {@code needle}. */
    private String line(String needle) {
        return genuine.lines().filter(l -> l.contains(needle)).findFirst().orElseThrow();
    }

    /** The genuine stream with its line holding {@code needle} replaced by {@code replacement}. */
    private String replaced(String needle, String replacement) {
        return genuine.replace(line(needle), replacement);
    }

    private static void assertRejected(StreamAudit.Report r, long rejected, String problem) {
        assertEquals(rejected, r.rejected(), r.toString());
        assertFalse(r.passed(), r.toString());
        assertTrue(r.problems().stream().anyMatch(p -> p.contains(problem)), problem + " in " + r.problems());
    }

    @Test
    void genuineStream_everyShapeTheOperatorWrites_passes() throws IOException {
        assertTrue(genuine.contains("\"event\":\"KEY_WARNING\"") && genuine.contains("\"event\":\"HANDOVER\""));
        StreamAudit.Report r = audit(genuine + "\n  \n");
        assertTrue(r.passed(), r.toString());
        assertEquals(5, r.accepted());
        assertEquals(1, r.duplicates());
        assertEquals(1, r.handoversFollowed());
        assertEquals(10, r.lines(), "blank lines are not counted");
    }

    @Test
    void duplicatedKey_refusedInsteadOfTakingTheLast() throws IOException {
        String l = line("\"reading\":\"r1\"");
        Matcher sig = Pattern.compile("\"signature\":\"[^\"]+\"").matcher(l);
        assertTrue(sig.find());
        // the first signature is garbage, the last one genuine: a lenient reader takes the last
        String twice = l.replace(sig.group(), "\"signature\":\"AAAA\"").replaceFirst("}$", "," + sig.group() + "}");
        assertRejected(audit(replaced("\"reading\":\"r1\"", twice)), 1, "line 2, column ");
        assertTrue(
                audit(replaced("\"reading\":\"r1\"", twice)).problems().get(0).contains("duplicate key 'signature'"));
    }

    @Test
    void emptyObjectUnknownEventOrVerdictAndShapelessLines_rejected() throws IOException {
        assertRejected(audit(genuine + "{}\n"), 1, "line 11: neither an event nor a verdict line");
        assertRejected(audit(genuine + "{\"event\":\"NONSENSE\",\"sensor\":\"s\"}\n"), 1, "unknown event 'NONSENSE'");
        assertRejected(audit(genuine + "{\"verdict\":\"GREAT\"}\n"), 1, "unknown verdict 'GREAT'");
        assertRejected(audit(genuine + "{\"event\":\"KEY_OK\",\"verdict\":\"ACCEPTED\"}\n"), 1, "both");
        assertRejected(audit(genuine + "[1,2]\n"), 1, "not a JSON object");
        assertRejected(audit(genuine + "{\"event\":7}\n"), 1, "\"event\" is not a string");
        assertRejected(
                audit(replaced(
                        "\"reading\":\"r1\"",
                        line("\"reading\":\"r1\"").replace("\"reading\":\"r1\"", "\"reading\":7"))),
                1,
                "\"reading\" is not a string");
    }

    @Test
    void bytesAfterTheObject_rejected() throws IOException {
        String l = line("\"reading\":\"r2\"");
        for (String tail : List.of("\0", " {}", "x", ",", " \"more\"")) {
            assertRejected(audit(replaced("\"reading\":\"r2\"", l + tail)), 1, "more after the JSON document");
        }
        assertTrue(audit(replaced("\"reading\":\"r2\"", l + " \t ")).passed(), "white space after it is fine");
    }

    @Test
    void indexNotAWholeNumberInRange_rejected() throws IOException {
        String l = line("\"reading\":\"r1\"");
        assertTrue(l.contains("\"index\":1,"), l);
        for (String index : List.of("1.5", "1.0", "1e0", "\"1\"", "-1", "9223372036854775808", "null")) {
            String bad = l.replace("\"index\":1,", "\"index\":" + index + ",");
            assertRejected(audit(replaced("\"reading\":\"r1\"", bad)), 1, "line 2: ");
        }
        String half = l.replace("\"index\":1,", "\"index\":1.5,");
        assertTrue(audit(replaced("\"reading\":\"r1\"", half))
                .problems()
                .get(0)
                .contains("index 1.5 is not a whole number"));
    }

    @Test
    void invalidUtf8_rejectedByLineAndTheAuditGoesOn() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("{\"verdict\":\"ACCEPTED\",\"reading\":\"".getBytes(StandardCharsets.UTF_8));
        b.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe});
        b.writeBytes("\"}\n".getBytes(StandardCharsets.UTF_8));
        b.writeBytes(genuine.getBytes(StandardCharsets.UTF_8));
        StreamAudit.Report r = audit(b.toByteArray());
        assertRejected(r, 1, "line 1, column 34: not valid UTF-8 (byte 0xff)");
        assertEquals(5, r.accepted(), "the lines after it are audited");
    }

    @Test
    void overlongLine_rejectedWithoutKeepingItAndTheAuditGoesOn() throws IOException {
        long length = 50L << 20;
        InputStream endlessLine = new InputStream() {
            private long left = length;

            @Override
            public int read() {
                return left-- > 0 ? 'x' : left == -1 ? '\n' : -1;
            }

            @Override
            public int read(byte[] buf, int off, int len) {
                if (left < 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left + 1);
                for (int i = 0; i < n; i++) {
                    buf[off + i] = (byte) read();
                }
                return n;
            }
        };
        StreamAudit.Report r = StreamAudit.run(
                k0.pub,
                new SequenceInputStream(
                        endlessLine, new ByteArrayInputStream(genuine.getBytes(StandardCharsets.UTF_8))));
        assertRejected(r, 1, "line 1: longer than " + StreamAudit.MAX_LINE_BYTES + " bytes");
        assertEquals(5, r.accepted(), r.toString());
        assertEquals(11, r.lines());
    }
}
