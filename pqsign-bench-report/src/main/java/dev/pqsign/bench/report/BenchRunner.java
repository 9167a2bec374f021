package dev.pqsign.bench.report;

import dev.pqsign.bench.report.BenchReport.Result;
import dev.pqsign.bench.report.BenchReport.Sizes;
import dev.pqsign.bench.report.haetae.WorkAreaRecorder;
import dev.pqsign.demo.LinkProfile;
import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.haetae.HaetaeVerifier;
import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import dev.pqsign.xmss.XmssVerifier;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.Signer;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.MLDSAKeyPairGenerator;
import org.bouncycastle.crypto.generators.XMSSMTKeyPairGenerator;
import org.bouncycastle.crypto.params.MLDSAKeyGenerationParameters;
import org.bouncycastle.crypto.params.MLDSAParameters;
import org.bouncycastle.crypto.params.MLDSAPrivateKeyParameters;
import org.bouncycastle.crypto.params.MLDSAPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.params.XMSSMTKeyGenerationParameters;
import org.bouncycastle.crypto.params.XMSSMTParameters;
import org.bouncycastle.crypto.params.XMSSMTPrivateKeyParameters;
import org.bouncycastle.crypto.params.XMSSMTPublicKeyParameters;
import org.bouncycastle.crypto.signers.MLDSASigner;
import org.bouncycastle.crypto.signers.XMSSMTSigner;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyPairGenerator;
import org.bouncycastle.pqc.crypto.haetae.HAETAEParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEPublicKeyParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;

/**
 * Runs the report's measurements: keygen, sign and verify of XMSS^MT, LMS / HSS, HAETAE and ML-DSA, pqsign
 * beside BouncyCastle 1.87, all on the calling thread, followed by the hash-count child JVM and the
 * OPC UA demo.
 */
