package dev.pqsign.telemetry;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads one reading per line from a stream: standard input, a file or a named pipe (opened like a
 * file; {@link #next()} blocks until the writer sends a line). Blank lines are skipped; lines longer
 * than {@link ReadingMessage#MAX_READING_BYTES} UTF-8 bytes and lines that are not valid UTF-8 are
 * skipped and counted, so a misbehaving producer cannot stop the sensor.
 */
public final class LineReadingSource implements ReadingSource {

    private final BufferedReader reader;
    /** What {@link #close()} closes: the channel or stream under the reader, never the reader itself. */
    private final Closeable underlying;

    private long skipped;

    /**
     * Reads from {@code in}, which is closed by {@link #close()}.
     *
     * @param in UTF-8 text, one reading per line
     */
    public LineReadingSource(InputStream in) {
        this(in, in);
    }

    private LineReadingSource(InputStream in, Closeable underlying) {
        this.underlying = underlying;
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
        FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        return new LineReadingSource(Channels.newInputStream(channel), channel);
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

    /**
     * Closes the file, pipe or stream. May be called from another thread while {@link #next()} waits
     * for a line, and returns at once: for a source {@linkplain #open opened} from a path the waiting
     * {@code next()} then ends with an {@link IOException} ({@code AsynchronousCloseException});
     * a stream's waiting read ends as that stream's close makes it. (Closing the reader instead
     * would wait for the lock that the waiting read holds, for as long as a pipe's writer stays
     * silent.)
     *
     * @throws IOException if the channel or stream cannot be closed
     */
    @Override
    public void close() throws IOException {
        underlying.close();
    }
}
