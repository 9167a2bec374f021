/**
 * XMSS and XMSS^MT (RFC 8391, NIST SP 800-208): keys, key states, the stateful signer and the
 * verifier.
 */
module dev.pqsign.xmss {
    requires transitive dev.pqsign.core;
    requires org.bouncycastle.provider;

    exports dev.pqsign.xmss;
    // XmssHashCounter: the bench report counts hash calls per signature.
    exports dev.pqsign.xmss.internal to
            dev.pqsign.bench.report;
}
