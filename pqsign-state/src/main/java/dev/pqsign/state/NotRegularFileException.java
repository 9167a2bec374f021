package dev.pqsign.state;

import java.nio.file.FileSystemException;
import java.nio.file.Path;

/**
 * A file that was to be read is not a regular file (a directory, a named pipe, a socket, a device,
 * or a symbolic link to one of them), found by its type before it was opened. The message is one
 * line naming the file and what it is, e.g. {@code kd/handovers.pqhc: is a named pipe (FIFO), not a
 * regular file; refusing to open it}.
 */
public final class NotRegularFileException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    /** What the file is, e.g. {@code "a named pipe (FIFO)"}. */
    private final String kind;

    /**
     * Creates the exception.
     *
     * @param file the file that is not a regular file
     * @param kind what it is instead, e.g. {@code "a named pipe (FIFO)"} or {@code "a symbolic link to
     *     a socket"}
     */
    public NotRegularFileException(Path file, String kind) {
        super(String.valueOf(file), null, "is " + kind + ", not a regular file; refusing to open it");
        this.kind = kind;
    }

    /**
     * What the file is instead of a regular file.
     *
     * @return e.g. {@code "a directory"}, {@code "a named pipe (FIFO)"}, {@code "a socket"}, {@code "a
     *     character device"}, {@code "a block device"}, {@code "a symbolic link to a named pipe
     *     (FIFO)"}
     */
    public String kind() {
        return kind;
    }
}
