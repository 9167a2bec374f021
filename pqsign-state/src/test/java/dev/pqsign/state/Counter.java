package dev.pqsign.state;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** A tiny self-checking state format for tests: magic "CNT1" followed by a big-endian long. */
final class Counter {
    private static final byte[] MAGIC = {'C', 'N', 'T', '1'};
    static final int LENGTH = MAGIC.length + Long.BYTES;

    private Counter() {}

    static byte[] encode(long value) {
        return ByteBuffer.allocate(LENGTH).put(MAGIC).putLong(value).array();
    }

    static long decode(byte[] state) {
        if (state.length != LENGTH) {
            throw new IllegalArgumentException("counter state must be " + LENGTH + " bytes, got " + state.length);
        }
        if (!Arrays.equals(state, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new IllegalArgumentException("counter state has a wrong magic");
        }
        return ByteBuffer.wrap(state, MAGIC.length, Long.BYTES).getLong();
    }

    static byte[] increment(byte[] state) {
        return encode(decode(state) + 1);
    }
}
