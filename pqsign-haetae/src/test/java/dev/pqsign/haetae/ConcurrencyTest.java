package dev.pqsign.haetae;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Shared signers and verifiers used from several threads at once (per-thread contexts). */
class ConcurrencyTest {

    @Test
    void sharedSignerAndVerifier_acrossThreadsAndSets_allSignaturesVerify() throws Exception {
        HaetaeKeyPair k2 = HaetaeKeyPairGenerator.fromSeed(HaetaeParameterSet.HAETAE_2, new byte[32]);
        HaetaeKeyPair k5 = HaetaeKeyPairGenerator.fromSeed(HaetaeParameterSet.HAETAE_5, new byte[32]);
        HaetaeSigner[] signers = {
            new HaetaeSigner(k2.privateKey()),
            new HaetaeSigner(k5.privateKey()),
            new HaetaeSigner(
                    k2.privateKey(),
                    new byte[] {9},
                    HaetaeSampler.V1_1_2,
                    HaetaeEngine.COMPACT,
                    new java.security.SecureRandom())
        };
        HaetaeVerifier[] verifiers = {
            new HaetaeVerifier(k2.publicKey()),
            new HaetaeVerifier(k5.publicKey()),
            new HaetaeVerifier(k2.publicKey(), new byte[] {9}, HaetaeEngine.FAST)
        };
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                Callable<Integer> task = () -> {
                    int ok = 0;
                    for (int i = 0; i < 15; i++) {
                        int which = (thread + i) % 3;
                        byte[] msg = {(byte) thread, (byte) i};
                        byte[] sig = signers[which].sign(msg);
                        // a verifier of another set or context must reject it
                        ok += verifiers[which].verify(msg, sig) ? 1 : 0;
                        ok -= verifiers[(which + 1) % 3].verify(msg, sig) ? 1 : 0;
                    }
                    return ok;
                };
                results.add(pool.submit(task));
            }
            for (Future<Integer> f : results) {
                assertEquals(15, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
