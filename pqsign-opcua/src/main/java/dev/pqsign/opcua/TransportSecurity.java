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
    BASIC256SHA256_SIGN_AND_ENCRYPT;

    /**
     * The security a user names: {@code none}, or {@code sign-encrypt} (also {@code basic256sha256}),
     * in any case. The one parser of the command line, the sensors file and the demo.
     *
     * @param name the name
     * @return the security
     * @throws IllegalArgumentException naming the accepted values if {@code name} is neither
     */
    public static TransportSecurity named(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> NONE;
            case "sign-encrypt", "basic256sha256" -> BASIC256SHA256_SIGN_AND_ENCRYPT;
            default ->
                throw new IllegalArgumentException(
                        "must be none or sign-encrypt, got '" + dev.pqsign.telemetry.ReadingText.printable(name) + "'");
        };
    }
}
