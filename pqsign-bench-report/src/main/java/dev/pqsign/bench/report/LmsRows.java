package dev.pqsign.bench.report;

import dev.pqsign.bench.report.BenchReport.Result;
import dev.pqsign.bench.report.BenchReport.Sizes;
import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.lms.HssVerifier;
import dev.pqsign.lms.LmsParameterSet;
import dev.pqsign.testing.MemoryStateStore;
import java.io.ByteArrayOutputStream;
import java.security.KeyFactory;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.generators.HSSKeyPairGenerator;
import org.bouncycastle.crypto.params.HSSKeyGenerationParameters;
import org.bouncycastle.crypto.params.HSSPrivateKeyParameters;
import org.bouncycastle.crypto.params.HSSPublicKeyParameters;
import org.bouncycastle.crypto.params.LMOtsParameters;
import org.bouncycastle.crypto.params.LMSParameters;
import org.bouncycastle.crypto.params.LMSigParameters;
import org.bouncycastle.crypto.signers.HSSSigner;

/**
 * The LMS / HSS rows of the report: keygen, key load, sign and verify, pqsign beside BouncyCastle
 * 1.87 and (verify) the JDK's own {@code HSS/LMS} where the running JDK has it. The implementations
 * are measured <em>alternately</em>, one sample of each per round (A, B, C, A, B, C, …), so that a
 * noisy neighbour on a shared machine slows all of them alike and the ratios stay meaningful.
 */
final class LmsRows {
    private final BenchOptions o;
    private final SecureRandom random = new SecureRandom();
    private final int cores = Runtime.getRuntime().availableProcessors();
    private final List<Result> results;
    private final List<Sizes> sizes;
    private final List<String> notes;

    LmsRows(BenchOptions o, List<Result> results, List<Sizes> sizes, List<String> notes) {
        this.o = o;
        this.results = results;
        this.sizes = sizes;
        this.notes = notes;
    }

    /** One timed call; {@link #before()} runs untimed first (to replace an exhausted key). */
    interface Op {
        default void before() throws Exception {}

        Object run() throws Exception;
    }

    /** A named case: what the report row says, and the call to time. */
    record Case(String impl, int threads, Op op) {}

