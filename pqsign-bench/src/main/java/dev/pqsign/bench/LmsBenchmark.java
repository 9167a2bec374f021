package dev.pqsign.bench;

import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.lms.HssVerifier;
import dev.pqsign.lms.LmsParameterSet;
import dev.pqsign.testing.MemoryStateStore;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.generators.HSSKeyPairGenerator;
import org.bouncycastle.crypto.params.HSSKeyGenerationParameters;
import org.bouncycastle.crypto.params.HSSPrivateKeyParameters;
import org.bouncycastle.crypto.params.LMOtsParameters;
import org.bouncycastle.crypto.params.LMSParameters;
import org.bouncycastle.crypto.params.LMSigParameters;
import org.bouncycastle.crypto.signers.HSSSigner;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sign and verify of LMS / HSS, pqsign and BouncyCastle 1.87 in the same run (sample mode: medians
 * and tails). pqsign signs through its stateful signer on an in-memory state store; an exhausted key
 * restarts from its fresh state (one sample then includes a key load). Key generation is in
 * {@code pqsign bench} (alternating, few samples: it takes seconds for height 15).
 *
 * <p>The height-20 set is not a default parameter: BouncyCastle's key generation builds its 2^20
 * leaves on one thread first (tens of minutes); name it with {@code -p set=...} to run it.
 *
 * <pre>java -jar pqsign-bench/target/benchmarks.jar LmsBenchmark</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@State(Scope.Thread)
public class LmsBenchmark {

    @Param({
        "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4",
        "LMS_SHA256_M32_H15/LMOTS_SHA256_N32_W4",
        "LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4+LMS_SHA256_M32_H10/LMOTS_SHA256_N32_W4"
    })
    public String set;

    private final byte[] message = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);
    private final SecureRandom random = new SecureRandom();

    private HssParameterSet params;
    private byte[] state;
    private HssStatefulSigner signer;
    private HssVerifier verifier;
    private byte[] signature;

    private AsymmetricCipherKeyPair bcKeys;
    private HSSSigner bcSigner;
    private HSSSigner bcVerifier;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        params = HssParameterSet.byName(set).orElseThrow();
        HssPrivateKey key =
                HssKeyGenerator.generate(params, random, Runtime.getRuntime().availableProcessors(), null);
        state = HssKeyState.fresh(key).encode();
        signer = HssStatefulSigner.open(MemoryStateStore.holding(state));
        verifier = new HssVerifier(key.publicKey(), params);
        signature = signer.sign(message);

        bcKeys = bcKeyPair();
        bcSigner = new HSSSigner();
        bcSigner.init(true, bcKeys.getPrivate());
        bcVerifier = new HSSSigner();
        bcVerifier.init(
                false,
                org.bouncycastle.crypto.params.HSSPublicKeyParameters.getInstance(
                        key.publicKey().encoded()));
    }

    private AsymmetricCipherKeyPair bcKeyPair() {
        LMSParameters[] levels = new LMSParameters[params.levels()];
        for (int i = 0; i < levels.length; i++) {
            LmsParameterSet l = params.level(i);
            levels[i] = LMSParameters.create(
                    LMSigParameters.getParametersForType(l.lmsType().typeCode()),
                    LMOtsParameters.getParametersForType(l.otsType().typeCode()));
        }
        HSSKeyPairGenerator g = new HSSKeyPairGenerator();
        g.init(new HSSKeyGenerationParameters(levels, random));
        return g.generateKeyPair();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        signer.close();
    }

    @Benchmark
    public byte[] sign_pqsign() {
        if (signer.remaining() == 0) {
            signer.close();
            signer = HssStatefulSigner.open(MemoryStateStore.holding(state));
        }
        return signer.sign(message);
    }

    @Benchmark
    public byte[] sign_bouncycastle() {
        if (((HSSPrivateKeyParameters) bcKeys.getPrivate()).getUsagesRemaining() == 0) {
            bcKeys = bcKeyPair();
            bcSigner.init(true, bcKeys.getPrivate());
        }
        return bcSigner.generateSignature(message);
    }

    @Benchmark
    public boolean verify_pqsign() {
        return verifier.verify(message, signature);
    }

    @Benchmark
    public boolean verify_bouncycastle() {
        return bcVerifier.verifySignature(message, signature);
    }
}
