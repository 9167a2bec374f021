package dev.pqsign.telemetry;

import java.io.IOException;

/** Where the sensor's reading texts come from (simulated sensor, stdin, file, named pipe). */
public interface ReadingSource extends AutoCloseable {

    /**
     * Returns the next reading text, blocking until one is due or available.
     *
     * @return the text, or {@code null} when the source is exhausted
     * @throws IOException if the underlying stream cannot be read
     * @throws InterruptedException if interrupted while waiting for the next reading
     */
    String next() throws IOException, InterruptedException;

    /** Releases the underlying stream, if any. */
    @Override
    default void close() throws IOException {}
}
