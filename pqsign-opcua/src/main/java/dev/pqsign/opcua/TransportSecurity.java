package dev.pqsign.opcua;

/**
 * OPC UA transport security of the sensor ↔ operator channel. This protects the channel only;
 * readings are authenticated end to end by their post-quantum signatures in either mode.
 */
public enum TransportSecurity {
    /** No channel security (SecurityPolicy None). Readings are still signed. */
    NONE,
    /**
     * SecurityPolicy Basic256Sha256, mode SignAndEncrypt, with RSA application certificates that
     * both sides must find in their explicit trust lists.
     */
    BASIC256SHA256_SIGN_AND_ENCRYPT
}
