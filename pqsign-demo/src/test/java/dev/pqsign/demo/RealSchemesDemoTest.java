package dev.pqsign.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.xmss.XmssParameterSet;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo with the real XMSS^MT and HAETAE signers over real OPC UA on loopback. */
class RealSchemesDemoTest {

    @TempDir
    Path dir;

    @Test
    void run_xmssMtAndHaetae_allGenuineAcceptedAllInjectedRejected() throws Exception {
        DemoReport report = DemoRunner.run(
                List.of(
                        RealSchemes.xmssMt(XmssParameterSet.XMSSMT_SHA2_10_2_256, dir.resolve("keys"), 1),
                        RealSchemes.haetae(HaetaeParameterSet.HAETAE_2, dir.resolve("keys"), 1)),
                new DemoRunner.Options(dir, 40, LinkProfile.LOOPBACK, 1, TransportSecurity.NONE, 1.0, 20, 5));
        System.out.print(report.toTable());
        System.out.println(report.toJson());
        for (DemoReport.SetResult r : report.sets()) {
            assertEquals(40, r.accepted(), r.name());
            assertEquals(0, r.lost(), r.name());
            assertEquals(2, r.injectedTampered(), r.name());
            assertEquals(2, r.rejectedTampered(), r.name());
            assertEquals(2, r.injectedReplayed(), r.name());
            assertEquals(2, r.rejectedReplayed(), r.name());
        }
        assertEquals(4642, report.sets().get(0).signatureBytes());
        assertEquals(
                HaetaeParameterSet.HAETAE_2.signatureBytes(),
                report.sets().get(1).signatureBytes());
    }

    @Test
    void run_moreReadingsThanTheXmssMtKeyHolds_refusedBeforeStarting() {
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.io.IOException.class,
                () -> DemoRunner.run(
                        List.of(RealSchemes.xmssMt(XmssParameterSet.XMSSMT_SHA2_10_2_256, dir.resolve("keys"), 1)),
                        new DemoRunner.Options(
                                dir, 1100, LinkProfile.LOOPBACK, 1, TransportSecurity.NONE, 1.0, 20, 5)));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("1024 signatures left"), e.getMessage());
    }
}
