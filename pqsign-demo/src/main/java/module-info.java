/** The demo: sensors and an operator per set over an emulated link, with fault injection and a report. */
module dev.pqsign.demo {
    requires transitive dev.pqsign.opcua;
    requires dev.pqsign.keys;
    requires java.management;
    requires jdk.management;

    exports dev.pqsign.demo;
}
