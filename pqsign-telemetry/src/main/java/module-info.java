/** Signed telemetry readings: formats, sensor signing, operator-side verification, replay and gap tracking. */
module dev.pqsign.telemetry {
    requires transitive dev.pqsign.core;
    requires transitive dev.pqsign.keys;
    requires transitive dev.pqsign.state;
    // VerdictJsonl hands out the JSON of a verdict as a Jackson node.
    requires transitive com.fasterxml.jackson.databind;
    requires java.logging;
    // ThreadCpu: the CPU time of signature checks (SignatureCost)
    requires java.management;

    exports dev.pqsign.telemetry;
    exports dev.pqsign.telemetry.operator;
    exports dev.pqsign.telemetry.upstream;
}
