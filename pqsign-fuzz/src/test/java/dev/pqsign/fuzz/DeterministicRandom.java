package dev.pqsign.fuzz;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * A byte stream SHA-256(label || counter) posing as a {@link SecureRandom}, so that the keys,
 * signatures and certificates of the seed corpus come out the same on every run. Never for real keys.
 */
final class DeterministicRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] label;
    private long counter;
    private byte[] block = new byte[0];
    private int pos;

    DeterministicRandom(String label) {
        this.label = label.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code n} bytes of the stream named {@code label}. */
    static byte[] bytes(String label, int n) {
        byte[] out = new byte[n];
        new DeterministicRandom(label).nextBytes(out);
        return out;
    }

    @Override
    public synchronized void nextBytes(byte[] out) {
        for (int i = 0; i < out.length; i++) {
            if (pos == block.length) {
                block = next();
                pos = 0;
            }
            out[i] = block[pos++];
        }
    }

    private byte[] next() {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(label);
            for (int i = 7; i >= 0; i--) {
                d.update((byte) (counter >>> (8 * i)));
            }
            counter++;
            return d.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
