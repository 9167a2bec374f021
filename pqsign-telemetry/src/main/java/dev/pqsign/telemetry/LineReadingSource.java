package dev.pqsign.telemetry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads one reading per line from a stream: standard input, a file or a named pipe (opened like a
 * file; {@link #next()} blocks until the writer sends a line). Blank lines are skipped; lines longer
 * than {@link ReadingMessage#MAX_READING_BYTES} UTF-8 bytes and lines that are not valid UTF-8 are
 * skipped and counted, so a misbehaving producer cannot stop the sensor.
 */
public final class LineReadingSource implements ReadingSource {

    private final BufferedReader reader;
    private long skipped;

    /**
     * Reads from {@code in}, which is closed by {@link #close()}.
     *
     * @param in UTF-8 text, one reading per line
     */
    public LineReadingSource(InputStream in) {
        this.reader = new BufferedReader(new InputStreamReader(
                in,
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPLACE)
                        .onUnmappableCharacter(CodingErrorAction.REPLACE)));
    }

    /**
     * Opens a file or named pipe.
     *
     * @param path the file or named pipe
     * @return the source, reading from the start of the file
     * @throws IOException if the file cannot be opened
     */
    public static LineReadingSource open(Path path) throws IOException {
        return new LineReadingSource(Files.newInputStream(path));
    }

    @Override
    public String next() throws IOException {
        while (true) {
            String line = readBoundedLine();
            if (line == null) {
                return null;
            }
            String s = line.strip();
            if (s.isEmpty()) {
                continue;
            }
            if (s.indexOf('\uFFFD') >= 0
                    || s.getBytes(StandardCharsets.UTF_8).length > ReadingMessage.MAX_READING_BYTES) {
                skipped++;
                continue;
            }
            return s;
        }
    }

    /** Reads a line but never buffers more than the limit, so an endless line cannot exhaust memory. */
    private String readBoundedLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        boolean tooLong = false;
        int c;
        while ((c = reader.read()) >= 0) {
            if (c == '\n') {
                break;
            }
            if (sb.length() <= ReadingMessage.MAX_READING_BYTES) {
                sb.append((char) c);
            } else {
                tooLong = true;
            }
        }
        if (c < 0 && sb.length() == 0 && !tooLong) {
            return null;
        }
        if (tooLong) {
            skipped++;
            return "";
        }
        return sb.toString();
    }

    /**
     * Number of lines skipped because they were too long or not UTF-8.
     *
     * @return the count so far
     */
    public long skipped() {
        return skipped;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