public final class BenchRunner {
    /** A telemetry-sized message, as signed by the sensor. */
    static final byte[] MESSAGE = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);

    private final BenchOptions o;
    private final SecureRandom random = new SecureRandom();
    private final List<Result> results = new ArrayList<>();
    private final List<Sizes> sizes = new ArrayList<>();
    private final List<BenchReport.WorkingSet> workingSets = new ArrayList<>();
    private String workingSetNote;
    private final List<String> notes = new ArrayList<>();
    private final int cores = Runtime.getRuntime().availableProcessors();

    private BenchRunner(BenchOptions o) {
        this.o = o;
    }

    /**
     * Runs everything {@code options} asks for.
     *
     * @param options what to measure and for how long
     * @return the measurements; a hash-count or OPC UA part that was not run or failed has a note instead
     * @throws Exception if a timed case fails, or a signature made there does not verify
     */
    public static BenchReport run(BenchOptions options) throws Exception {
        // keep the HAETAE work areas this thread's engines create, for the working-set rows
        WorkAreaRecorder.record(true);
        try {
            return new BenchRunner(options).runAll();
        } finally {
            WorkAreaRecorder.record(false);
            WorkAreaRecorder.clear();
        }
    }

    private BenchReport runAll() throws Exception {
        String started = Instant.now().toString();
        double loadStart = MachineInfo.loadAverage();
        long t0 = System.nanoTime();
        warmUpJvm();
        for (String s : BenchOptions.XMSS_SETS) {
            if (o.includes(s)) {
                xmss(XmssParameterSet.byName(s).orElseThrow());
            }
        }
        for (String s : BenchOptions.LMS_SETS) {
            if (o.includes(s)) {
                new LmsRows(o, results, sizes, notes)
                        .run(dev.pqsign.lms.HssParameterSet.byName(s).orElseThrow());
            }
        }
        // FAST runs one path for the whole JVM, fixed at start (scalar unless opted in to the Vector
        // API path); the report's JVM line says which.
        warmUpHaetaeVectorPath();
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            if (o.includes(p.setName())) {
                haetae(p);
            }
        }
        if (workingSets.isEmpty() && workingSetNote == null) {
            workingSetNote = "not run (no HAETAE set selected)";
        }
        if (o.bouncyCastle()) {
            for (String s : BenchOptions.MLDSA_SETS) {
                if (o.includes(s)) {
                    mldsa(s);
                }
            }
        }
        if (java.util.Arrays.stream(HaetaeEngine.values())
                .noneMatch(e -> e.name().equals("COMPACT"))) {
            notes.add("The HAETAE compact engine is not in this build.");
        }
        if (!workingSets.isEmpty()) {
            notes.add("HAETAE working set: JOL deep size of each engine's per-thread work area (pqsign-haetae "
                    + "HaetaeWorkAreaProbe) after the timed operations, without the shared parameter-set constant; "
                    + "fast engine: one area per set for all operations, compact engine: one per operation for all "
                    + "sets.");
        }

        List<BenchReport.HashCount> hashes = List.of();
        String hashNote = null;
        List<String> xmssSets =
                BenchOptions.XMSS_SETS.stream().filter(o::includes).toList();
        if (!o.hashCounts()) {
            hashNote = "not run (disabled)";
        } else if (xmssSets.isEmpty()) {
            hashNote = "not run (no XMSS set selected)";
        } else {
            o.log().accept("hash counts: child JVM with -Dpqsign.xmss.countHashes=true");
            try {
                hashes = HashCounts.runChild(xmssSets, o.hashSigns());
            } catch (Exception e) {
                hashNote = "child JVM failed: " + e.getMessage();
                o.log().accept("hash counts failed: " + e.getMessage());
            }
        }

        List<String> lmsSets = BenchOptions.LMS_SETS.stream()
                .filter(o::includes)
                .filter(s -> !s.equals(BenchOptions.LMS_ON_REQUEST))
                .toList();
        if (o.hashCounts() && !lmsSets.isEmpty()) {
            o.log().accept("hash counts: child JVM with " + LmsHashCounts.FLAG);
            try {
                List<BenchReport.HashCount> all = new ArrayList<>(hashes);
                all.addAll(HashCounts.runChild(LmsHashCounts.class, LmsHashCounts.FLAG, lmsSets, o.hashSigns()));
                hashes = all;
                if (hashNote != null && xmssSets.isEmpty()) {
                    hashNote = null;
                }
            } catch (Exception e) {
                notes.add("LMS hash counts: child JVM failed: " + e.getMessage());
                o.log().accept("LMS hash counts failed: " + e.getMessage());
            }
            if (o.includes(BenchOptions.LMS_ON_REQUEST)) {
                notes.add(BenchOptions.LMS_ON_REQUEST + ": no hash counts (the counting JVM would build its 2^20-leaf "
                        + "tree twice on one thread).");
            }
        }

        List<BenchReport.OpcuaRun> opcua = List.of();
        String opcuaNote = null;
        List<String> studySets =
                xmssSets.stream().filter(s -> !s.equals("XMSSMT-SHA2_20/2_256")).toList();
        if (!o.opcua()) {
            opcuaNote = "not run (disabled)";
        } else if (studySets.isEmpty()) {
            opcuaNote = "not run (none of the study's three XMSS^MT sets selected)";
        } else {
            try {
                opcua = OpcuaLatency.run(studySets, o);
                StringBuilder links = new StringBuilder();
                for (LinkProfile l : OpcuaLatency.LINKS) {
                    links.append(links.length() == 0 ? "" : "; ")
                            .append(String.format(
                                    Locale.ROOT,
                                    "%s: %.2f ms one way, jitter up to %.2f ms, %.2f Mbit/s",
                                    l.name(),
                                    l.oneWayDelayMs(),
                                    l.jitterMs(),
                                    l.bandwidthMbitPerS()));
                }
                notes.add("OPC UA link profiles (pqsign-demo LinkProfile): " + links + ". The latency chart is the "
                        + "empirical distribution of every accepted reading's end-to-end latency per set and link.");
            } catch (Exception e) {
                opcuaNote = "OPC UA demo failed: " + e;
                o.log().accept(opcuaNote);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new BenchReport(
                o.command(),
                MachineInfo.describe(loadStart, MachineInfo.loadAverage()),
                started,
                seconds,
                results,
                sizes,
                workingSets,
                workingSetNote,
                hashes,
                hashNote,
                opcua,
                opcuaNote,
                notes);
    }

    /**
     * Runs the XMSS code paths (keygen on all cores and on one thread, signing, verification) for at
     * least 3 s (JIT compilation lags on a loaded machine) before the first measured case, so the first case does not pay for class loading and the
     * first JIT compilations that every later case reuses.
     */
    private void warmUpJvm() {
        if (BenchOptions.XMSS_SETS.stream().noneMatch(o::includes)) {
            return;
        }
        long end = System.nanoTime() + (o.warmupMs() == 0 ? 0 : Math.max(3 * o.warmupMs(), 3000)) * 1_000_000L;
        XmssParameterSet p = XmssParameterSet.XMSSMT_SHA2_10_2_256;
        int rounds = 0;
        do {
            XmssPrivateKey key =
                    XmssKeyGenerator.generate(p, WotsDerivation.SP800_208, random, rounds % 2 == 0 ? cores : 1, null);
            MemoryStateStore store =
                    MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
            try (XmssStatefulSigner s =
                    XmssStatefulSigner.open(store, Options.defaults().withThreads(cores))) {
                XmssVerifier v = new XmssVerifier(key.publicKey());
                for (int i = 0; i < 20; i++) {
                    Measurer.consume(v.verify(MESSAGE, s.sign(MESSAGE)) ? 1 : 0);
                }
            }
            rounds++;
        } while (System.nanoTime() < end);
    }

    /**
     * On the opt-in Vector API path only: unreported FAST signatures of every selected HAETAE set and
     * both samplers for at least 5 s, because the vector kernels run interpreted (far slower than the
     * scalar code, with a heap object per vector operation) until C2 has compiled them. The path
     * itself is fixed when the JVM starts; this only keeps the rows from measuring the interpreter.
     */
    private void warmUpHaetaeVectorPath() {
        if (HaetaeEngine.fastVectorLanes() == 0) {
            return;
        }
        List<HaetaeParameterSet> sets = new ArrayList<>();
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            if (o.includes(p.setName())) {
                sets.add(p);
            }
        }
        if (sets.isEmpty()) {
            return;
        }
        long millis = Math.max(3 * o.warmupMs(), 5000);
        long end = System.nanoTime() + millis * 1_000_000L;
        int signatures = 0;
        do {
            for (HaetaeParameterSet p : sets) {
                HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(p, random);
                for (HaetaeSampler s : HaetaeSampler.values()) {
                    HaetaeSigner signer = new HaetaeSigner(kp.privateKey(), new byte[0], s, HaetaeEngine.FAST, random);
                    Measurer.consume(signer.sign(MESSAGE).length);
                    signatures++;
                }
            }
        } while (System.nanoTime() < end);
        notes.add(String.format(
                Locale.ROOT,
                "HAETAE FAST on the opt-in Vector API path: %d unreported signatures "
                        + "(%.1f s) before the HAETAE rows, so that C2 has compiled the vector kernels.",
                signatures,
                millis / 1000.0));
    }

    private void record(String scheme, String op, String impl, int threads, Measurer.Operation operation)
            throws Exception {
        Measurer.Samples s = Measurer.measure(operation, o);
        Stats st = Stats.of(s.millis());
        results.add(new Result(scheme, op, impl, threads, st, Measurer.medianAllocated(s.allocated())));
        o.log()
                .accept(String.format(
                        Locale.ROOT,
                        "%-22s %-7s %-22s %2d thr  median %10.4f ms  p99 %10.4f ms  n %d",
                        scheme,
                        op,
                        impl,
                        threads,
                        st.median(),
                        st.p99(),
                        st.n()));
    }

    // ------------------------------------------------------------------ XMSS^MT

    private void xmss(XmssParameterSet p) throws Exception {
        String name = p.setName();
        record(
                name,
                "keygen",
                "pqsign",
                cores,
                () -> XmssKeyGenerator.generate(p, WotsDerivation.SP800_208, random, cores, null));
        record(
                name,
                "keygen",
                "pqsign",
                1,
                () -> XmssKeyGenerator.generate(p, WotsDerivation.SP800_208, random, 1, null));

        XmssSigning signing = new XmssSigning(p);
        record(name, "sign", "pqsign", 1, signing);
        byte[] sig = signing.lastSignature;
        int sigMin = Integer.MAX_VALUE;
        int sigMax = 0;
        for (byte[] s : signing.sample) {
            sigMin = Math.min(sigMin, s.length);
            sigMax = Math.max(sigMax, s.length);
        }
        XmssVerifier verifier = new XmssVerifier(signing.key.publicKey());
        if (!verifier.verify(MESSAGE, sig)) {
            throw new IllegalStateException(name + ": pqsign signature does not verify");
        }
        record(name, "verify", "pqsign", 1, () -> verifier.verify(MESSAGE, sig));
        int state = XmssKeyState.encodedLength(p.n());
        sizes.add(new Sizes(name, "pqsign", p.publicKeyBytes(), state, state, sigMin, sigMax));
        signing.signer.close();

        if (!o.bouncyCastle()) {
            return;
        }
        XMSSMTParameters bp = new XMSSMTParameters(p.height(), p.layers(), new SHA256Digest());
        record(name, "keygen", "bouncycastle", 1, () -> bcXmssKeyPair(bp));
        BcXmssSigning bs = new BcXmssSigning(bp);
        record(name, "sign", "bouncycastle", 1, bs);
        byte[] bsig = bs.lastSignature;
        XMSSMTSigner bv = new XMSSMTSigner();
        bv.init(false, bs.keys.getPublic());
        bv.update(MESSAGE, 0, MESSAGE.length);
        if (!bv.verifySignature(bsig)) {
            throw new IllegalStateException(name + ": BouncyCastle signature does not verify");
        }
        record(name, "verify", "bouncycastle", 1, () -> {
            bv.update(MESSAGE, 0, MESSAGE.length);
            return bv.verifySignature(bsig);
        });
        XMSSMTPrivateKeyParameters priv = (XMSSMTPrivateKeyParameters) bs.keys.getPrivate();
        int privLen = priv.getEncoded().length;
        int pubLen = ((XMSSMTPublicKeyParameters) bs.keys.getPublic()).getEncoded().length;
        sizes.add(new Sizes(name, "bouncycastle", pubLen, privLen, privLen, bsig.length, bsig.length));
    }

    private AsymmetricCipherKeyPair bcXmssKeyPair(XMSSMTParameters bp) {
        XMSSMTKeyPairGenerator g = new XMSSMTKeyPairGenerator();
        g.init(new XMSSMTKeyGenerationParameters(bp, random));
        return g.generateKeyPair();
    }

    /** Signs through {@link XmssStatefulSigner} on an in-memory store; an exhausted key is replaced untimed. */
    private final class XmssSigning implements Measurer.Operation {
        final XmssParameterSet p;
        XmssPrivateKey key;
        XmssStatefulSigner signer;
        byte[] lastSignature;
        final List<byte[]> sample = new ArrayList<>();

        XmssSigning(XmssParameterSet p) {
            this.p = p;
            replace();
        }

        private void replace() {
            if (signer != null) {
                signer.close();
            }
            key = XmssKeyGenerator.generate(p, WotsDerivation.SP800_208, random, cores, null);
            signer = XmssStatefulSigner.open(
                    MemoryStateStore.holding(XmssKeyState.fresh(key).encode()),
                    Options.defaults().withThreads(cores));
        }

        @Override
        public void beforeSample() {
            if (signer.remaining() == 0) {
                replace();
            }
        }

        @Override
        public Object run() {
            lastSignature = signer.sign(MESSAGE);
            if (sample.size() < 16) {
                sample.add(lastSignature);
            }
            return lastSignature;
        }
    }

    private final class BcXmssSigning implements Measurer.Operation {
        final XMSSMTParameters bp;
        final XMSSMTSigner signer = new XMSSMTSigner();
        AsymmetricCipherKeyPair keys;
        byte[] lastSignature;

        BcXmssSigning(XMSSMTParameters bp) {
            this.bp = bp;
            replace();
        }

        private void replace() {
            keys = bcXmssKeyPair(bp);
            signer.init(true, keys.getPrivate());
        }

        @Override
        public void beforeSample() {
            if (signer.getUsagesRemaining() == 0) {
                replace();
            }
        }

        @Override
        public Object run() throws Exception {
            signer.update(MESSAGE, 0, MESSAGE.length);
            lastSignature = signer.generateSignature();
            return lastSignature;
        }
    }

    // ------------------------------------------------------------------ HAETAE

    static String haetaeImpl(HaetaeEngine engine, HaetaeSampler sampler) {
        String impl = "pqsign";
        if (engine != HaetaeEngine.FAST) {
            impl += "-" + engine.name().toLowerCase(Locale.ROOT);
        }
        if (sampler != null && sampler != HaetaeSampler.defaultSampler()) {
            impl += "-v" + sampler.name().substring(1).replace('_', '.');
        }
        return impl;
    }

    private void haetae(HaetaeParameterSet p) throws Exception {
        String name = p.setName();
        for (HaetaeEngine e : HaetaeEngine.values()) {
            record(name, "keygen", haetaeImpl(e, null), 1, () -> HaetaeKeyPairGenerator.generate(p, random, e));
        }
        HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(p, random);
        byte[] sig = null;
        for (HaetaeEngine e : HaetaeEngine.values()) {
            for (HaetaeSampler s : HaetaeSampler.values()) {
                HaetaeSigner signer = new HaetaeSigner(kp.privateKey(), new byte[0], s, e, random);
                int[] minMax = {Integer.MAX_VALUE, 0};
                record(name, "sign", haetaeImpl(e, s), 1, () -> {
                    byte[] out = signer.sign(MESSAGE);
                    minMax[0] = Math.min(minMax[0], out.length);
                    minMax[1] = Math.max(minMax[1], out.length);
                    return out;
                });
                if (e == HaetaeEngine.FAST && s == HaetaeSampler.defaultSampler()) {
                    sig = signer.sign(MESSAGE);
                    sizes.add(new Sizes(
                            name,
                            "pqsign",
                            kp.publicKey().getEncoded().length,
                            kp.privateKey().getEncoded().length,
                            -1,
                            minMax[0],
                            minMax[1]));
                }
            }
        }
        byte[] signature = sig;
        for (HaetaeEngine e : HaetaeEngine.values()) {
            HaetaeVerifier v = new HaetaeVerifier(kp.publicKey(), new byte[0], e);
            if (!v.verify(MESSAGE, signature)) {
                throw new IllegalStateException(name + ": pqsign signature does not verify with engine " + e);
            }
            record(name, "verify", haetaeImpl(e, null), 1, () -> v.verify(MESSAGE, signature));
        }
        workingSets(p);
        if (!o.bouncyCastle()) {
            return;
        }
        HAETAEParameters bp = name.equals("HAETAE-2")
                ? HAETAEParameters.haetae2
                : name.equals("HAETAE-3") ? HAETAEParameters.haetae3 : HAETAEParameters.haetae5;
        HAETAEKeyPairGenerator g = new HAETAEKeyPairGenerator();
        g.init(new HAETAEKeyGenerationParameters(random, bp));
        record(name, "keygen", "bouncycastle", 1, g::generateKeyPair);
        AsymmetricCipherKeyPair bk = g.generateKeyPair();
        HAETAESigner bs = new HAETAESigner();
        bs.init(true, new ParametersWithRandom(bk.getPrivate(), random));
        int[] minMax = {Integer.MAX_VALUE, 0};
        record(name, "sign", "bouncycastle", 1, () -> {
            byte[] out = bs.generateSignature(MESSAGE);
            minMax[0] = Math.min(minMax[0], out.length);
            minMax[1] = Math.max(minMax[1], out.length);
            return out;
        });
        byte[] bsig = bs.generateSignature(MESSAGE);
        HAETAESigner bv = new HAETAESigner();
        bv.init(false, bk.getPublic());
        if (!bv.verifySignature(MESSAGE, bsig)) {
            throw new IllegalStateException(name + ": BouncyCastle HAETAE signature does not verify");
        }
        record(name, "verify", "bouncycastle", 1, () -> bv.verifySignature(MESSAGE, bsig));
        sizes.add(new Sizes(
                name,
                "bouncycastle",
                ((HAETAEPublicKeyParameters) bk.getPublic()).getEncoded().length,
                ((HAETAEPrivateKeyParameters) bk.getPrivate()).getEncoded().length,
                -1,
                minMax[0],
                minMax[1]));
    }

    /** The engines' per-thread work areas, on this thread, which has just run every HAETAE operation. */
    private void workingSets(HaetaeParameterSet p) {
        if (workingSetNote != null) {
            return;
        }
        try {
            List<BenchReport.WorkingSet> measured = WorkingSets.measure(p, o.log());
            if (measured.isEmpty()) {
                workingSetNote = "not measured: this thread's HAETAE work areas were created before the report "
                        + "started recording them";
            }
            workingSets.addAll(measured);
        } catch (RuntimeException | LinkageError e) {
            // JOL reads object layouts through JVM internals; a JVM it does not support must not end the run
            workingSetNote = "JOL could not measure the working set: " + e;
            o.log().accept(workingSetNote);
        }
    }

    // ------------------------------------------------------------------ ML-DSA (BouncyCastle only)

    private void mldsa(String name) throws Exception {
        MLDSAParameters mp = name.equals("ML-DSA-44")
                ? MLDSAParameters.ml_dsa_44
                : name.equals("ML-DSA-65") ? MLDSAParameters.ml_dsa_65 : MLDSAParameters.ml_dsa_87;
        MLDSAKeyPairGenerator g = new MLDSAKeyPairGenerator();
        g.init(new MLDSAKeyGenerationParameters(random, mp));
        record(name, "keygen", "bouncycastle", 1, g::generateKeyPair);
        AsymmetricCipherKeyPair kp = g.generateKeyPair();
        Signer s = new MLDSASigner();
        s.init(true, new ParametersWithRandom(kp.getPrivate(), random));
        record(name, "sign", "bouncycastle", 1, () -> {
            s.update(MESSAGE, 0, MESSAGE.length);
            return s.generateSignature();
        });
        s.update(MESSAGE, 0, MESSAGE.length);
        byte[] sig = s.generateSignature();
        Signer v = new MLDSASigner();
        v.init(false, kp.getPublic());
        v.update(MESSAGE, 0, MESSAGE.length);
        if (!v.verifySignature(sig)) {
            throw new IllegalStateException(name + ": BouncyCastle ML-DSA signature does not verify");
        }
        record(name, "verify", "bouncycastle", 1, () -> {
            v.update(MESSAGE, 0, MESSAGE.length);
            return v.verifySignature(sig);
        });
        sizes.add(new Sizes(
                name,
                "bouncycastle",
                ((MLDSAPublicKeyParameters) kp.getPublic()).getEncoded().length,
                ((MLDSAPrivateKeyParameters) kp.getPrivate()).getEncoded().length,
                -1,
                sig.length,
                sig.length));
    }
}
