/** The {@code pqsign} command line. Not a library: it exports nothing. */
module dev.pqsign.cli {
    requires dev.pqsign.bench.report;
    requires dev.pqsign.console;
    requires dev.pqsign.demo;
    requires dev.pqsign.keys;
    requires dev.pqsign.opcua;
    requires com.fasterxml.jackson.databind;
    requires info.picocli;
    requires java.logging;
    requires org.bouncycastle.provider;

    // picocli reads the commands' annotated fields and methods reflectively.
    opens dev.pqsign.cli to
            info.picocli;
}
