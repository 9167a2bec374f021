package dev.pqsign.haetae;

import java.security.SecureRandom;

/** A SecureRandom that replays given bytes: deterministic inputs for cross-implementation tests. */
final class FixedRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;
    private final byte[] data;
    private int pos;

    FixedRandom(byte[]... chunks) {
        int n = 0;
        for (byte[] c : chunks) {
            n += c.length;
        }
        data = new byte[n];
        int o = 0;
        for (byte[] c : chunks) {
            System.arraycopy(c, 0, data, o, c.length);
            o += c.length;
        }
    }

    @Override
    public void nextBytes(byte[] out) {
        if (pos + out.length > data.length) {
            throw new IllegalStateException("FixedRandom exhausted");
        }
        System.arraycopy(data, pos, out, 0, out.length);
        pos += out.length;
    }
}
