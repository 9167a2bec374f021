/**
 * Keys over their lifetime: key files and scheme detection, key handover statements, the key chains
 * operators follow, sensor key directories with rollover.
 */
module dev.pqsign.keys {
    requires transitive dev.pqsign.core;
    requires transitive dev.pqsign.haetae;
    requires transitive dev.pqsign.lms;
    requires transitive dev.pqsign.state;
    requires transitive dev.pqsign.x509;
    requires transitive dev.pqsign.xmss;

    exports dev.pqsign.keys;
}
