package dev.pqsign.bench.report;

import dev.pqsign.testing.MemoryStateStore;
import dev.pqsign.xmss.WotsDerivation;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import dev.pqsign.xmss.XmssVerifier;
import dev.pqsign.xmss.internal.XmssHashCounter;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * SHA-256 work per XMSS operation. {@code XmssHashCounter} counts only in a JVM started with
 * {@code -Dpqsign.xmss.countHashes=true}, so the report runs this class's {@link #main} in a child JVM
 * with the same class path: the timed runs stay free of counting.
 *
 * <p>Output: one line per (set, operation): {@code HASH set op n callsMean compressionsMean compressionsMax}.
 */
public final class HashCounts {
    static final String FLAG = "-Dpqsign.xmss.countHashes=true";

    private HashCounts() {}

    /**
     * Counting pass: {@code main signs set...}. Exits with status 2 if the JVM was not started with
     * {@code -Dpqsign.xmss.countHashes=true}.
     *
     * @param args the signatures per set, then the XMSS^MT set names to count
     */
    public static void main(String[] args) {
        if (!XmssHashCounter.enabled()) {
            System.err.println("start the JVM with " + FLAG);
            System.exit(2);
        }
        int signs = Integer.parseInt(args[0]);
        SecureRandom random = new SecureRandom();
        for (int i = 1; i < args.length; i++) {
            XmssParameterSet p =
                    XmssParameterSet.byName(args[i]).orElseThrow(() -> new IllegalArgumentException("unknown set"));
            XmssHashCounter.reset();
            XmssPrivateKey key = XmssKeyGenerator.generate(p, WotsDerivation.SP800_208, random, 1, null);
            print(
                    p,
                    "keygen",
                    1,
                    XmssHashCounter.calls(),
                    XmssHashCounter.compressions(),
                    XmssHashCounter.compressions());
            XmssHashCounter.reset();
            MemoryStateStore store =
                    MemoryStateStore.holding(XmssKeyState.fresh(key).encode());
            XmssStatefulSigner signer =
                    XmssStatefulSigner.open(store, Options.defaults().withThreads(1));
            print(
                    p,
                    "load",
                    1,
                    XmssHashCounter.calls(),
                    XmssHashCounter.compressions(),
                    XmssHashCounter.compressions());
            int n = (int) Math.min(signs, signer.remaining());
            long calls = 0;
            long compressions = 0;
            long max = 0;
            byte[] sig = null;
            for (int k = 0; k < n; k++) {
                XmssHashCounter.reset();
                sig = signer.sign(BenchRunner.MESSAGE);
                calls += XmssHashCounter.calls();
                compressions += XmssHashCounter.compressions();
                max = Math.max(max, XmssHashCounter.compressions());
            }
            printMean(p, "sign", n, calls, compressions, max);
            XmssVerifier v = new XmssVerifier(key.publicKey());
            XmssHashCounter.reset();
            if (!v.verify(BenchRunner.MESSAGE, sig)) {
                throw new IllegalStateException("signature does not verify");
            }
            print(
                    p,
                    "verify",
                    1,
                    XmssHashCounter.calls(),
                    XmssHashCounter.compressions(),
                    XmssHashCounter.compressions());
            signer.close();
        }
        System.out.flush();
    }

    private static void print(XmssParameterSet p, String op, int n, long calls, long compressions, long max) {
        printMean(p, op, n, calls, compressions, max);
    }

    private static void printMean(XmssParameterSet p, String op, int n, long calls, long compressions, long max) {
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

    /** Runs {@link #main} in a child JVM (same java, same class path) and parses its lines. */
    static List<BenchReport.HashCount> runChild(List<String> sets, int signs) throws IOException, InterruptedException {
        return runChild(HashCounts.class, FLAG, sets, signs);
    }

    /** Runs {@code main}'s {@code main(signs, set...)} in a child JVM started with {@code flag}, parses its lines. */
    static List<BenchReport.HashCount> runChild(Class<?> main, String flag, List<String> sets, int signs)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java, flag, "-cp", System.getProperty("java.class.path"), main.getName(), Integer.toString(signs)));
        cmd.addAll(sets);
        Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<BenchReport.HashCount> out = new ArrayList<>();
        StringBuilder other = new StringBuilder();
        try (BufferedReader r =
                new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.trim().split(" ");
                if (f.length == 7 && f[0].equals("HASH")) {
                    out.add(new BenchReport.HashCount(
                            f[1],
                            f[2],
                            Integer.parseInt(f[3]),
                            Double.parseDouble(f[4]),
                            Double.parseDouble(f[5]),
                            Long.parseLong(f[6])));
                } else if (other.length() < 2000) {
                    other.append(line).append('\n');
                }
            }
        }
        if (!proc.waitFor(10, TimeUnit.MINUTES)) {
            proc.destroyForcibly();
            throw new IOException("hash-count JVM did not finish");
        }
        if (proc.exitValue() != 0) {
            throw new IOException("hash-count JVM exited with " + proc.exitValue() + ": "
                    + other.toString().trim());
        }
        return out;
    }
}
