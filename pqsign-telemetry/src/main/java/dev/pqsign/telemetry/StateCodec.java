package dev.pqsign.telemetry;

import dev.pqsign.core.StateStore;
import java.io.IOException;
import java.nio.file.NoSuchFileException;

/** Helpers shared by the small persisted states of this module. */
final class StateCodec {
    private StateCodec() {}

    /**
     * Reads the store, creating it with {@code initial} if it holds no state yet. A missing file
     * ({@link NoSuchFileException}) and an empty state both count as "no state yet".
     */
    static byte[] readOrCreate(StateStore store, byte[] initial) throws IOException {
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

    static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xff);
        }
        return v;
    }
}
