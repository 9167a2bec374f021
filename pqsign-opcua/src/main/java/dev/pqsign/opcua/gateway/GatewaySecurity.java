package dev.pqsign.opcua.gateway;

import java.util.Locale;

/**
 * A security mode the gateway offers its clients (one endpoint each). This protects the channel to
 * the SCADA client; what the gateway serves was verified end to end by the operator.
 */
public enum GatewaySecurity {
    /** SecurityPolicy None (loopback or a protected network only). */
    NONE("none"),
    /** Basic256Sha256, mode Sign: messages signed, readable on the wire. */
    SIGN("sign"),
    /** Basic256Sha256, mode SignAndEncrypt. */
    SIGN_AND_ENCRYPT("sign-encrypt");

    private final String label;

    GatewaySecurity(String label) {
        this.label = label;
    }

    /**
     * The name on the command line.
     *
     * @return {@code none}, {@code sign} or {@code sign-encrypt}
     */
    public String label() {
        return label;
    }

    /**
     * The mode a command-line name stands for.
     *
     * @param label {@code none}, {@code sign} or {@code sign-encrypt}
     * @return the mode
     * @throws IllegalArgumentException for any other name
     */
    public static GatewaySecurity parse(String label) {
        for (GatewaySecurity s : values()) {
            if (s.label.equals(label.toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("security must be none, sign or sign-encrypt, got '" + label + "'");
    }
}
