package dev.pqsign.telemetry.internal;

import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** Helpers shared by the small persisted states of this module: big-endian longs, CRC-32C, create-if-empty. */
public final class StateCodec {
    private StateCodec() {}

    /**
     * Reads the store, creating it with {@code initial} if it holds no state yet. A missing file
     * ({@link NoSuchFileException}) and an empty state both count as "no state yet".
     */
    public static byte[] readOrCreate(StateStore store, byte[] initial) throws IOException {
        byte[] current;
        try {
            current = store.read();
        } catch (NoSuchFileException e) {
            current = null;
        }
        if (current == null || current.length == 0) {
            try {
                store.create(initial);
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another process created it between our read and create: use its state
            }
            return store.read();
        }
        return current;
    }

    /** Writes {@code v} big-endian at {@code off}. */
    public static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    /** Reads a big-endian long at {@code off}. */
    public static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }

    /** The CRC-32C (Castagnoli) of {@code len} bytes of {@code b} from {@code off}, as an int. */
    public static int crc32c(byte[] b, int off, int len) {
        java.util.zip.CRC32C c = new java.util.zip.CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }
}
