package dev.pqsign.keys;

import dev.pqsign.lms.HssKeyState;
import dev.pqsign.xmss.XmssKeyState;
import java.util.Optional;

/** The formats a pqsign private key file has, told apart by their magic. */
public enum PrivateKeyFormat {
    /** An XMSS / XMSS^MT key state ({@code key.state}, docs/formats/xmss-state.md). */
    XMSS_KEY_STATE,
    /** An LMS / HSS key state ({@code key.state}, docs/formats/hss-state.md). */
    HSS_KEY_STATE,
    /** A HAETAE private key ({@code key.sk}, {@link HaetaeKeyFile}). */
    HAETAE_KEY_FILE;

    /**
     * The format whose magic {@code head} (the file's first bytes, at least four) starts with, if any.
     *
     * @param head the file's first bytes
     * @return the format, or empty if no magic matches (also for fewer than four bytes)
     */
    public static Optional<PrivateKeyFormat> of(byte[] head) {
        if (head.length < 4) {
            return Optional.empty();
        }
        if (XmssKeyState.hasMagic(head)) {
            return Optional.of(XMSS_KEY_STATE);
        }
        if (HssKeyState.hasMagic(head)) {
            return Optional.of(HSS_KEY_STATE);
        }
        if (HaetaeKeyFile.hasMagic(head)) {
            return Optional.of(HAETAE_KEY_FILE);
        }
        return Optional.empty();
    }
}
