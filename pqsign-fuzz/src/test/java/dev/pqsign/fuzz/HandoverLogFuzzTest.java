package dev.pqsign.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.KeyDirectoryAudit;
import dev.pqsign.keys.KeyHandover;
import dev.pqsign.keys.PublicKeys;
import dev.pqsign.keys.SensorKeyDirectory;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The handover log of a sensor key directory ({@code DIR/handovers.pqhc}, {@code PQHC},
 * docs/formats/handover-log.md), read by {@link SensorKeyDirectory#inspect},
 * {@link KeyDirectoryAudit#run} and {@link SensorKeyDirectory#open} (which cuts a torn tail and
 * finishes an interrupted compaction), in a copy of the real directory of {@link FuzzKeyDirectory}
 * (current generation 5, generations 1 to 4 compacted).
 *
 * <p>Input: a mode byte, then the log file. Bit 0 of the mode: recompute every entry's CRC-32C
 * (walking the lengths as the reader does), so the bodies behind them are reached; bits 1–3 modulo
 * 5: how many of the logged generations' directories are still there ({@code k}: generations
 * {@code 5 − k} to 4, each with its genuine {@code key.pub}, {@code handover.pqho} and
 * {@code certificate.pem}, as a crash between a compaction's append and its removal leaves them);
 * bit 4: also open the directory for signing. The current generation's files are written again
 * before each input.
 *
 * <p>The current key has signed with every index (the real signer, once per JVM), so the signer
 * an open starts has no trees to build. With a fresh key it built two trees on every input that
 * opened, which was most of this target's time and the same work for every input: the state file
 * is written again before each one, and the open reads, cuts and finishes the log (the only thing
 * the fuzzer changes) before it starts the signer. What the open reads from the log, removes and
 * reports is the same either way; the signer's key load is tested in pqsign-xmss, a directory's
 * open with a fresh key in pqsign-keys. The directory is on tmpfs where there is one
 * ({@link ScratchDirectory}): the target checks the logic, not the durability of the writes.
 *
 * <p>Asserts, against an independent reading of the log as the format document defines it: every
 * failure is a one-line {@link KeyFormatException}; a log with a bad header, a bad entry followed by
 * more bytes, a well-formed entry that does not continue the chain, an entry of the current
 * generation (never compacted), a hole in the generations, or a bad last entry whose
 * generation has no {@code handover.pqho} in a directory is refused by inspect and open and fails
 * the audit; a log whose good entries are the genuine ones, with every later generation still in a
 * directory, is accepted by all three (the audit verifying all 5 records); an open cuts exactly the
 * torn tail and removes the logged generations' directories; the chain read back
 * ({@link SensorKeyDirectory#handoversAfter}, {@link SensorKeyDirectory#certificate}) is the log's
 * entries, then the directories; the current key is always generation 5's genuine key;
 * <b>no false accept</b>: an audit that passes follows only records equal byte for byte to the
 * genuine ones or (should the fuzzer ever make one) verified by BouncyCastle under the previous key.
 */
class HandoverLogFuzzTest {
    private static final int CURRENT = FuzzKeyDirectory.CURRENT;
    private static final int HEADER_BYTES = 40;
    private static final long MIN_BODY = 17;
    private static final long MAX_RECORD = 13 + KeyHandover.MAX_BYTES + SignedKeyHandover.MAX_SIGNATURE_BYTES;
    private static final long MAX_CERTIFICATE = 1 << 20;
    private static final long MAX_BODY = 8 + 4 + MAX_RECORD + 4 + MAX_CERTIFICATE;
    private static final byte[] MAGIC = "PQHC".getBytes(StandardCharsets.US_ASCII);

    private static final SensorKeyDirectory.Options OPTIONS = SensorKeyDirectory.Options.defaults();
    private static final Genuine GENUINE = Genuine.build();

    /** The directory built once, and what the tests compare with. */
    private static final class Genuine {
        final Path work;
        final Path log;
        final PqPublicKey[] keys = new PqPublicKey[CURRENT + 1];
        final byte[][] records = new byte[CURRENT + 1][];
        final byte[] currentState;
        final BouncyCastle.Xmss[] bc = new BouncyCastle.Xmss[CURRENT + 1];
        /** Whether each logged generation's directory is there now (they change per input). */
        final boolean[] present = new boolean[CURRENT];

        private Genuine(Path work) throws IOException {
            this.work = work;
            List<SignedKeyHandover> made = FuzzKeyDirectory.build(work);
            this.log = work.resolve(SensorKeyDirectory.HANDOVER_LOG);
            for (int g = 0; g <= CURRENT; g++) {
                keys[g] = FuzzKeyDirectory.publicKey(g);
                bc[g] = new BouncyCastle.Xmss(keys[g].xmss().orElseThrow());
            }
            for (int g = 1; g <= CURRENT; g++) {
                SignedKeyHandover h = made.get(g - 1);
                records[g] = h.encode();
                // The harness's own check that BouncyCastle (the oracle) accepts the genuine chain.
                if (!bc[g - 1].verify(h.statementBytes(), h.signature())
                        || !h.statement().newKey().equals(keys[g])) {
                    throw new IllegalStateException("genuine handover " + g + " does not verify under BouncyCastle");
                }
            }
            this.currentState = everyIndexUsed(work);
        }

        /** The current key's state once the real signer has used every index. */
        private static byte[] everyIndexUsed(Path work) throws IOException {
            try (SensorKeyDirectory d = SensorKeyDirectory.open(work, OPTIONS)) {
                XmssStatefulSigner signer = d.currentSigner();
                while (signer.remaining() > 0) {
                    signer.sign(FuzzKeys.MESSAGE);
                }
            }
            byte[] state = Files.readAllBytes(stateFile(work));
            XmssKeyState s = XmssKeyState.decode(state);
            s.key().destroy();
            if (s.remaining() != 0) {
                throw new IllegalStateException("the current key still has " + s.remaining() + " indices");
            }
            return state;
        }

        static Genuine build() {
            try {
                return new Genuine(
                        ScratchDirectory.create("pqsign-fuzz-handover-log").resolve("sensor"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Path generationDir(long g) {
            return work.resolve(SensorKeyDirectory.GENERATIONS).resolve(String.format(Locale.ROOT, "%012d", g));
        }

        private static Path stateFile(Path work) {
            return work.resolve(SensorKeyDirectory.GENERATIONS)
                    .resolve(String.format(Locale.ROOT, "%012d", CURRENT))
                    .resolve(SensorKeyDirectory.STATE);
        }

        /** Puts the logged generations 5 − k … 4 back in directories, removes the others. */
        void leaveDirectories(int k) throws IOException {
            for (int g = 1; g < CURRENT; g++) {
                Path gdir = generationDir(g);
                boolean want = g >= CURRENT - k;
                if (want) {
                    Files.createDirectories(gdir);
                    Files.write(gdir.resolve(SensorKeyDirectory.PUBLIC_KEY), keys[g].rawEncoding());
                    Files.write(gdir.resolve(SensorKeyDirectory.HANDOVER), records[g]);
                    Files.write(gdir.resolve(SensorKeyDirectory.CERTIFICATE), FuzzKeyDirectory.certificate(g));
                } else if (Files.exists(gdir, LinkOption.NOFOLLOW_LINKS)) {
                    SeedCorpus.deleteTree(gdir);
                }
                present[g] = want;
            }
        }

        /**
         * Writes the current generation's files again: an open may reserve indices of its state, and
         * an open that failed must not decide what the next input finds.
         */
        void restoreCurrent() throws IOException {
            Path gdir = generationDir(CURRENT);
            Files.createDirectories(gdir);
            Files.write(gdir.resolve(SensorKeyDirectory.PUBLIC_KEY), keys[CURRENT].rawEncoding());
            Files.write(gdir.resolve(SensorKeyDirectory.HANDOVER), records[CURRENT]);
            Files.write(gdir.resolve(SensorKeyDirectory.CERTIFICATE), FuzzKeyDirectory.certificate(CURRENT));
            Files.write(gdir.resolve(SensorKeyDirectory.STATE), currentState);
        }

        /** Whether generation {@code t}'s directory holds its handover record. */
        boolean hasHandoverFile(long t) {
            return t >= 1 && t <= CURRENT && (t == CURRENT || present[(int) t]);
        }
    }

    @FuzzTest
    void fuzz(byte[] data) throws IOException {
        if (data.length < 1) {
            return;
        }
        int mode = data[0] & 0xff;
        byte[] file = Arrays.copyOfRange(data, 1, data.length);
        if ((mode & 1) != 0) {
            withEntryChecksums(file);
        }
        int k = ((mode >> 1) & 7) % 5;
        boolean openToo = (mode & 16) != 0;
        Genuine gen = GENUINE;
        gen.leaveDirectories(k);
        Files.write(gen.log, file);
        gen.restoreCurrent();

        Reading r = Reading.of(file, gen.keys[0]);
        boolean mustRefuse = !r.headerOk
                || r.outcome == Outcome.DAMAGE
                || (r.outcome == Outcome.TAIL && !gen.hasHandoverFile(r.count() + 1))
                // a generation in neither place
                || r.count() < CURRENT - 1 - k
                // the current generation is never compacted
                || r.count() >= CURRENT;
        for (int g = CURRENT - k; g < CURRENT && g <= r.count(); g++) {
            // a directory a compaction left must equal the log's copy
            mustRefuse |= !Arrays.equals(gen.records[g], r.records.get(g - 1))
                    || !Arrays.equals(FuzzKeyDirectory.certificate(g), r.certificates.get(g - 1));
        }
        boolean genuineEntries = true;
        for (int g = 1; g <= r.count(); g++) {
            genuineEntries &= g < CURRENT
                    && Arrays.equals(gen.records[g], r.records.get(g - 1))
                    && Arrays.equals(FuzzKeyDirectory.certificate(g), r.certificates.get(g - 1));
        }
        boolean mustOpen = !mustRefuse && genuineEntries;

        boolean inspected = inspect(gen, r, mustRefuse, mustOpen);
        assertEquals(file.length, Files.size(gen.log), "inspect changed the log");
        audit(gen, r, inspected, mustOpen);
        assertEquals(file.length, Files.size(gen.log), "the audit changed the log");
        if (openToo) {
            open(gen, r, mustRefuse, mustOpen);
        }
    }

    private static boolean inspect(Genuine gen, Reading r, boolean mustRefuse, boolean mustOpen) throws IOException {
        SensorKeyDirectory.Inspection i;
        try {
            i = SensorKeyDirectory.inspect(gen.work);
        } catch (KeyFormatException documented) {
            assertOneLine(documented);
            assertFalse(mustOpen, "inspect refused a genuine log: " + documented.getMessage());
            return false;
        }
        assertFalse(mustRefuse, "inspect accepted a damaged log: " + r);
        assertEquals(CURRENT, i.generation());
        assertArrayEquals(PublicKeys.keyId(gen.keys[CURRENT]), i.currentKeyId(), "the current key is generation 5's");
        assertEquals(Math.min(r.count(), CURRENT), i.compacted());
        return true;
    }

    private static void audit(Genuine gen, Reading r, boolean inspected, boolean mustOpen) throws IOException {
        KeyDirectoryAudit.Report report = KeyDirectoryAudit.run(gen.work, gen.keys[0]);
        for (String p : report.problems()) {
            assertFalse(p.contains("\n") || p.contains("\r"), "a problem of more than one line: " + p);
        }
        if (mustOpen) {
            assertTrue(report.passed(), "the audit failed a genuine log: " + report.problems());
            assertEquals(CURRENT, report.verified());
        }
        if (!inspected) {
            assertFalse(report.passed(), "the audit passed a log that inspect refused: " + r);
            return;
        }
        if (!report.passed()) {
            return;
        }
        assertEquals(CURRENT, report.verified());
        assertEquals(Math.min(r.count(), CURRENT), report.logEntries());
        // No false accept: every record the audit followed is the genuine one or BouncyCastle verifies it.
        PqPublicKey previous = gen.keys[0];
        for (int g = 1; g <= CURRENT; g++) {
            byte[] record = g <= report.logEntries() ? r.records.get(g - 1) : gen.records[g];
            SignedKeyHandover h = SignedKeyHandover.decode(record);
            if (!Arrays.equals(gen.records[g], record)) {
                assertTrue(
                        new BouncyCastle.Xmss(previous.xmss().orElseThrow()).verify(h.statementBytes(), h.signature()),
                        "the audit passed a changed record of generation " + g + " that BouncyCastle rejects");
            }
            previous = h.statement().newKey();
        }
    }

    private static void open(Genuine gen, Reading r, boolean mustRefuse, boolean mustOpen) throws IOException {
        try (SensorKeyDirectory d = SensorKeyDirectory.open(gen.work, OPTIONS)) {
            assertFalse(mustRefuse, "open accepted a damaged log: " + r);
            assertEquals(CURRENT, d.generation());
            assertEquals(gen.keys[CURRENT], d.currentKey(), "the current key is generation 5's");
            List<SignedKeyHandover> chain = d.handoversAfter(0);
            assertEquals(CURRENT, chain.size());
            for (int g = 1; g <= CURRENT; g++) {
                byte[] expected = g <= r.count() ? r.records.get(g - 1) : gen.records[g];
                assertArrayEquals(expected, chain.get(g - 1).encode(), "generation " + g + "'s record");
                Optional<byte[]> cert = d.certificate(g);
                byte[] expectedCert = g <= r.count() ? r.certificates.get(g - 1) : FuzzKeyDirectory.certificate(g);
                assertArrayEquals(expectedCert, cert.orElse(new byte[0]), "generation " + g + "'s certificate");
            }
            // A torn tail is cut exactly; nothing else of the log changes.
            assertEquals(r.goodEnd, Files.size(gen.log), "the log after open");
            for (int g = 1; g <= Math.min(r.count(), CURRENT - 1); g++) {
                assertFalse(
                        Files.exists(gen.generationDir(g), LinkOption.NOFOLLOW_LINKS),
                        "open left logged generation " + g + "'s directory");
            }
        } catch (KeyFormatException documented) {
            assertOneLine(documented);
            assertFalse(mustOpen, "open refused a genuine log: " + documented.getMessage());
        }
    }

    private static void assertOneLine(RuntimeException e) {
        String m = e.getMessage();
        assertNotNull(m);
        assertFalse(m.isEmpty() || m.contains("\n") || m.contains("\r"), "not a one-line message: " + m);
    }

    /** Sets the CRC-32C of every entry whose length the reader would accept, front to back. */
    static void withEntryChecksums(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file);
        int at = HEADER_BYTES;
        while (at + 8 <= file.length) {
            long n = b.getInt(at) & 0xffffffffL;
            if (n < MIN_BODY || n > MAX_BODY || n > file.length - at - 8) {
                return;
            }
            b.putInt(at + 4, crc32c(file, at + 8, (int) n));
            at += 8 + (int) n;
        }
    }

    static int crc32c(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    enum Outcome {
        /** Every byte after the header is in a good entry. */
        CLEAN,
        /** The bytes after the last good entry are a candidate torn tail (section 4). */
        TAIL,
        /** A bad entry that cannot be a torn append. */
        DAMAGE
    }

    /**
     * The log as docs/formats/handover-log.md (sections 1, 2 and 4) defines it, restated here
     * independently of {@code HandoverLog}: the good entries and what follows them.
     */
    static final class Reading {
        boolean headerOk;
        final List<byte[]> records = new ArrayList<>();
        final List<byte[]> certificates = new ArrayList<>();
        long goodEnd;
        Outcome outcome = Outcome.CLEAN;

        int count() {
            return records.size();
        }

        static Reading of(byte[] f, PqPublicKey first) {
            Reading r = new Reading();
            byte[] chainId = PublicKeys.keyId(first);
            r.headerOk = f.length >= HEADER_BYTES
                    && Arrays.equals(MAGIC, Arrays.copyOf(f, 4))
                    && f[4] == 1
                    && f[5] == 0
                    && f[6] == 0
                    && f[7] == 0
                    && Arrays.equals(chainId, Arrays.copyOfRange(f, 8, HEADER_BYTES));
            if (!r.headerOk) {
                return r;
            }
            ByteBuffer b = ByteBuffer.wrap(f);
            int pos = HEADER_BYTES;
            byte[] previousNewKeyId = chainId;
            while (pos < f.length) {
                int left = f.length - pos;
                long g = r.count() + 1L;
                long length = left < 8 ? -1 : b.getInt(pos) & 0xffffffffL;
                if (left < 8 || length < MIN_BODY || length > MAX_BODY || 8 + length > left) {
                    r.outcome = Outcome.TAIL;
                    break;
                }
                if (crc32c(f, pos + 8, (int) length) != b.getInt(pos + 4)) {
                    r.outcome = 8 + length == left ? Outcome.TAIL : Outcome.DAMAGE;
                    break;
                }
                byte[] newKeyId =
                        r.entry(ByteBuffer.wrap(f, pos + 8, (int) length).slice(), g, chainId, previousNewKeyId, first);
                if (newKeyId == null) {
                    r.outcome = Outcome.DAMAGE;
                    break;
                }
                previousNewKeyId = newKeyId;
                pos += 8 + (int) length;
            }
            r.goodEnd = pos;
            return r;
        }

        /** Adds a good entry's record and certificate; returns its new key's id, or null if the entry is not good. */
        private byte[] entry(ByteBuffer body, long g, byte[] chainId, byte[] previousNewKeyId, PqPublicKey first) {
            if (body.remaining() < 12 || body.getLong() != g) {
                return null;
            }
            long recordLength = body.getInt() & 0xffffffffL;
            if (recordLength < 1 || recordLength > MAX_RECORD || recordLength + 4 > body.remaining()) {
                return null;
            }
            byte[] record = new byte[(int) recordLength];
            body.get(record);
            long certLength = body.getInt() & 0xffffffffL;
            if (certLength > MAX_CERTIFICATE || certLength != body.remaining()) {
                return null;
            }
            byte[] cert = new byte[(int) certLength];
            body.get(cert);
            KeyHandover s;
            try {
                s = SignedKeyHandover.decode(record).statement();
            } catch (KeyFormatException | IllegalArgumentException e) {
                return null;
            }
            if (s.sequence() != g
                    || !Arrays.equals(s.chainId(), chainId)
                    || !Arrays.equals(s.oldKeyId(), previousNewKeyId)
                    || !s.oldParameterSet().equals(first.parameterSet().setName())) {
                return null;
            }
            records.add(record);
            certificates.add(cert);
            return s.newKeyId();
        }

        @Override
        public String toString() {
            return "log with " + count() + " good entries up to offset " + goodEnd + ", then " + outcome;
        }
    }
}
