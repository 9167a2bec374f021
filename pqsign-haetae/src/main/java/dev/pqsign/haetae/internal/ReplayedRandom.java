package dev.pqsign.haetae.internal;

import java.security.SecureRandom;

/**
 * A {@code SecureRandom} that hands out one given byte string once, then refuses: the signing
 * randomness of a known-answer record, passed to the public signer. Never a source of real randomness.
 */
final class ReplayedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] bytes;
    private int pos;

    ReplayedRandom(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    @Override
    public void nextBytes(byte[] out) {
        if (out.length > bytes.length - pos) {
            throw new IllegalStateException(
                    "replayed randomness exhausted: " + out.length + " bytes asked, " + (bytes.length - pos) + " left");
        }
        System.arraycopy(bytes, pos, out, 0, out.length);
        pos += out.length;
    }
}
