/**
 * RFC 9802 certificates for XMSS / XMSS^MT, HSS / LMS (RFC 9708) and HAETAE keys, PEM, chain
 * verification and a JCA provider.
 */
module dev.pqsign.x509 {
    requires transitive dev.pqsign.core;
    requires transitive dev.pqsign.haetae;
    requires transitive dev.pqsign.xmss;
    requires transitive dev.pqsign.lms;
    requires transitive org.bouncycastle.provider;
    requires transitive org.bouncycastle.pkix;

    exports dev.pqsign.x509;
    exports dev.pqsign.x509.jca;
}
