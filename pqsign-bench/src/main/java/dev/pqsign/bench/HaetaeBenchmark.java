package dev.pqsign.bench;

import dev.pqsign.haetae.HaetaeEngine;
import dev.pqsign.haetae.HaetaeKeyPair;
import dev.pqsign.haetae.HaetaeKeyPairGenerator;
import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.haetae.HaetaeSampler;
import dev.pqsign.haetae.HaetaeSigner;
import dev.pqsign.haetae.HaetaeVerifier;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAEKeyPairGenerator;
import org.bouncycastle.pqc.crypto.haetae.HAETAEParameters;
import org.bouncycastle.pqc.crypto.haetae.HAETAESigner;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * HAETAE keygen, sign and verify: pqsign per engine (fast, compact) and sampler (v1.2.0, v1.1.2)
 * beside BouncyCastle 1.87 (v1.1.2 sampler). The NTT and the hyperball sampler are package-private in
 * pqsign-haetae, so their cost shows here through signing (sampler-bound: rejection loop) and
 * verification (NTT-bound) per engine and sampler.
 *
 * <pre>java -jar pqsign-bench/target/benchmarks.jar HaetaeBenchmark -p set=HAETAE-2</pre>
 *
 * <p>The fork runs the fast engine on its default scalar path; add
 * {@code -jvmArgsAppend "--add-modules jdk.incubator.vector -Dpqsign.haetae.vector=true"} to opt in to
 * its Vector API path (docs/haetae.md). Each trial prints which path its JVM uses.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class HaetaeBenchmark {
    static final byte[] MESSAGE = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);

    /** pqsign: set × engine × sampler. */
    @State(Scope.Thread)
    public static class Pqsign {
        @Param({"HAETAE-2", "HAETAE-3", "HAETAE-5"})
        public String set;

        @Param({"FAST", "COMPACT"})
        public String engine;

        @Param({"V1_2_0", "V1_1_2"})
        public String sampler;

        HaetaeParameterSet params;
        HaetaeEngine eng;
        final SecureRandom random = new SecureRandom();
        HaetaeSigner signer;
        HaetaeVerifier verifier;
        byte[] signature;
        /** A second key and signature: alternating keys defeats FAST's per-thread cache of the expanded A. */
        HaetaeVerifier otherVerifier;

        byte[] otherSignature;
        boolean flip;

        @Setup(Level.Trial)
        public void setUp() {
            System.out.println("HAETAE FAST engine: " + HaetaeEngine.fastPathDescription());
            params = HaetaeParameterSet.fromName(set);
            eng = HaetaeEngine.valueOf(engine);
            HaetaeKeyPair kp = HaetaeKeyPairGenerator.generate(params, random, eng);
            signer = new HaetaeSigner(kp.privateKey(), new byte[0], HaetaeSampler.valueOf(sampler), eng, random);
            verifier = new HaetaeVerifier(kp.publicKey(), new byte[0], eng);
            signature = signer.sign(MESSAGE);
            HaetaeKeyPair other = HaetaeKeyPairGenerator.generate(params, random, eng);
            otherVerifier = new HaetaeVerifier(other.publicKey(), new byte[0], eng);
            otherSignature = new HaetaeSigner(
                            other.privateKey(), new byte[0], HaetaeSampler.valueOf(sampler), eng, random)
                    .sign(MESSAGE);
        }
    }

    /** BouncyCastle 1.87: set only. */
    @State(Scope.Thread)
    public static class Bc {
        @Param({"HAETAE-2", "HAETAE-3", "HAETAE-5"})
        public String set;

        final SecureRandom random = new SecureRandom();
        HAETAEKeyPairGenerator generator;
        HAETAESigner signer;
        HAETAESigner verifier;
        byte[] signature;

        @Setup(Level.Trial)
        public void setUp() {
            HAETAEParameters p = set.equals("HAETAE-2")
                    ? HAETAEParameters.haetae2
                    : set.equals("HAETAE-3") ? HAETAEParameters.haetae3 : HAETAEParameters.haetae5;
            generator = new HAETAEKeyPairGenerator();
            generator.init(new HAETAEKeyGenerationParameters(random, p));
            AsymmetricCipherKeyPair kp = generator.generateKeyPair();
            signer = new HAETAESigner();
            signer.init(true, new ParametersWithRandom(kp.getPrivate(), random));
            verifier = new HAETAESigner();
            verifier.init(false, kp.getPublic());
            signature = signer.generateSignature(MESSAGE);
        }
    }

    /** Keygen does not depend on the sampler; run it with {@code -p sampler=V1_2_0} to avoid duplicates. */
    @Benchmark
    public HaetaeKeyPair keygen_pqsign(Pqsign s) {
        return HaetaeKeyPairGenerator.generate(s.params, s.random, s.eng);
    }

    @Benchmark
    public byte[] sign_pqsign(Pqsign s) {
        return s.signer.sign(MESSAGE);
    }

    /** Verification does not depend on the sampler. */
    @Benchmark
    public boolean verify_pqsign(Pqsign s) {
        return s.verifier.verify(MESSAGE, s.signature);
    }

    /**
     * Verification under two keys in turn: every call is the first under its key, so FAST re-expands
     * A and re-absorbs the public key each time, as the C reference (and COMPACT) always do.
     */
    @Benchmark
    public boolean verifyAlternatingKeys_pqsign(Pqsign s) {
        s.flip = !s.flip;
        return s.flip ? s.otherVerifier.verify(MESSAGE, s.otherSignature) : s.verifier.verify(MESSAGE, s.signature);
    }

    @Benchmark
    public AsymmetricCipherKeyPair keygen_bouncycastle(Bc s) {
        return s.generator.generateKeyPair();
    }

    @Benchmark
    public byte[] sign_bouncycastle(Bc s) {
        return s.signer.generateSignature(MESSAGE);
    }

    @Benchmark
    public boolean verify_bouncycastle(Bc s) {
        return s.verifier.verifySignature(MESSAGE, s.signature);
    }
}
