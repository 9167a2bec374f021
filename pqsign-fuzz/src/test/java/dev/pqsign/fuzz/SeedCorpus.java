package dev.pqsign.fuzz;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssSignatures;
import dev.pqsign.lms.HssSignerOptions;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingHistory;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.ReadingText;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.operator.ReplayGuard;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.x509.Pem;
import dev.pqsign.x509.PqCertificate;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.x509.PublicKeys;
import dev.pqsign.xmss.XmssKeySplit;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssSignatures;
import dev.pqsign.xmss.XmssStatefulSigner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bouncycastle.asn1.ASN1Boolean;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;

/**
 * Generates the committed seed corpus of every fuzz target, deterministically: the keys come from
 * {@link FuzzKeys}, the signatures from deterministic signing (XMSS indices 0, 1, 2 in order; HAETAE
 * with fixed randomness), the certificates from fixed templates. {@link SeedCorpusTest} checks that
 * the committed files are exactly what this produces.
 *
 * <p>Each seed lands in {@code <package>/<TargetClass>Inputs/fuzz/<name>}, the directory Jazzer's
 * JUnit integration reads a target's inputs from. Regenerate after changing this class or
 * {@link FuzzKeys} with {@code ./mvnw -pl pqsign-fuzz -am test-compile} and then running this
 * class's {@code main} with the module's {@code src/test/resources} as argument (see docs/fuzzing.md).
 */
final class SeedCorpus {
    static final String PACKAGE_DIR = "dev/pqsign/fuzz";
    /** The clock of the history seeds and of {@link ReadingHistoryFuzzTest}. */
    static final Instant HISTORY_NOW = Instant.parse("2026-03-02T00:00:00Z");
    /** The seeds of {@code dev.pqsign.cli.OperatorSensorsFuzzTest} (in the CLI's package, see there). */
    static final String OPERATOR_SENSORS_INPUTS = "dev/pqsign/cli/OperatorSensorsFuzzTestInputs/fuzz/";

    private SeedCorpus() {}

    /**
     * Writes the corpus under {@code args[0]} (a test resources directory), or with {@code --check}
     * compares it with the committed seeds on the class path: one line per seed that is missing or
     * differs, exit status 1 if there is one ({@link SeedCorpusTest} runs this).
     */
    public static void main(String[] args) throws IOException {
        if (args[0].equals("--check")) {
            System.exit(check() ? 0 : 1);
        }
        Path root = Paths.get(args[0]);
        for (Map.Entry<String, byte[]> e : generate().entrySet()) {
            Path p = root.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.write(p, e.getValue());
        }
    }

    private static boolean check() throws IOException {
        Map<String, byte[]> seeds = generate();
        int problems = 0;
        for (Map.Entry<String, byte[]> e : seeds.entrySet()) {
            try (InputStream in = SeedCorpus.class.getClassLoader().getResourceAsStream(e.getKey())) {
                String problem = in == null
                        ? "is not committed; regenerate the corpus"
                        : Arrays.equals(e.getValue(), in.readAllBytes()) ? null : "differs from the generator's";
                if (problem != null) {
                    System.out.println("seed " + e.getKey() + " " + problem);
                    problems++;
                }
            }
        }
        System.out.println(seeds.size() + " seeds generated, " + problems + " missing or different");
        return problems == 0;
    }

