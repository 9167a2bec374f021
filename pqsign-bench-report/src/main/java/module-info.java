/** The benchmark report of `pqsign bench`: measurements without JMH, JSON / Markdown / SVG output. */
module dev.pqsign.bench.report {
    requires dev.pqsign.demo;
    requires dev.pqsign.haetae;
    requires dev.pqsign.lms;
    requires dev.pqsign.state;
    requires dev.pqsign.testing;
    requires dev.pqsign.xmss;
    requires java.management;
    requires jdk.management;
    requires jol.core;
    requires org.bouncycastle.provider;

    exports dev.pqsign.bench.report;

    // keeps the HAETAE engines' work areas for the working-set rows (WorkingSets)
    provides dev.pqsign.haetae.HaetaeWorkAreaProbe with
            dev.pqsign.bench.report.haetae.WorkAreaRecorder;
}
