package dev.pqsign.state;

import java.io.IOException;

/**
 * The lock of a state file could not be obtained within the store's timeout: another process (or
 * another thread of this process) is using the same key. Nothing was read or written. Retrying later
 * is safe; running two signers on one key at the same time is not what the lock is for.
 */
public final class StateLockTimeoutException extends IOException {
    private static final long serialVersionUID = 1L;

    StateLockTimeoutException(String message) {
        super(message);
    }
}