    /** Resource path (relative to the test resources root) → content, sorted by path. */
    static Map<String, byte[]> generate() throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        Path tmp = Files.createTempDirectory("pqsign-seeds");
        try {
            xmssSignatures(out, tmp);
            xmssKeys(out);
            lmsSignatures(out);
            haetaeSignatures(out);
            haetaeKeys(out);
            certificates(out);
            signedReadings(out, tmp);
            replayMarks(out, tmp);
            handovers(out, tmp);
            handoverLog(out, tmp);
            operatorSensors(out);
            UpstreamSeeds.add(out);
        } finally {
            deleteTree(tmp);
        }
        return out;
    }

    /** Key material the targets load instead of generating it: {@code <package>/material/<name>}. */
    static String material(String name) {
        return PACKAGE_DIR + "/material/" + name;
    }

    static String inputs(Class<?> target, String name) {
        return PACKAGE_DIR + "/" + target.getSimpleName() + "Inputs/fuzz/" + name;
    }

    private static void xmssSignatures(Map<String, byte[]> out, Path tmp) throws IOException {
        for (int i = 0; i < FuzzKeys.XMSS_SETS.size(); i++) {
            XmssParameterSet set = FuzzKeys.XMSS_SETS.get(i);
            for (byte[] sig : xmssSign(set, tmp, 3)) {
                long index = XmssSignatures.index(set, sig);
                out.put(
                        inputs(XmssSignatureFuzzTest.class, fileName(set.setName()) + "-index" + index),
                        prefixed((byte) i, sig));
            }
        }
    }

    /**
     * {@link LmsSignatureFuzzTest}: per set the signatures at indices 0, 1, 31 and (two levels) 32,
     * the first of a new lower tree; and the index-0 signature behind its public key (key mode).
     */
    private static void lmsSignatures(Map<String, byte[]> out) {
        for (int i = 0; i < FuzzKeys.LMS_SETS.size(); i++) {
            HssParameterSet set = FuzzKeys.LMS_SETS.get(i);
            String name = fileName(set.setName().replace('+', '_'));
            byte[] pub = FuzzKeys.lms(set).publicKey().encoded();
            try (HssStatefulSigner signer = HssStatefulSigner.open(
                    MemoryStateStore.holding(
                            HssKeyState.fresh(FuzzKeys.lms(set)).encode()),
                    HssSignerOptions.defaults().withThreads(1))) {
                long last = Math.min(32, set.maxSignatures() - 1);
                for (long k = 0; k <= last; k++) {
                    byte[] sig = signer.sign(FuzzKeys.MESSAGE);
                    long index = HssSignatures.index(set, sig);
                    if (index == 0) {
                        byte[] keyed = new byte[2 + pub.length + sig.length];
                        keyed[0] = (byte) 0x80;
                        keyed[1] = (byte) pub.length;
                        System.arraycopy(pub, 0, keyed, 2, pub.length);
                        System.arraycopy(sig, 0, keyed, 2 + pub.length, sig.length);
                        out.put(inputs(LmsSignatureFuzzTest.class, "key-" + name), keyed);
                    }
                    if (index <= 1 || index >= 31) {
                        out.put(inputs(LmsSignatureFuzzTest.class, name + "-index" + index), prefixed((byte) i, sig));
                    }
                }
            }
        }
    }

    private static void xmssKeys(Map<String, byte[]> out) {
        for (XmssParameterSet set : FuzzKeys.XMSS_SETS) {
            String name = fileName(set.setName());
            out.put(
                    inputs(XmssKeyFuzzTest.class, name + "-public"),
                    prefixed((byte) 0, FuzzKeys.xmss(set).publicKey().encoded()));
            out.put(
                    material(FuzzKeys.xmssPublicKeyFile(set)),
                    FuzzKeys.xmss(set).publicKey().encoded());
            XmssKeyState fresh = XmssKeyState.fresh(FuzzKeys.xmss(set));
            out.put(inputs(XmssKeyFuzzTest.class, name + "-state-fresh"), prefixed((byte) 1, fresh.encode()));
            out.put(inputs(XmssKeyFuzzTest.class, name + "-state-range"), prefixed((byte) 2, secondHalf(fresh)));
        }
    }

    /** A state of the key's second half of indices: what {@code pqsign key split --parts 2} writes. */
    private static byte[] secondHalf(XmssKeyState fresh) {
        byte[][] part = new byte[1][];
        try {
            XmssKeySplit.split(MemoryStateStore.holding(fresh.encode()), 2, new XmssKeySplit.PartWriter() {
                @Override
                public void checkAbsent(int n) {}

                @Override
                public void create(int n, byte[] encodedState) {
                    part[0] = encodedState.clone();
                }

                @Override
                public String describe(int n) {
                    return "seed part " + n;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return part[0];
    }

    private static void haetaeSignatures(Map<String, byte[]> out) {
        for (int i = 0; i < FuzzKeys.HAETAE_SETS.size(); i++) {
            HaetaeParameterSet set = FuzzKeys.HAETAE_SETS.get(i);
            for (HaetaeSampler sampler : HaetaeSampler.values()) {
                for (int k = 0; k < 2; k++) {
                    out.put(
                            inputs(HaetaeSignatureFuzzTest.class, set.setName() + "-" + sampler + "-" + k),
                            prefixed((byte) i, haetaeSign(set, sampler, k)));
                }
            }
        }
    }

    private static void haetaeKeys(Map<String, byte[]> out) {
        for (int i = 0; i < FuzzKeys.HAETAE_SETS.size(); i++) {
            HaetaeParameterSet set = FuzzKeys.HAETAE_SETS.get(i);
            HaetaeKeyPair kp = FuzzKeys.haetae(set);
            out.put(
                    inputs(HaetaeKeyFuzzTest.class, set.setName() + "-public"),
                    prefixed((byte) 0, kp.publicKey().getEncoded()));
            // private keys: mode 2c + 1 with c = set + 3 engine + 6 sampler (see HaetaeKeyFuzzTest)
            out.put(
                    inputs(HaetaeKeyFuzzTest.class, set.setName() + "-private-fast-v120"),
                    prefixed((byte) (2 * i + 1), kp.privateKey().getEncoded()));
            out.put(
                    inputs(HaetaeKeyFuzzTest.class, set.setName() + "-private-compact-v112"),
                    prefixed((byte) (2 * (i + 3 + 6) + 1), kp.privateKey().getEncoded()));
        }
    }

    private static void certificates(Map<String, byte[]> out) throws IOException {
        List<PqCertificate> all = FuzzCertificates.issue();
        String[] names = FuzzCertificates.NAMES;
        // mode = 4 * time + kind; time 1 lies inside every validity period (see CertificateFuzzTest)
        for (int i = 0; i < all.size(); i++) {
            PqCertificate c = all.get(i);
            out.put(material(FuzzCertificates.file(i)), c.encoded());
            out.put(inputs(CertificateFuzzTest.class, names[i] + ".der"), prefixed((byte) 4, c.encoded()));
            out.put(inputs(CertificateFuzzTest.class, names[i] + ".pem"), prefixed((byte) 4, ascii(Pem.write(c))));
            out.put(
                    inputs(CertificateFuzzTest.class, names[i] + "-key.der"),
                    prefixed((byte) 6, PublicKeys.encode(c.publicKey())));
            out.put(
                    inputs(CertificateFuzzTest.class, names[i] + "-key.pem"),
                    prefixed((byte) 7, ascii(Pem.write(c.publicKey()))));
        }
        // regression for the pathLenConstraint finding (docs/fuzzing.md): parsed only up to the check
        out.put(
                inputs(CertificateFuzzTest.class, "ca-pathlen-2pow40.der"),
                prefixed((byte) 4, caWithPathLength(BigInteger.ONE.shiftLeft(40))));
        out.put(
                inputs(CertificateFuzzTest.class, "ca-pathlen-intmax.der"),
                prefixed((byte) 4, caWithPathLength(BigInteger.valueOf(Integer.MAX_VALUE))));
        out.put(
                inputs(CertificateFuzzTest.class, "chain-sensor-h.pem"),
                prefixed((byte) 5, ascii(Pem.write(List.of(all.get(2), all.get(1))))));
        out.put(
                inputs(CertificateFuzzTest.class, "chain-sensor-x.pem"),
                prefixed((byte) 5, ascii(Pem.write(List.of(all.get(3), all.get(0))))));
    }

    /**
     * A CA certificate with the given pathLenConstraint whose signature is three fixed bytes (the
     * certificate target parses and describes before anything verifies it).
     */
    static byte[] caWithPathLength(BigInteger pathLen) throws IOException {
        SubjectPublicKeyInfo spki = PublicKeys.toSubjectPublicKeyInfo(
                PqPublicKey.of(FuzzKeys.haetae(HaetaeParameterSet.HAETAE_2).publicKey()));
        X509v3CertificateBuilder b = new X509v3CertificateBuilder(
                new X500Name("CN=pathlen"),
                BigInteger.valueOf(5),
                Date.from(FuzzCertificates.NOT_BEFORE),
                Date.from(FuzzCertificates.LEAF_NOT_AFTER),
                new X500Name("CN=pathlen"),
                spki);
        b.addExtension(Extension.basicConstraints, true, new DERSequence(new ASN1Encodable[] {
            ASN1Boolean.TRUE, new ASN1Integer(pathLen)
        }));
        return b.build(new FixedSignature()).getEncoded();
    }

    /** A content signer whose "signature" is always {1, 2, 3}, under the HAETAE-2 algorithm identifier. */
    private static final class FixedSignature implements ContentSigner {
        private final ByteArrayOutputStream ignored = new ByteArrayOutputStream();

        @Override
        public AlgorithmIdentifier getAlgorithmIdentifier() {
            return new AlgorithmIdentifier(new ASN1ObjectIdentifier(HaetaeParameterSet.HAETAE_2.oid()));
        }

        @Override
        public OutputStream getOutputStream() {
            return ignored;
        }

        @Override
        public byte[] getSignature() {
            return new byte[] {1, 2, 3};
        }
    }

    private static void signedReadings(Map<String, byte[]> out, Path tmp) throws IOException {
        XmssParameterSet xs = SignedReadingFuzzTest.XMSS_SET;
        HaetaeParameterSet hs = SignedReadingFuzzTest.HAETAE_SET;
        Instant t0 = Instant.parse("2026-03-01T12:00:00Z");
        List<SignedRecord> records = new ArrayList<>();
        try (FileStateStore store = FileStateStore.open(tmp.resolve("readings.state"))) {
            XmssStatefulSigner.create(store, FuzzKeys.xmss(xs));
            try (XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
                for (int k = 0; k < 3; k++) {
                    String text = ReadingText.format(1500 + 12.5 * k, t0.plusSeconds(k));
                    IndexedSignature s = signer.signIndexed(
                            i -> ReadingMessage.encode(xs.setName(), i, text.getBytes(StandardCharsets.UTF_8)));
                    byte[] message =
                            ReadingMessage.encode(xs.setName(), s.index(), text.getBytes(StandardCharsets.UTF_8));
                    out.put(inputs(SignedReadingFuzzTest.class, "message-xmss-" + k), prefixed((byte) 0, message));
                    out.put(
                            inputs(SignedReadingFuzzTest.class, "published-xmss-" + k),
                            prefixed(
                                    (byte) 1,
                                    new SignedReadingFuzzTest.Published(s.index(), text, xs.setName(), s.signature())
                                            .encode()));
                    records.add(SignedRecord.of(
                            KeyId.ofPublicKey(FuzzKeys.xmss(xs).publicKey().encoded()),
                            xs.setName(),
                            new SignedReading(text, s.index(), s.signature()),
                            t0.plusSeconds(k),
                            k + 1,
                            40_500_000L,
                            1_000_000L * k,
                            1_000_000L * k + 50_000_000L));
                }
            }
        }
        for (int k = 0; k < 2; k++) {
            String text = ReadingText.format(900 + 3.25 * k, t0.plusSeconds(60 + k));
            byte[] message = ReadingMessage.encode(hs.setName(), k, text.getBytes(StandardCharsets.UTF_8));
            // The signer draws its 32 bytes of randomness from the stream named here.
            byte[] sig = new HaetaeSigner(
                            FuzzKeys.haetae(hs).privateKey(),
                            new byte[0],
                            HaetaeSampler.V1_1_2,
                            HaetaeEngine.FAST,
                            new DeterministicRandom("reading randomness " + k))
                    .sign(message);
            out.put(
                    inputs(SignedReadingFuzzTest.class, "published-haetae-" + k),
                    prefixed((byte) 3, new SignedReadingFuzzTest.Published(k, text, hs.setName(), sig).encode()));
            records.add(SignedRecord.of(
                    KeyId.ofPublicKey(FuzzKeys.haetae(hs).publicKey().getEncoded()),
                    hs.setName(),
                    new SignedReading(text, k, sig),
                    t0.plusSeconds(60 + k),
                    k + 10,
                    800_000L,
                    1_000_000L * k,
                    1_000_000L * k + 2_000_000L));
        }
        for (SignedRecord r : records) {
            String name = r.parameterSetName().startsWith("XMSS")
                    ? "xmss-" + (r.sequence() - 1)
                    : "haetae-" + (r.sequence() - 10);
            out.put(inputs(SignedRecordFuzzTest.class, "record-" + name), r.encode());
            out.put(
                    inputs(OperatorValuesFuzzTest.class, "record-" + name),
                    OperatorValuesFuzzTest.Values.byteString(r.encode()));
        }
        out.put(
                inputs(OperatorValuesFuzzTest.class, "int64"),
                new byte[] {(byte) OperatorValuesFuzzTest.Values.INT64, 0, 0, 0, 0, 0, 0, 0, 42});
        Path history = tmp.resolve("history.pqhl");
        try (ReadingHistory h =
                ReadingHistory.open(history, 16, Duration.ofDays(3650), Clock.fixed(HISTORY_NOW, ZoneOffset.UTC))) {
            for (SignedRecord r : records) {
                h.add(r);
            }
        }
        // mode: bits 1-4 are the count limit minus one (see ReadingHistoryFuzzTest)
        out.put(
                inputs(ReadingHistoryFuzzTest.class, "history-limit16"),
                prefixed((byte) 30, Files.readAllBytes(history)));
        out.put(
                inputs(ReadingHistoryFuzzTest.class, "history-limit2"),
                prefixed((byte) 2, Files.readAllBytes(history)));
    }

    private static void handovers(Map<String, byte[]> out, Path tmp) throws IOException {
        SignedKeyHandover[] h = FuzzHandovers.sign(tmp);
        KeyChain[] chains = new KeyChain[3];
        chains[0] = KeyChain.startingAt(
                PqPublicKey.of(FuzzKeys.xmss(FuzzHandovers.GENERATIONS.get(0)).publicKey()));
        for (int g = 1; g <= 2; g++) {
            out.put(material(FuzzHandovers.FILES[g - 1]), h[g - 1].encode());
            chains[g] = chains[g - 1].follow(h[g - 1]).chain();
        }
        // mode mod 3: the chain's generation; odd mode / 3: the follower too (see KeyHandoverFuzzTest)
        out.put(inputs(KeyHandoverFuzzTest.class, "handover-1-at-g0"), prefixed((byte) 0, h[0].encode()));
        out.put(inputs(KeyHandoverFuzzTest.class, "handover-2-at-g1"), prefixed((byte) 1, h[1].encode()));
        out.put(inputs(KeyHandoverFuzzTest.class, "handover-2-at-g0"), prefixed((byte) 0, h[1].encode()));
        out.put(inputs(KeyHandoverFuzzTest.class, "handover-1-at-g2"), prefixed((byte) 2, h[0].encode()));
        out.put(inputs(KeyHandoverFuzzTest.class, "handover-1-follower"), prefixed((byte) 3, h[0].encode()));
        out.put(inputs(KeyHandoverFuzzTest.class, "handover-2-follower"), prefixed((byte) 4, h[1].encode()));
        out.put(
                inputs(OperatorValuesFuzzTest.class, "handover-1"),
                OperatorValuesFuzzTest.Values.byteString(h[0].encode()));
        out.put(
                inputs(OperatorValuesFuzzTest.class, "handover-2"),
                OperatorValuesFuzzTest.Values.byteString(h[1].encode()));
        // mode bit 1: decode with the chain id expected (see KeyChainStateFuzzTest)
        for (int g = 0; g <= 2; g++) {
            out.put(inputs(KeyChainStateFuzzTest.class, "chain-g" + g), prefixed((byte) 2, chains[g].encode()));
        }
        certificateEnrolments(out);
    }

    /** Records of both fixture chains at the edges of their validity (mode bit 1 picks the chain). */
    private static void certificateEnrolments(Map<String, byte[]> out) {
        Instant[] times = {
            FuzzCertificates.NOT_BEFORE,
            FuzzCertificates.LEAF_NOT_AFTER,
            FuzzCertificates.LEAF_NOT_AFTER.plusMillis(1),
            FuzzCertificates.NOT_BEFORE.minusMillis(1)
        };
        String[] names = {"at-not-before", "at-not-after", "just-expired", "just-before"};
        for (int chain = 0; chain < 2; chain++) {
            for (int i = 0; i < times.length; i++) {
                out.put(
                        inputs(CertificateEnrolmentFuzzTest.class, "chain" + chain + "-" + names[i]),
                        prefixed((byte) (chain << 1), CertificateEnrolmentFuzzTest.record(chain, times[i])));
            }
        }
        // the HAETAE sensor's record offered for the XMSS sensor: another chain id
        out.put(
                inputs(CertificateEnrolmentFuzzTest.class, "other-chain"),
                prefixed((byte) 0, CertificateEnrolmentFuzzTest.record(1, FuzzCertificates.NOT_BEFORE)));
    }

    /**
     * The log of {@link FuzzKeyDirectory} (generations 1 to 4) and damaged variants. Mode (see
     * {@link HandoverLogFuzzTest}): bit 0 recomputes the CRCs, bits 1-3 the logged generations left in
     * directories (k: 5 - k to 4), bit 4 opens the directory too.
     */
    private static void handoverLog(Map<String, byte[]> out, Path tmp) throws IOException {
        Path dir = tmp.resolve("sensor");
        List<SignedKeyHandover> made = FuzzKeyDirectory.build(dir);
        byte[] log = Files.readAllBytes(dir.resolve("handovers.pqhc"));
        int[] ends = entryEnds(log);
        int open = 16;
        int k1 = 1 << 1;
        int k4 = 4 << 1;
        out.put(inputs(HandoverLogFuzzTest.class, "genuine"), prefixed((byte) open, log));
        out.put(inputs(HandoverLogFuzzTest.class, "genuine-inspect-only"), prefixed((byte) 0, log));
        // a crash between each append and its directory's removal
        out.put(inputs(HandoverLogFuzzTest.class, "genuine-directories-left"), prefixed((byte) (open | k4), log));
        out.put(
                inputs(HandoverLogFuzzTest.class, "header-only-directories-left"),
                prefixed((byte) (open | k4), Arrays.copyOf(log, 40)));
        // the last append torn: cut when generation 4 still has its directory, damage when it has not
        byte[] torn = Arrays.copyOf(log, ends[2] + (ends[3] - ends[2]) / 2);
        out.put(
                inputs(HandoverLogFuzzTest.class, "torn-last-entry-directory-left"),
                prefixed((byte) (open | k1), torn));
        out.put(inputs(HandoverLogFuzzTest.class, "torn-last-entry-directory-gone"), prefixed((byte) open, torn));
        out.put(
                inputs(HandoverLogFuzzTest.class, "torn-entry-head"),
                prefixed((byte) (open | k1), Arrays.copyOf(log, ends[2] + 5)));
        // a partial fifth entry: generation 5 (the current one) has its handover.pqho
        out.put(
                inputs(HandoverLogFuzzTest.class, "partial-fifth-entry"),
                prefixed((byte) open, Arrays.copyOf(log, log.length + 3)));
        byte[] badLast = log.clone();
        badLast[ends[3] - 1] ^= 1;
        out.put(
                inputs(HandoverLogFuzzTest.class, "bad-crc-last-directory-left"),
                prefixed((byte) (open | k1), badLast));
        // the last byte of generation 2's signature
        byte[] badMiddle = log.clone();
        badMiddle[ends[1] - 4 - FuzzKeyDirectory.certificate(2).length - 1] ^= 1;
        out.put(inputs(HandoverLogFuzzTest.class, "bad-crc-middle"), prefixed((byte) (open | k4), badMiddle));
        // the same change with its CRC recomputed: opens (no signature checked), fails the audit
        out.put(
                inputs(HandoverLogFuzzTest.class, "changed-signature-crc-recomputed"),
                prefixed((byte) (open | 1), badMiddle));
        byte[] otherChain = log.clone();
        otherChain[8] ^= 1;
        out.put(inputs(HandoverLogFuzzTest.class, "other-chain-id"), prefixed((byte) open, otherChain));
        // entry lengths at and beyond the bounds (17 ... 1,118,474)
        int[] lengths = {16, 17, 1_118_474, 1_118_475, -1};
        for (int length : lengths) {
            byte[] entry = ByteBuffer.allocate(8 + 17).putInt(length).array();
            out.put(
                    inputs(HandoverLogFuzzTest.class, "entry-length-" + Integer.toUnsignedString(length)),
                    prefixed((byte) (open | 1), concat(log, entry)));
        }
        // generation 5, the current one, in the log as well (never compacted by the sensor)
        SignedKeyHandover current = made.get(FuzzKeyDirectory.CURRENT - 1);
        byte[] record = current.encode();
        byte[] cert = FuzzKeyDirectory.certificate(FuzzKeyDirectory.CURRENT);
        byte[] body = ByteBuffer.allocate(8 + 4 + record.length + 4 + cert.length)
                .putLong(FuzzKeyDirectory.CURRENT)
                .putInt(record.length)
                .put(record)
                .putInt(cert.length)
                .put(cert)
                .array();
        byte[] entry = ByteBuffer.allocate(8 + body.length)
                .putInt(body.length)
                .putInt(HandoverLogFuzzTest.crc32c(body, 0, body.length))
                .put(body)
                .array();
        out.put(
                inputs(HandoverLogFuzzTest.class, "current-generation-logged"),
                prefixed((byte) open, concat(log, entry)));
    }

    /** The offset after each entry of a well-formed log. */
    private static int[] entryEnds(byte[] log) {
        List<Integer> ends = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(log);
        for (int at = 40; at < log.length; ) {
            at += 8 + b.getInt(at);
            ends.add(at);
        }
        return ends.stream().mapToInt(Integer::intValue).toArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static void operatorSensors(Map<String, byte[]> out) {
        String[] files = {
            "pub-xmss",
                    "{\"sensors\": [{\"name\": \"pi-1\", \"url\": \"opc.tcp://127.0.0.1:4840/pqsign\", \"pub\": \"x.pub\"}]}",
            "pub-haetae",
                    "{\"sensors\": [{\"name\": \"pi-2\", \"url\": \"opc.tcp://127.0.0.1:4841/pqsign\","
                            + " \"pub\": \"h.pub\", \"params\": \"HAETAE-2\"}]}",
            "cert",
                    "{\"sensors\": [{\"name\": \"pi-3\", \"url\": \"opc.tcp://127.0.0.1:4842/pqsign\","
                            + " \"cert\": \"sensor-x.der\", \"trust\": \"root.der\", \"security\": \"none\"}]}",
            "two-sensors",
                    "{\"sensors\": [\n  {\"name\": \"a\", \"url\": \"opc.tcp://h:1/pqsign\", \"pub\": \"x.pub\","
                            + " \"params\": \"XMSSMT-SHA2_20/2_256\"},\n  {\"name\": \"b\", \"url\": \"opc.tcp://h:2/pqsign\","
                            + " \"pub\": \"h.pub\", \"params\": \"HAETAE-2\", \"security\": \"sign-encrypt\", \"trust_server\": []}\n]}\n"
        };
        for (int i = 0; i < files.length; i += 2) {
            out.put(OPERATOR_SENSORS_INPUTS + files[i] + ".json", files[i + 1].getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void replayMarks(Map<String, byte[]> out, Path tmp) throws IOException {
        // a mark file after readings of two keys, as ReplayGuard writes it
        Path dir = tmp.resolve("marks");
        try (ReplayGuard g = ReplayGuard.inDirectory(dir)) {
            g.tryAccept(ReplayMarkFuzzTest.KEY_A, 3);
            g.tryAccept(ReplayMarkFuzzTest.KEY_B, 0);
            g.tryAccept(ReplayMarkFuzzTest.KEY_A, 9);
        }
        out.put(
                inputs(ReplayMarkFuzzTest.class, "mark-file"),
                prefixed((byte) 0, Files.readAllBytes(dir.resolve(ReplayGuard.MARK_FILE_NAME))));
        // the same after the mark file was lost: replaced by nothing (kind 2 with an empty image)
        out.put(inputs(ReplayMarkFuzzTest.class, "mark-file-deleted"), new byte[] {2});
        // key A's ring of accepted records as that run leaves it (kind 1)
        Path run = tmp.resolve("earlier-run");
        ReplayMarkFuzzTest.earlierRun(run);
        out.put(
                inputs(ReplayMarkFuzzTest.class, "accepted-ring"),
                prefixed(
                        (byte) 1,
                        Files.readAllBytes(run.resolve("accepted").resolve(ReplayMarkFuzzTest.KEY_A.hex() + ".pqar"))));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Signature number {@code k} of the fixed HAETAE key of {@code set}: fixed randomness, fast engine. */
    static byte[] haetaeSign(HaetaeParameterSet set, HaetaeSampler sampler, int k) {
        // The signer draws its 32 bytes of randomness from the stream named here.
        HaetaeSigner signer = new HaetaeSigner(
                FuzzKeys.haetae(set).privateKey(),
                FuzzKeys.CONTEXT,
                sampler,
                HaetaeEngine.FAST,
                new DeterministicRandom("haetae signing " + set.setName() + " " + sampler + " " + k));
        return signer.sign(FuzzKeys.MESSAGE);
    }

    /** The committed index-0 signature of the fixed XMSS key of {@code set} over {@link FuzzKeys#MESSAGE}. */
    static byte[] xmssSignature(XmssParameterSet set) {
        byte[] seed = FuzzKeys.resource(inputs(XmssSignatureFuzzTest.class, fileName(set.setName()) + "-index0"));
        return Arrays.copyOfRange(seed, 1, seed.length);
    }

    /** The first {@code count} signatures of the fixed key of {@code set} over {@link FuzzKeys#MESSAGE}. */
    static byte[][] xmssSign(XmssParameterSet set, Path tmp, int count) throws IOException {
        Path file = tmp.resolve(fileName(set.setName()) + ".state");
        byte[][] sigs = new byte[count][];
        try (FileStateStore store = FileStateStore.open(file)) {
            XmssStatefulSigner.create(store, FuzzKeys.xmss(set));
            try (XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
                for (int k = 0; k < count; k++) {
                    sigs[k] = signer.sign(FuzzKeys.MESSAGE);
                }
            }
        }
        return sigs;
    }

    static byte[] prefixed(byte b, byte[] rest) {
        byte[] out = new byte[rest.length + 1];
        out[0] = b;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    static String fileName(String setName) {
        return setName.replace('/', '-');
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
