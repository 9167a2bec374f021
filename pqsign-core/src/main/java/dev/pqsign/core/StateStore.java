package dev.pqsign.core;

import java.io.IOException;

/**
 * Durable storage for the small private state of a stateful key (SPI).
 *
 * <p>Every method that touches the stored bytes holds an exclusive lock that excludes other threads
 * of this process and other processes for its duration, so a read-modify-write through
 * {@link #update} is atomic across processes. A write does not return before the new bytes are
 * durable (on a file system: temporary file, fsync, atomic rename over the old file, fsync of the
 * directory). A failed write leaves either the old or the new state in place, never a mixture, and
 * is reported as an {@link IOException}; implementations never fall back to a non-atomic replace.
 */
public interface StateStore extends AutoCloseable {

    /**
     * Reads the current state under the lock.
     *
     * @return the stored bytes
     * @throws IOException if no state exists, the lock is not obtained or the read fails
     */
    byte[] read() throws IOException;

    /**
     * Atomically transforms the state: lock, read, {@code fn.apply(current)}, durable write of the
     * result, unlock. If {@code fn} throws, nothing is written and the exception propagates.
     *
     * @param fn computes the new state from the current one
     * @return the bytes that were written
     * @throws IOException if no state exists, the lock is not obtained, the read or the durable write
     *     fails, or {@code fn} throws it
     */
    byte[] update(StateUpdate fn) throws IOException;

    /**
     * Durably writes the first state of a new key. Fails if a state already exists, so a key is never
     * overwritten by a fresh one by accident.
     *
     * @param initial the new key's encoded state
     * @throws IOException if a state already exists, the lock is not obtained or the durable write fails
     */
    void create(byte[] initial) throws IOException;

    /**
     * A human-readable location (file path) for error messages; never secret.
     *
     * @return the store's location
     */
    String describe();

    /** Releases locks and handles. */
    @Override
    void close() throws IOException;

    /** A state transformation run under the store's lock. */
    @FunctionalInterface
    interface StateUpdate {
        /**
         * Computes the new state.
         *
         * @param current the stored state
         * @return the state to write durably
         * @throws IOException to abort the update; nothing is written
         */
        byte[] apply(byte[] current) throws IOException;
    }
}
