package dev.pqsign.bench.report;

import dev.pqsign.lms.HssKeyGenerator;
import dev.pqsign.lms.HssKeyState;
import dev.pqsign.lms.HssParameterSet;
import dev.pqsign.lms.HssPrivateKey;
import dev.pqsign.lms.HssSignerOptions;
import dev.pqsign.lms.HssStatefulSigner;
import dev.pqsign.lms.HssVerifier;
import dev.pqsign.lms.internal.LmsHashCounter;
import dev.pqsign.testing.MemoryStateStore;
import java.security.SecureRandom;
import java.util.Locale;

/**
 * SHA-256 work per LMS / HSS operation, the counterpart of {@link HashCounts}: {@code LmsHashCounter}
 * counts only in a JVM started with {@code -Dpqsign.lms.countHashes=true}, so the report runs this
 * class's {@link #main} in a child JVM. Output lines as {@link HashCounts}'s.
 */
public final class LmsHashCounts {
    static final String FLAG = "-Dpqsign.lms.countHashes=true";

    private LmsHashCounts() {}

    /**
     * Counting pass: {@code main signs set...}. Exits with status 2 if the JVM was not started with
     * the flag.
     *
     * @param args the signatures per set, then the LMS / HSS set names to count
     */
    public static void main(String[] args) {
        if (!LmsHashCounter.enabled()) {
            System.err.println("start the JVM with " + FLAG);
            System.exit(2);
        }
        int signs = Integer.parseInt(args[0]);
        SecureRandom random = new SecureRandom();
        for (int i = 1; i < args.length; i++) {
            HssParameterSet p =
                    HssParameterSet.byName(args[i]).orElseThrow(() -> new IllegalArgumentException("unknown set"));
            LmsHashCounter.reset();
            HssPrivateKey key = HssKeyGenerator.generate(p, random, 1, null);
            print(p, "keygen", 1, LmsHashCounter.calls(), LmsHashCounter.compressions(), LmsHashCounter.compressions());
            LmsHashCounter.reset();
            HssStatefulSigner signer = HssStatefulSigner.open(
                    MemoryStateStore.holding(HssKeyState.fresh(key).encode()),
                    HssSignerOptions.defaults().withThreads(1));
            print(p, "load", 1, LmsHashCounter.calls(), LmsHashCounter.compressions(), LmsHashCounter.compressions());
            int n = (int) Math.min(signs, signer.remaining());
            long calls = 0;
            long compressions = 0;
            long max = 0;
            byte[] sig = null;
            for (int k = 0; k < n; k++) {
                LmsHashCounter.reset();
                sig = signer.sign(BenchRunner.MESSAGE);
                calls += LmsHashCounter.calls();
                compressions += LmsHashCounter.compressions();
                max = Math.max(max, LmsHashCounter.compressions());
            }
            print(p, "sign", n, calls, compressions, max);
            LmsHashCounter.reset();
            if (!new HssVerifier(key.publicKey(), p).verify(BenchRunner.MESSAGE, sig)) {
                throw new IllegalStateException("signature does not verify");
            }
            print(p, "verify", 1, LmsHashCounter.calls(), LmsHashCounter.compressions(), LmsHashCounter.compressions());
            signer.close();
        }
        System.out.flush();
    }

    private static void print(HssParameterSet p, String op, int n, long calls, long compressions, long max) {
        System.out.printf(
                Locale.ROOT,
                "HASH %s %s %d %.3f %.3f %d%n",
                p.setName(),
                op,
                n,
                (double) calls / n,
                (double) compressions / n,
                max);
    }
}
