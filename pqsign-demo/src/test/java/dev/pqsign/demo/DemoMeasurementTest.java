package dev.pqsign.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pqsign.haetae.HaetaeParameterSet;
import dev.pqsign.opcua.TransportSecurity;
import dev.pqsign.xmss.XmssParameterSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Long measurement runs (opt-in: {@code -Dpqsign.long=true}): the study's three XMSS^MT sets and
 * HAETAE-2/3/5 over loopback, emulated Ethernet and 5G, and the K-sensor throughput run. Prints
 * the tables and writes the JSON reports to {@code target/demo-*.json}. Timings are reported, not
 * asserted; correctness (all genuine accepted, all injected rejected, nothing lost) is asserted.
 *
 * <p>Properties: {@code pqsign.demo.dir} (data directory; put it on tmpfs to measure without disk
 * fsync cost), {@code pqsign.demo.readings} (default 300), {@code pqsign.demo.batch} (indices
 * reserved per durable write, default 1), {@code pqsign.demo.sensors} (default 10),
 * {@code pqsign.demo.throughput.readings} (default 5000), {@code pqsign.demo.publishing.ms}
 * (operator publishing interval of the throughput run, default 1), {@code pqsign.demo.links}
 * (default {@code loopback,ethernet,5g}).
 */
@EnabledIfSystemProperty(named = "pqsign.long", matches = "true")
class DemoMeasurementTest {

    private static Path dataDir(String name) throws Exception {
        String base = System.getProperty("pqsign.demo.dir");
        Path root = base == null ? Files.createTempDirectory("pqsign-demo") : Files.createDirectories(Path.of(base));
        return Files.createTempDirectory(root, name);
    }

    private static int prop(String name, int def) {
        return Integer.parseInt(System.getProperty(name, Integer.toString(def)));
    }

    private static List<DemoRunner.SchemeSetup> allSets(Path keys, int batch) {
        List<DemoRunner.SchemeSetup> sets = new ArrayList<>();
        for (XmssParameterSet p : List.of(
                XmssParameterSet.XMSSMT_SHA2_10_2_256,
                XmssParameterSet.XMSSMT_SHA2_20_4_256,
                XmssParameterSet.XMSSMT_SHA2_30_6_256)) {
            sets.add(RealSchemes.xmssMt(p, keys, batch));
        }
        for (HaetaeParameterSet p : HaetaeParameterSet.values()) {
            sets.add(RealSchemes.haetae(p, keys, batch));
        }
        return sets;
    }

    @Test
    void table_allSetsOverEachLink() throws Exception {
        int batch = prop("pqsign.demo.batch", 1);
        for (String link :
                System.getProperty("pqsign.demo.links", "loopback,ethernet,5g").split(",")) {
            LinkProfile profile = LinkProfile.named(link);
            int n = profile.equals(LinkProfile.FIVE_G)
                    ? Math.min(100, prop("pqsign.demo.readings", 300))
                    : prop("pqsign.demo.readings", 300);
            Path dir = dataDir("table-" + link);
            DemoReport report = DemoRunner.run(
                    allSets(dir.resolve("keys"), batch),
                    new DemoRunner.Options(dir, n, profile, 1, TransportSecurity.NONE, 1.0, 20, 20));
            System.out.println("== link " + link + ", " + n + " readings per set, batch " + batch + ", data " + dir);
            System.out.print(report.toTable());
            Files.writeString(Path.of("target", "demo-" + link + ".json"), report.toJsonWithThroughput());
            for (DemoReport.SetResult r : report.sets()) {
                assertEquals(n, r.accepted(), r.name());
                assertEquals(r.injectedTampered(), r.rejectedTampered(), r.name());
                assertEquals(r.injectedReplayed(), r.rejectedReplayed(), r.name());
            }
        }
    }

    @Test
    void throughput_tenSensorsSmallestXmssMt_noneLostOrRejected() throws Exception {
        int k = prop("pqsign.demo.sensors", 10);
        int n = prop("pqsign.demo.throughput.readings", 5000);
        Path dir = dataDir("throughput");
        DemoReport report = DemoRunner.run(
                List.of(RealSchemes.xmssMt(
                        XmssParameterSet.XMSSMT_SHA2_10_2_256, dir.resolve("keys"), prop("pqsign.demo.batch", 1))),
                new DemoRunner.Options(
                        dir,
                        n,
                        LinkProfile.LOOPBACK,
                        k,
                        TransportSecurity.NONE,
                        Double.parseDouble(System.getProperty("pqsign.demo.publishing.ms", "1")),
                        0,
                        20));
        System.out.println("== throughput, " + k + " sensors, " + n + " readings, data " + dir);
        System.out.print(report.toTable());
        Files.writeString(Path.of("target", "demo-throughput.json"), report.toJsonWithThroughput());
        DemoReport.SetResult r = report.sets().get(0);
        assertEquals(n, r.accepted());
        assertEquals(0, r.lost());
        assertEquals(0, r.rejectedGenuine());
    }
}
