package dev.pqsign.bench;

import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssVerifier;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.Signer;
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
 * Keygen, sign and verify of the study's XMSS^MT sets and XMSSMT-SHA2_20/2_256, pqsign and
 * BouncyCastle 1.87 in the same run. Sample mode, so medians and tails are both visible.
 *
 * <p>Signing consumes indices: when a key runs out mid-measurement it is replaced (one sample then
 * includes a key load; medians are unaffected). pqsign signs through its stateful signer with an
 * in-memory state store (fsync cost is a property of the disk, measured separately).
 *
 * <pre>java -jar pqsign-bench/target/benchmarks.jar XmssBenchmark</pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(1)
@State(Scope.Thread)
public class XmssBenchmark {

    @Param({"XMSSMT-SHA2_10/2_256", "XMSSMT-SHA2_20/4_256", "XMSSMT-SHA2_30/6_256", "XMSSMT-SHA2_20/2_256"})
    public String set;

    private XmssParameterSet params;
    private final byte[] message = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);
    private final SecureRandom random = new SecureRandom();

    private XmssPrivateKey key;
    private XmssStatefulSigner signer;
    private XmssVerifier verifier;
    private byte[] signature;

    private AsymmetricCipherKeyPair bcKeys;
    private Signer bcSigner;
    private Signer bcVerifier;
    private byte[] bcSignature;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        params = XmssParameterSet.byName(set).orElseThrow();
        key = XmssKeyGenerator.generate(
                params, WotsDerivation.SP800_208, random, Runtime.getRuntime().availableProcessors(), null);
        signer = openSigner();
        verifier = new XmssVerifier(key.publicKey());
        signature = signer.sign(message);

        bcKeys = BcXmss.keyPair(params, random);
        bcSigner = BcXmss.signer(params);
        bcSigner.init(true, bcKeys.getPrivate());
        bcSigner.update(message, 0, message.length);
        bcSignature = bcSigner.generateSignature();
        bcVerifier = BcXmss.signer(params);
        bcVerifier.init(false, bcKeys.getPublic());
    }

    private XmssStatefulSigner openSigner() {
        return XmssStatefulSigner.open(
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode()));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        signer.close();
    }

    @Benchmark
    public Object keygen_pqsign() {
        return XmssKeyGenerator.generate(
                params, WotsDerivation.SP800_208, random, Runtime.getRuntime().availableProcessors(), null);
    }

    @Benchmark
    public Object keygen_pqsign_1thread() {
        return XmssKeyGenerator.generate(params, WotsDerivation.SP800_208, random, 1, null);
    }

    @Benchmark
    public Object keygen_bouncycastle() {
        return BcXmss.keyPair(params, random);
    }

    @Benchmark
    public byte[] sign_pqsign() {
        if (signer.remaining() == 0) {
            signer.close();
            signer = openSigner();
        }
        return signer.sign(message);
    }

    @Benchmark
    public byte[] sign_bouncycastle() throws Exception {
        if (BcXmss.remaining(bcSigner) == 0) {
            bcKeys = BcXmss.keyPair(params, random);
            bcSigner.init(true, bcKeys.getPrivate());
        }
        bcSigner.update(message, 0, message.length);
        return bcSigner.generateSignature();
    }

    @Benchmark
    public boolean verify_pqsign() {
        return verifier.verify(message, signature);
    }

    @Benchmark
    public boolean verify_bouncycastle() {
        bcVerifier.update(message, 0, message.length);
        return bcVerifier.verifySignature(bcSignature);
    }
}
