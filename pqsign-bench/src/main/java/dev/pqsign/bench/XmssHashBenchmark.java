package dev.pqsign.bench;

import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssVerifier;
import dev.pqsign.xmss.internal.XmssHashCounter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Hashing cost of XMSS for whoever optimises the hash layer. WOTS+, the chains and the hash
 * functions are package-private in pqsign-xmss, so this measures them through public operations whose
 * work is dominated by them, and counts SHA-256 compressions in the same fork
 * ({@code -Dpqsign.xmss.countHashes=true}):
 *
 * <ul>
 * <li>{@code sha256_block}: one SHA-256 of 96 bytes (2 compressions) through the JDK, the floor for
 *     XMSS's F/PRF calls (the hash layer uses {@code MessageDigest} too);</li>
 * <li>{@code verify_chainHeavy}: XMSS verification = per layer one WOTS+ public key from the
 *     signature (len chains of up to w - 1 steps), an L-tree and h/d authentication nodes;</li>
 * <li>{@code sign}: stateful signing (one WOTS+ signature per layer plus incremental tree work).</li>
 * </ul>
 *
 * The {@code compressions} column is SHA-256 compressions per second; divided by the benchmark's
 * operations per second it gives compressions per operation, and its inverse the time per compression.
 * Counting adds one {@code LongAdder} update per hash call (the normal benchmarks run without it).
 *
 * <pre>java -jar pqsign-bench/target/benchmarks.jar XmssHashBenchmark</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Dpqsign.xmss.countHashes=true")
@State(Scope.Thread)
public class XmssHashBenchmark {

    @Param({"XMSS-SHA2_10_256", "XMSSMT-SHA2_10/2_256", "XMSSMT-SHA2_20/4_256", "XMSSMT-SHA2_30/6_256"})
    public String set;

    private final byte[] message = "rpm=1500.25;ts=2026-11-30T01:02:03.456789Z".getBytes(StandardCharsets.US_ASCII);
    private final byte[] block = new byte[96];
    private MessageDigest sha256;
    private XmssPrivateKey key;
    private XmssStatefulSigner signer;
    private XmssVerifier verifier;
    private byte[] signature;

    /** SHA-256 compressions counted by pqsign-xmss during the iteration (reported per second). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Compressions {
        private long start;
        public long compressions;

        @Setup(Level.Iteration)
        public void begin() {
            compressions = 0;
            start = XmssHashCounter.compressions();
        }

        @TearDown(Level.Iteration)
        public void end() {
            compressions = XmssHashCounter.compressions() - start;
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws NoSuchAlgorithmException {
        XmssParameterSet p = XmssParameterSet.byName(set).orElseThrow();
        sha256 = MessageDigest.getInstance("SHA-256");
        key = XmssKeyGenerator.generate(
                p,
                WotsDerivation.SP800_208,
                new SecureRandom(),
                Runtime.getRuntime().availableProcessors(),
                null);
        signer = open();
        verifier = new XmssVerifier(key.publicKey());
        signature = signer.sign(message);
        if (!XmssHashCounter.enabled()) {
            throw new IllegalStateException("run in a fork with -Dpqsign.xmss.countHashes=true");
        }
    }

    private XmssStatefulSigner open() {
        return XmssStatefulSigner.open(
                MemoryStateStore.holding(XmssKeyState.fresh(key).encode()));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        signer.close();
    }

    @Benchmark
    public byte[] sha256_block() {
        block[0]++;
        return sha256.digest(block);
    }

    @Benchmark
    public boolean verify_chainHeavy(Compressions c) {
        return verifier.verify(message, signature);
    }

    @Benchmark
    public byte[] sign(Compressions c) {
        if (signer.remaining() == 0) {
            signer.close();
            signer = open(); // an in-memory state: the same key from index 0 again
        }
        return signer.sign(message);
    }
}
