package dev.pqsign.telemetry.upstream;

/** How the sensor's session with its upstream server is secured, as {@link UpstreamUp} states it. */
public enum ChannelSecurity {
    /** No security: the values cross the network as they are. */
    NONE("None"),
    /** Security policy Basic256Sha256, messages signed. */
    SIGN("Basic256Sha256-Sign"),
    /** Security policy Basic256Sha256, messages signed and encrypted. */
    SIGN_AND_ENCRYPT("Basic256Sha256-SignAndEncrypt");

    private final String token;

    ChannelSecurity(String token) {
        this.token = token;
    }

    /**
     * The word in the text.
     *
     * @return {@code None}, {@code Basic256Sha256-Sign} or {@code Basic256Sha256-SignAndEncrypt}
     */
    public String token() {
        return token;
    }

    /**
     * The security a word names.
     *
     * @param token as {@link #token()} gives it
     * @return the security
     * @throws IllegalArgumentException for any other word
     */
    public static ChannelSecurity ofToken(String token) {
        for (ChannelSecurity s : values()) {
            if (s.token.equals(token)) {
                return s;
            }
        }
        throw new IllegalArgumentException("not a channel security: " + token);
    }
}
