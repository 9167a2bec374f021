package dev.pqsign.core;

import java.io.IOException;

/**
 * Durable storage for the small private state of a stateful key (SPI).
 *
 * <p>{@link #write} must not return before the new bytes are durable (on a file system: written to a
 * temporary file, fsynced, atomically renamed over the old file, and the directory fsynced). A failed
 * write must leave either the old or the new state in place, never a mixture. Implementations that
 * hold an OS lock guarantee that only one process writes at a time.
 */
public interface StateStore extends AutoCloseable {

    /** Reads the current state. */
    byte[] read() throws IOException;

    /** Durably replaces the state with {@code state}. */
    void write(byte[] state) throws IOException;

    /** A human-readable location (file path) for error messages; never secret. */
    String describe();

    /** Releases locks and handles. */
    @Override
    void close() throws IOException;
}
