package dev.pqsign.bench.report;

import dev.pqsign.demo.DemoReport;
import dev.pqsign.demo.DemoRunner;
import dev.pqsign.demo.LinkProfile;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.LatencySeries;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.xmss.XmssKeyGenerator;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPrivateKey;
import dev.pqsign.xmss.XmssStatefulSigner;
import dev.pqsign.xmss.XmssStatefulSigner.Options;
import dev.pqsign.xmss.XmssVerifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * End-to-end latency of signed OPC UA telemetry (the study's Tables 4 to 6): {@link DemoRunner} with
 * one sensor per XMSS^MT set, a durable file state store (one fsync'd reservation per signature, made
 * ahead in the background as by {@code pqsign sensor} and {@code pqsign demo}), over
 * the emulated {@code ethernet} and {@code 5g} link profiles: p50 / p99 / max per phase, and every
 * accepted reading's end-to-end latency for the distribution chart.
 */
final class OpcuaLatency {
    static final List<LinkProfile> LINKS = List.of(LinkProfile.ETHERNET, LinkProfile.FIVE_G);

    private OpcuaLatency() {}

    static List<BenchReport.OpcuaRun> run(List<String> sets, BenchOptions o) throws IOException, InterruptedException {
        List<BenchReport.OpcuaRun> out = new ArrayList<>();
        Path dir = Files.createTempDirectory("pqsign-bench-opcua");
        try {
            for (LinkProfile link : LINKS) {
                List<DemoRunner.SchemeSetup> setups = new ArrayList<>();
                for (String s : sets) {
                    setups.add(setup(XmssParameterSet.byName(s).orElseThrow(), dir.resolve("keys")));
                }
                o.log().accept("OPC UA demo over " + link.name() + ": " + o.opcuaReadings() + " readings per set");
                Path data = Files.createDirectories(dir.resolve("data-" + link.name()));
                DemoReport r = DemoRunner.run(
                        setups,
                        new DemoRunner.Options(
                                data, o.opcuaReadings(), link, 1, TransportSecurity.NONE, 1.0, 0, o.opcuaWarmup()));
                for (DemoReport.SetResult s : r.sets()) {
                    out.add(new BenchReport.OpcuaRun(
                            link.name(),
                            s.name(),
                            s.readings(),
                            s.accepted(),
                            s.signatureBytes(),
                            stats(s.sign()),
                            stats(s.verify()),
                            stats(s.transfer()),
                            stats(s.endToEnd()),
                            s.endToEndMs()));
                    o.log()
                            .accept(String.format(
                                    java.util.Locale.ROOT,
                                    "  %-22s end-to-end p50 %.2f ms p99 %.2f ms",
                                    s.name(),
                                    s.endToEnd().p50(),
                                    s.endToEnd().p99()));
                }
            }
        } finally {
            deleteTree(dir);
        }
        return out;
    }

    private static Stats stats(LatencySeries.Summary s) {
        return new Stats(s.count(), s.p50(), s.p99(), s.max(), s.mean());
    }

    private static DemoRunner.SchemeSetup setup(XmssParameterSet p, Path keyDir) {
        return new DemoRunner.SchemeSetup(p.setName(), EmbeddedIndex.bigEndianPrefix(p.indexBytes()), i -> {
            Files.createDirectories(keyDir);
            XmssPrivateKey key = XmssKeyGenerator.generate(p);
            Path state = keyDir.resolve(p.setName().replace('/', '-') + "-" + i + "-" + System.nanoTime() + ".state");
            FileStateStore.create(state, XmssKeyState.fresh(key).encode(), FileStateStore.DEFAULT_LOCK_TIMEOUT)
                    .close();
            // Verified like the operator does (pqsign demo / operator): upper layers cached per bottom tree.
            XmssVerifier verifier = XmssVerifier.withUpperLayerCache(key.publicKey());
            byte[] pub = key.publicKey().encoded();
            key.destroy();
            XmssStatefulSigner signer = XmssStatefulSigner.open(
                    FileStateStore.open(state), Options.defaults().withReserveAhead(true));
            return new DemoRunner.DemoKey(new SensorKey(signer, KeyId.ofPublicKey(pub)), verifier);
        });
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }
}
