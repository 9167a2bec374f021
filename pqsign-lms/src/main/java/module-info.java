/**
 * LMS and HSS (RFC 8554, RFC 9858, NIST SP 800-208): parameter sets, keys, key states, the stateful
 * signer and the verifier.
 */
module dev.pqsign.lms {
    requires transitive dev.pqsign.core;
    requires org.bouncycastle.provider;

    exports dev.pqsign.lms;
    // LmsHashCounter: the bench report counts hash calls per operation.
    exports dev.pqsign.lms.internal to
            dev.pqsign.bench.report;
}
