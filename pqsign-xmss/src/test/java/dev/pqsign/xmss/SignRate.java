package dev.pqsign.xmss;

import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Measures durable signing throughput with a real {@link FileStateStore} for several batch sizes:
 * {@code java -cp <test classpath> dev.pqsign.xmss.SignRate DIR SECONDS [BATCH...]}. Each batch size gets a
 * fresh XMSSMT-SHA2_20/4_256 key state in DIR. Prints signatures per second and state writes per second.
 */
public final class SignRate {
    private SignRate() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int[] batches = {1, 16};
        if (args.length > 2) {
            batches = new int[args.length - 2];
            for (int i = 2; i < args.length; i++) {
                batches[i - 2] = Integer.parseInt(args[i]);
            }
        }
        XmssPrivateKey key = XmssStatefulSignerTest.key(XmssParameterSet.XMSSMT_SHA2_20_4_256, 71);
        byte[] msg = "rpm=1500.25".getBytes(StandardCharsets.UTF_8);
        for (int batch : batches) {
            Path state = Files.createTempDirectory(dir, "rate-").resolve("key.state");
            try (FileStateStore store =
                            FileStateStore.create(state, XmssKeyState.fresh(key).encode(), Duration.ofSeconds(10));
                    XmssStatefulSigner signer = XmssStatefulSigner.open(
                            store, Options.defaults().withBatch(batch).withThreads(2))) {
                for (int i = 0; i < 50; i++) {
                    signer.sign(msg); // warm-up
                }
                long start = System.nanoTime();
                long end = start + (long) (seconds * 1e9);
                long n = 0;
                while (System.nanoTime() < end) {
                    signer.sign(msg);
                    n++;
                }
                double s = (System.nanoTime() - start) / 1e9;
                System.out.printf(
                        "batch %3d: %8.1f signatures/s (%.3f ms each), %7.1f state writes/s%n",
                        batch, n / s, 1000 * s / n, Math.ceil((double) n / batch) / s);
            }
        }
    }
}
