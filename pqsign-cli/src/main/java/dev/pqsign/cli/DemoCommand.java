package dev.pqsign.cli;

import dev.pqsign.core.IndexedSignature;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssPublicKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssVerifier;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign demo}: for each of the study's three XMSS^MT sets, a real keygen (first run only; the
 * keys live in --data-dir), N signed readings through the durable stateful signer, verification of
 * each, and a tampered copy of each that must be rejected, with timings.
 */
@Command(name = "demo", description = "Sign and verify readings with the study's three XMSS^MT sets; tampered readings must be rejected.")
final class DemoCommand implements Callable<Integer> {
    static final List<XmssParameterSet> STUDY_SETS = List.of(XmssParameterSet.XMSSMT_SHA2_10_2_256,
            XmssParameterSet.XMSSMT_SHA2_20_4_256, XmssParameterSet.XMSSMT_SHA2_30_6_256);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data-dir", defaultValue = "pqsign-data", description = "Where keys are kept between runs (default ./pqsign-data).")
    Path dataDir;

    @Option(names = "--readings", defaultValue = "100", description = "Readings per set (default 100).")
    int readings;

    @Override
    public Integer call() throws IOException {
        if (readings < 1) {
            throw CliException.usage("--readings must be at least 1");
        }
        PrintWriter o = spec.commandLine().getOut();
        o.printf("%-22s %9s %9s %9s %9s %9s %9s %7s %9s %s%n", "SET", "KEYGEN ms", "LOAD ms", "SIGN p50", "SIGN p99",
                "SIGN max", "VERIFY p50", "BYTES", "ACCEPTED", "TAMPERED REJECTED");
        int failures = 0;
        for (XmssParameterSet p : STUDY_SETS) {
            failures += runSet(p, o);
        }
        o.flush();
        if (failures > 0) {
            spec.commandLine().getErr().println("pqsign demo: " + failures + " readings were not handled correctly");
            return CliException.FAILED;
        }
        return 0;
    }

    private int runSet(XmssParameterSet p, PrintWriter o) throws IOException {
        Path dir = dataDir.resolve(p.setName().replace('/', '-'));
        Path stateFile = dir.resolve("key.state");
        Path pubFile = dir.resolve("key.pub");
        double keygenMs = Double.NaN;
        if (!Files.exists(stateFile)) {
            Files.createDirectories(dir);
            long t0 = System.nanoTime();
            XmssPrivateKey key = XmssKeyGenerator.generate(p);
            keygenMs = (System.nanoTime() - t0) / 1e6;
            FileStateStore.create(stateFile, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT)
                    .close();
            KeygenCommand.writePublic(pubFile, key.publicKey().encoded());
            key.destroy();
        }
        XmssVerifier verifier = new XmssVerifier(XmssPublicKey.decode(p, Files.readAllBytes(pubFile)));
        double[] sign = new double[readings];
        double[] verify = new double[readings];
        int accepted = 0;
        int tamperedRejected = 0;
        long t0 = System.nanoTime();
        try (FileStateStore store = FileStateStore.open(stateFile);
                XmssStatefulSigner signer = XmssStatefulSigner.open(store)) {
            double loadMs = (System.nanoTime() - t0) / 1e6;
            if (signer.remaining() < readings) {
                throw new CliException(CliException.FAILED, p.setName() + " demo key in " + dir + " has only "
                        + signer.remaining() + " signatures left; delete the directory to start over");
            }
            for (int i = 0; i < readings; i++) {
                long s0 = System.nanoTime();
                byte[][] signed = new byte[1][];
                IndexedSignature s = signer.signIndexed(idx -> signed[0] = reading(idx));
                long s1 = System.nanoTime();
                byte[] msg = signed[0];
                boolean ok = verifier.verify(msg, s.signature());
                long s2 = System.nanoTime();
                sign[i] = (s1 - s0) / 1e6;
                verify[i] = (s2 - s1) / 1e6;
                if (ok) {
                    accepted++;
                }
                byte[] tampered = msg.clone();
                tampered[tampered.length / 2] ^= 0x01;
                if (!verifier.verify(tampered, s.signature())) {
                    tamperedRejected++;
                }
            }
            o.printf("%-22s %9s %9.1f %9.3f %9.3f %9.3f %9.3f %7d %9s %d/%d%n", p.setName(),
                    Double.isNaN(keygenMs) ? "(reused)" : String.format("%.1f", keygenMs), loadMs, pct(sign, 50),
                    pct(sign, 99), pct(sign, 100), pct(verify, 50), p.signatureBytes(), accepted + "/" + readings,
                    tamperedRejected, readings);
        }
        return (readings - accepted) + (readings - tamperedRejected);
    }

    /** A reading like the study's: RPM and a high-precision timestamp. */
    private static byte[] reading(long index) {
        double rpm = 1500 + 25 * Math.sin(index / 10.0);
        return String.format("rpm=%.2f;ts=%d;i=%d", rpm, System.currentTimeMillis() * 1000, index)
                .getBytes(StandardCharsets.UTF_8);
    }

    static double pct(double[] v, int p) {
        double[] s = v.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))];
    }
}
