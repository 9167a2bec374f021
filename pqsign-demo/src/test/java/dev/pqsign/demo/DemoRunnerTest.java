package dev.pqsign.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.telemetry.Ed25519TestDouble;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.SensorKey;
import dev.pqsign.telemetry.SequencedSigner;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoRunnerTest {

    @TempDir
    Path dir;

    /** A set of K Ed25519 test-double keys, each with its own persisted sequence counter. */
    static DemoRunner.SchemeSetup ed25519Set(String name, Path keyDir) {
        return new DemoRunner.SchemeSetup(name, EmbeddedIndex.NONE, i -> {
            Ed25519TestDouble k = Ed25519TestDouble.generate();
            java.nio.file.Files.createDirectories(keyDir);
            SequencedSigner s = SequencedSigner.openFile(k.signer(), keyDir.resolve(name + "-" + i + ".seq"), 1);
            return new DemoRunner.DemoKey(new SensorKey(s, k.keyId()), k.verifier());
        });
    }

    @Test
    void run_oneSensorLoopback_allGenuineAcceptedAllInjectedRejected() throws Exception {
        DemoReport report = DemoRunner.run(
                List.of(ed25519Set("ED25519-TEST-DOUBLE", dir.resolve("keys"))),
                new DemoRunner.Options(dir, 60, LinkProfile.LOOPBACK, 1, TransportSecurity.NONE, 1.0, 20, 5));
        System.out.print(report.toTable());
        System.out.println(report.toJson());
        DemoReport.SetResult r = report.sets().get(0);
        assertEquals(60, r.readings());
        assertEquals(60, r.accepted());
        assertEquals(3, r.injectedTampered());
        assertEquals(3, r.rejectedTampered());
        assertEquals(3, r.injectedReplayed());
        assertEquals(3, r.rejectedReplayed());
        assertEquals(0, r.lost());
        assertEquals(64, r.signatureBytes());
        assertEquals(60, r.endToEnd().count());
        // the samples are the ones summarised: same count, same maximum
        assertEquals(60, r.endToEndMs().size());
        assertEquals(
                r.endToEnd().max(),
                r.endToEndMs().stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
                1e-9);
        String json = report.toJson();
        assertTrue(
                json.matches("\\{\"sets\":\\[\\{\"name\":\"ED25519-TEST-DOUBLE\",\"readings\":60,\"accepted\":60,"
                        + "\"injected_tampered\":3,\"rejected_tampered\":3,\"injected_replayed\":3,\"rejected_replayed\":3,"
                        + "\"signature_bytes\":64,\"sign_ms\":\\{\"p50\":[0-9.]+,\"p99\":[0-9.]+,\"max\":[0-9.]+\\},"
                        + "\"verify_ms\":\\{[^}]*\\},\"transfer_ms\":\\{[^}]*\\},\"end_to_end_ms\":\\{[^}]*\\},"
                        + "\"gaps\":0,\"duplicates\":0\\}\\]\\}"),
                json);
        assertTrue(
                report.toJsonWithThroughput()
                        .contains("\"sensors\":1,\"lost\":0,\"rejected_genuine\":0," + "\"readings_per_second\":"),
                report.toJsonWithThroughput());
        assertTrue(
                report.toJsonWithThroughput()
                        .startsWith("{\"sets\":[{\"name\":\"ED25519-TEST-DOUBLE\",\"readings\":60,\"accepted\":60,"
                                + "\"injected_tampered\":3,\"rejected_tampered\":3,\"injected_replayed\":3,\"rejected_replayed\":3,"
                                + "\"signature_bytes\":64,\"sign_ms\":{\"p50\":"),
                report.toJson());
    }

    @Test
    void run_threeSensorsOverEmulatedEthernetWithEncryption_noneLostOrRejected() throws Exception {
        DemoReport report = DemoRunner.run(
                List.of(ed25519Set("ED25519-TEST-DOUBLE", dir.resolve("keys"))),
                new DemoRunner.Options(
                        dir,
                        45,
                        LinkProfile.ETHERNET,
                        3,
                        TransportSecurity.BASIC256SHA256_SIGN_AND_ENCRYPT,
                        1.0,
                        15,
                        0));
        System.out.print(report.toTable());
        DemoReport.SetResult r = report.sets().get(0);
        assertEquals(45, r.accepted());
        assertEquals(0, r.lost());
        assertEquals(0, r.rejectedGenuine());
        assertEquals(r.injectedTampered(), r.rejectedTampered());
        assertEquals(r.injectedReplayed(), r.rejectedReplayed());
        assertEquals(3, r.injectedTampered());
    }
}
