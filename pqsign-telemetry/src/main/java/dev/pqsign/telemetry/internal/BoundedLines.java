package dev.pqsign.telemetry.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * The lines of a byte stream, split at {@code '\n'} (a {@code '\r'} before it is dropped), each
 * kept only up to a limit: a longer line is read on to its end and then reported as too long,
 * without ever being held whole, so one endless line cannot exhaust memory. Not thread-safe.
 */
public final class BoundedLines {
    private final InputStream in;
    private final int maxBytes;
    private final byte[] buffer = new byte[8192];
    private int pos;
    private int end;
    private byte[] line = new byte[256];
    private int length;
    private boolean tooLong;
    private long number;

    /**
     * Lines of {@code in}, which is read but not closed.
     *
     * @param in the stream
     * @param maxBytes the longest line kept, in bytes without its line end
     */
    public BoundedLines(InputStream in, int maxBytes) {
        this.in = Objects.requireNonNull(in, "in");
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * Reads the next line.
     *
     * @return false at the end of the stream (a last line without {@code '\n'} is a line)
     * @throws IOException if the stream cannot be read
     */
    public boolean next() throws IOException {
        length = 0;
        tooLong = false;
        boolean any = false;
        while (true) {
            if (pos == end) {
                int n = in.read(buffer);
                if (n < 0) {
                    if (!any) {
                        return false;
                    }
                    break;
                }
                pos = 0;
                end = n;
                continue;
            }
            any = true;
            int stop = pos;
            while (stop < end && buffer[stop] != '\n') {
                stop++;
            }
            keep(pos, stop - pos);
            boolean lineEnd = stop < end;
            pos = lineEnd ? stop + 1 : stop;
            if (lineEnd) {
                if (!tooLong && length > 0 && line[length - 1] == '\r') {
                    length--;
                }
                break;
            }
        }
        number++;
        return true;
    }

    private void keep(int from, int n) {
        if (tooLong || n == 0) {
            return;
        }
        // The '\r' of a "\r\n" ending may take the line one byte past the limit.
        if ((long) length + n > (long) maxBytes + 1) {
            tooLong = true;
            return;
        }
        if (length + n > line.length) {
            line = Arrays.copyOf(line, Math.min(maxBytes + 1, Math.max(line.length * 2, length + n)));
        }
        System.arraycopy(buffer, from, line, length, n);
        length += n;
    }

    /**
     * The line read last, without its line end.
     *
     * @return a copy of its bytes; null if it was {@linkplain #tooLong() too long}
     */
    public byte[] line() {
        if (tooLong || length > maxBytes) {
            return null;
        }
        return Arrays.copyOf(line, length);
    }

    /**
     * Whether the line read last was longer than the limit (its bytes are not kept).
     *
     * @return true if it was
     */
    public boolean tooLong() {
        return tooLong || length > maxBytes;
    }

    /**
     * The number of the line read last.
     *
     * @return from 1
     */
    public long number() {
        return number;
    }
}