    /**
     * Times {@code cases} alternately: warm-up rounds for the options' warm-up time, then rounds
     * until {@code minRounds} are done and the measuring time is over (or {@code maxRounds}).
     */
    private void alternate(String scheme, String op, List<Case> cases, int minRounds, int maxRounds, boolean warm)
            throws Exception {
        long end = System.nanoTime() + (warm ? o.warmupMs() : 0) * 1_000_000L;
        for (int r = 0; warm && (r < o.minWarmup() || System.nanoTime() < end); r++) {
            for (Case c : cases) {
                c.op.before();
                Measurer.consume(System.identityHashCode(c.op.run()));
            }
        }
        List<double[]> samples = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            samples.add(new double[Math.max(1, maxRounds)]);
        }
        int n = 0;
        end = System.nanoTime() + o.measureMs() * 1_000_000L;
        while (n < maxRounds && (n < minRounds || System.nanoTime() < end)) {
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                c.op.before();
                long t0 = System.nanoTime();
                Object res = c.op.run();
                samples.get(i)[n] = (System.nanoTime() - t0) / 1e6;
                Measurer.consume(System.identityHashCode(res));
            }
            n++;
        }
        for (int i = 0; i < cases.size(); i++) {
            Stats st = Stats.of(java.util.Arrays.copyOf(samples.get(i), n));
            Case c = cases.get(i);
            results.add(new Result(scheme, op, c.impl, c.threads, st, -1));
            o.log()
                    .accept(String.format(
                            Locale.ROOT,
                            "%-22s %-7s %-22s %2d thr  median %10.4f ms  p99 %10.4f ms  n %d (alternating)",
                            scheme.length() > 22 ? scheme.substring(0, 22) : scheme,
                            op,
                            c.impl,
                            c.threads,
                            st.median(),
                            st.p99(),
                            st.n()));
        }
    }

    static LMSParameters[] bcLevels(HssParameterSet p) {
        LMSParameters[] levels = new LMSParameters[p.levels()];
        for (int i = 0; i < levels.length; i++) {
            LmsParameterSet l = p.level(i);
            levels[i] = LMSParameters.create(
                    LMSigParameters.getParametersForType(l.lmsType().typeCode()),
                    LMOtsParameters.getParametersForType(l.otsType().typeCode()));
        }
        return levels;
    }

    private AsymmetricCipherKeyPair bcKeyPair(HssParameterSet p) {
        HSSKeyPairGenerator g = new HSSKeyPairGenerator();
        g.init(new HSSKeyGenerationParameters(bcLevels(p), random));
        return g.generateKeyPair();
    }

    /** Whether BouncyCastle's key generation (its whole tree, single-threaded) is too long to time here. */
    static boolean tooTallForBouncyCastle(HssParameterSet p) {
        return p.levelList().stream().anyMatch(l -> l.h() >= 20);
    }

    void run(HssParameterSet p) throws Exception {
        String name = p.setName();
        boolean bc = o.bouncyCastle() && !tooTallForBouncyCastle(p);
        boolean tall = p.levelList().stream().anyMatch(l -> l.h() >= 20);
        int keygenRounds = tall ? 1 : Math.max(1, Math.min(o.minSamples(), 3));
        HssPrivateKey key = keygen(p, bc, tall, keygenRounds);
        byte[] state = HssKeyState.fresh(key).encode();
        if (!tall) {
            alternate(
                    name,
                    "load",
                    List.of(new Case("pqsign", cores, () -> {
                        HssStatefulSigner s = HssStatefulSigner.open(MemoryStateStore.holding(state));
                        s.close();
                        return s;
                    })),
                    keygenRounds,
                    keygenRounds,
                    false);
        }
        PqSigning ours = new PqSigning(state);
        List<Case> sign = new ArrayList<>();
        sign.add(new Case("pqsign", 1, ours));
        BcSigning theirs = bc ? new BcSigning(p) : null;
        if (theirs != null) {
            sign.add(new Case("bouncycastle", 1, theirs));
        }
        alternate(name, "sign", sign, o.minSamples(), o.maxSamples(), true);

        byte[] sig = ours.last;
        byte[] pub = key.publicKey().encoded();
        verify(p, key, pub, sig);
        ours.signer.close();

        sizes.add(new Sizes(name, "pqsign", pub.length, state.length, state.length, sig.length, sig.length));
        if (theirs != null) {
            int priv = ((HSSPrivateKeyParameters) theirs.keys.getPrivate()).getEncoded().length;
            sizes.add(new Sizes(name, "bouncycastle", pub.length, priv, priv, theirs.last.length, theirs.last.length));
        }
        if (o.bouncyCastle() && !bc) {
            notes.add(name + ": BouncyCastle's keygen and signing are not timed: its key generation builds the whole "
                    + "height-20 tree on one thread (tens of minutes here); its verification of pqsign's signatures "
                    + "is timed.");
        }
        if (tall) {
            notes.add(name + ": keygen timed once, on all cores; no separate key-load row (a load rebuilds the same "
                    + "tree).");
        }
    }

    /** The keygen rows; returns a key pqsign made on all cores. */
    private HssPrivateKey keygen(HssParameterSet p, boolean bc, boolean tall, int rounds) throws Exception {
        List<Case> keygen = new ArrayList<>();
        HssPrivateKey[] made = new HssPrivateKey[1];
        keygen.add(new Case("pqsign", cores, () -> made[0] = HssKeyGenerator.generate(p, random, cores, null)));
        if (!tall) {
            keygen.add(new Case("pqsign", 1, () -> HssKeyGenerator.generate(p, random, 1, null)));
        }
        if (bc) {
            keygen.add(new Case("bouncycastle", 1, () -> bcKeyPair(p)));
        }
        alternate(p.setName(), "keygen", keygen, rounds, rounds, false);
        return made[0];
    }

    /** The verify rows of pqsign's signature {@code sig}: pqsign, BouncyCastle and the JDK, checked first. */
    private void verify(HssParameterSet p, HssPrivateKey key, byte[] pub, byte[] sig) throws Exception {
        String name = p.setName();
        HssVerifier verifier = new HssVerifier(key.publicKey(), p);
        if (!verifier.verify(BenchRunner.MESSAGE, sig)) {
            throw new IllegalStateException(name + ": pqsign signature does not verify");
        }
        List<Case> verify = new ArrayList<>();
        verify.add(new Case("pqsign", 1, () -> verifier.verify(BenchRunner.MESSAGE, sig)));
        if (o.bouncyCastle()) {
            HSSSigner bv = new HSSSigner();
            bv.init(false, HSSPublicKeyParameters.getInstance(pub));
            if (!bv.verifySignature(BenchRunner.MESSAGE, sig)) {
                throw new IllegalStateException(name + ": BouncyCastle does not verify pqsign's signature");
            }
            verify.add(new Case("bouncycastle", 1, () -> bv.verifySignature(BenchRunner.MESSAGE, sig)));
        }
        Signature jdk = jdkVerifier(pub);
        if (jdk != null) {
            verify.add(new Case("jdk", 1, () -> {
                jdk.update(BenchRunner.MESSAGE);
                return jdk.verify(sig);
            }));
        }
        alternate(name, "verify", verify, o.minSamples(), o.maxSamples(), true);
    }

    /** The JDK's own verifier for {@code pub} (SubjectPublicKeyInfo with the raw key), or null if none. */
    private Signature jdkVerifier(byte[] pub) {
        try {
            PublicKey k = KeyFactory.getInstance("HSS/LMS").generatePublic(new X509EncodedKeySpec(spki(pub)));
            Signature s = Signature.getInstance("HSS/LMS");
            if (s.getProvider().getName().equals("PQSign")) {
                return null;
            }
            s.initVerify(k);
            return s;
        } catch (NoSuchAlgorithmException e) {
            if (notes.stream().noneMatch(n -> n.startsWith("JDK HSS/LMS"))) {
                notes.add("JDK HSS/LMS verification not measured: this JDK (" + Runtime.version()
                        + ") has none (Java 21 and later do).");
            }
            return null;
        } catch (java.security.GeneralSecurityException e) {
            notes.add("JDK HSS/LMS verification not measured: " + e.getMessage());
            return null;
        }
    }

    /** DER SubjectPublicKeyInfo: id-alg-hss-lms-hashsig, parameters absent, BIT STRING = the HSS key. */
    static byte[] spki(byte[] hss) {
        byte[] oid = {0x06, 0x0b, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x09, 0x10, 0x03, 0x11
        };
        ByteArrayOutputStream alg = new ByteArrayOutputStream();
        alg.write(0x30);
        alg.write(oid.length);
        alg.writeBytes(oid);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(alg.toByteArray());
        body.write(0x03);
        body.write(hss.length + 1);
        body.write(0);
        body.writeBytes(hss);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30);
        out.write(body.size());
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    /** pqsign's stateful signer on an in-memory store; an exhausted key restarts from its fresh state, untimed. */
    private static final class PqSigning implements Op {
        private final byte[] state;
        HssStatefulSigner signer;
        byte[] last;

        PqSigning(byte[] state) {
            this.state = state;
            this.signer = HssStatefulSigner.open(MemoryStateStore.holding(state));
        }

        @Override
        public void before() {
            if (signer.remaining() == 0) {
                signer.close();
                signer = HssStatefulSigner.open(MemoryStateStore.holding(state));
            }
        }

        @Override
        public Object run() {
            last = signer.sign(BenchRunner.MESSAGE);
            return last;
        }
    }

    /** BouncyCastle's HSSSigner; an exhausted key is replaced, untimed. */
    private final class BcSigning implements Op {
        private final HssParameterSet p;
        AsymmetricCipherKeyPair keys;
        final HSSSigner signer = new HSSSigner();
        byte[] last;

        BcSigning(HssParameterSet p) {
            this.p = p;
            replace();
        }

        private void replace() {
            keys = bcKeyPair(p);
            signer.init(true, keys.getPrivate());
        }

        @Override
        public void before() {
            if (((HSSPrivateKeyParameters) keys.getPrivate()).getUsagesRemaining() == 0) {
                replace();
            }
        }

        @Override
        public Object run() throws Exception {
            last = signer.generateSignature(BenchRunner.MESSAGE);
            return last;
        }
    }
}
