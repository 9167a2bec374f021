package dev.pqsign.xmss;

import java.util.Locale;
import java.util.Optional;

/** How WOTS+ secret keys are derived from SK_SEED. The choice is part of the private key. */
public enum WotsDerivation {
    /**
     * NIST SP 800-208 section 7.2.1: sk[i] = PRF_keygen(SK_SEED, PUB_SEED || ADRS) with the chain
     * address set to i. The default, and what the XMSS reference implementation does today.
     */
    SP800_208("sp800-208", 1),
    /**
     * RFC 8391 as first published: S = PRF(SK_SEED, ADRS), sk[i] = PRF(S, toByte(i, 32)). BouncyCastle
     * 1.87 and older keys use it; public keys and signatures verify the same either way.
     */
    RFC8391("rfc8391", 2);

    private final String cliName;
    private final int code;

    WotsDerivation(String cliName, int code) {
        this.cliName = cliName;
        this.code = code;
    }

    /**
     * The name used on the command line.
     *
     * @return {@code sp800-208} or {@code rfc8391}
     */
    public String cliName() {
        return cliName;
    }

    /** The byte stored in the private key file. */
    int code() {
        return code;
    }

    static Optional<WotsDerivation> byCode(int code) {
        for (WotsDerivation d : values()) {
            if (d.code == code) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /**
     * Parses {@code sp800-208} / {@code rfc8391} (case-insensitive, surrounding whitespace ignored).
     *
     * @param name the command-line name
     * @return the derivation, or empty for any other name
     */
    public static Optional<WotsDerivation> byCliName(String name) {
        String s = name.trim().toLowerCase(Locale.ROOT);
        for (WotsDerivation d : values()) {
            if (d.cliName.equals(s)) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }
}
