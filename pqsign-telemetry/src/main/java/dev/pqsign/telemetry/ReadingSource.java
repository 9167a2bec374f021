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

    /**
     * Whether this source is a part of the sensor itself, whose texts are the sensor's own
     * statements and may therefore start with the reserved prefix {@code pqsign:} (the OPC UA
     * upstream source's {@code pqsign:upstream …} facts). A source of texts from outside the sensor
     * (a pipe, a file, standard input) says no, and the sensor refuses its texts with that prefix,
     * so that nobody who can write to the sensor's input can make it sign such a statement.
     *
     * @return false unless the source makes its texts itself
     */
    default boolean sensorStatements() {
        return false;
    }

    /** Releases the underlying stream, if any. */
    @Override
    default void close() throws IOException {}
}
