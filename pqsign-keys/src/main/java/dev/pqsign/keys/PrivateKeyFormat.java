package dev.pqsign.keys;

import dev.pqsign.lms.HssKeyState;
import dev.pqsign.xmss.XmssKeyState;
import java.util.Optional;

/**
 * The formats a pqsign private key file has, told apart by their magic; {@link PrivateKeys} reads
 * and opens the files.
 */
public enum PrivateKeyFormat {
    /** An XMSS / XMSS^MT key state ({@code key.state}, docs/formats/xmss-state.md). */
    XMSS_KEY_STATE,
    /** An LMS / HSS key state ({@code key.state}, docs/formats/hss-state.md). */
    HSS_KEY_STATE,
    /** A HAETAE private key ({@code key.sk}, {@link HaetaeKeyFile}). */
    HAETAE_KEY_FILE;

    /**
     * Whether files of this format are key states of a stateful scheme, whose every signature
     * burns an index ({@link PrivateKeys#open} opens them with a stateful signer).
     *
     * @return true for the XMSS and the HSS key state, false for a HAETAE key
     */
    public boolean isKeyState() {
        return this != HAETAE_KEY_FILE;
    }

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
