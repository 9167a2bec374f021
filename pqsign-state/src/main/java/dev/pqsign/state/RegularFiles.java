package dev.pqsign.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Opens a file for reading only if it is a regular file, found by its type before it is opened.
 *
 * <p>Why: opening a named pipe (FIFO) for reading blocks until a writer opens it, that is forever
 * if nobody does, and a device such as {@code /dev/zero} never ends. A key directory, a sensor's or
 * an operator's data directory whose file was replaced by one (by mistake, or by someone who wants
 * the program stuck) must make the program fail with one line, not hang. The type is read without
 * following a symbolic link first; a link is followed to its target, which must be a regular file
 * too (so {@code key.pub -> ../pinned/key.pub} still works).
 *
 * <p>The remaining window: a regular file swapped for a FIFO between the check and the open can
 * still block the open (one system call; Java has no {@code O_NONBLOCK} open of a file).
 */
public final class RegularFiles {
    /** {@code S_IFMT} and the file types of POSIX {@code st_mode}. */
    private static final int TYPE_MASK = 0170000;

    private static final int FIFO = 0010000;
    private static final int CHARACTER_DEVICE = 0020000;
    private static final int DIRECTORY = 0040000;
    private static final int BLOCK_DEVICE = 0060000;
    private static final int SOCKET = 0140000;

    private RegularFiles() {}

    /**
     * Opens {@code file} for reading if it is a regular file or a symbolic link to one.
     *
     * @param file the file to open
     * @return a channel reading the file from its start; the caller closes it
     * @throws NotRegularFileException if it is a directory, FIFO, socket, device, or a link to one
     *     (nothing was opened)
     * @throws NoSuchFileException if it (or a link's target) does not exist; the message is
     *     {@code FILE: file does not exist}
     * @throws IOException if its type cannot be read or it cannot be opened
     */
    public static FileChannel openForReading(Path file) throws IOException {
        requireRegular(file);
        return FileChannel.open(file, StandardOpenOption.READ);
    }

    /**
     * Checks, without opening it, that {@code file} is a regular file or a symbolic link to one.
     *
     * @param file the file to check
     * @throws NotRegularFileException if it is a directory, FIFO, socket, device, or a link to one
     * @throws NoSuchFileException if it (or a link's target) does not exist; the message is
     *     {@code FILE: file does not exist}
     * @throws IOException if its type cannot be read
     */
    public static void requireRegular(Path file) throws IOException {
        BasicFileAttributes own = attributes(file, LinkOption.NOFOLLOW_LINKS);
        if (own.isRegularFile()) {
            return;
        }
        if (!own.isSymbolicLink()) {
            throw new NotRegularFileException(file, kind(file, own, LinkOption.NOFOLLOW_LINKS));
        }
        BasicFileAttributes target = attributes(file);
        if (!target.isRegularFile()) {
            throw new NotRegularFileException(file, "a symbolic link to " + kind(file, target));
        }
    }

    private static BasicFileAttributes attributes(Path file, LinkOption... options) throws IOException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, options);
        } catch (NoSuchFileException e) {
            NoSuchFileException clear = new NoSuchFileException(file.toString(), null, "file does not exist");
            clear.initCause(e);
            throw clear;
        }
    }

    /** What a file that is not a regular file is, by its POSIX mode where the platform has one. */
    private static String kind(Path file, BasicFileAttributes a, LinkOption... options) {
        if (a.isDirectory()) {
            return "a directory";
        }
        Object mode;
        try {
            mode = Files.getAttribute(file, "unix:mode", options);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            mode = null; // no unix view (Windows): the basic attributes say "other"
        }
        if (mode instanceof Integer m) {
            switch (m & TYPE_MASK) {
                case FIFO:
                    return "a named pipe (FIFO)";
                case SOCKET:
                    return "a socket";
                case CHARACTER_DEVICE:
                    return "a character device";
                case BLOCK_DEVICE:
                    return "a block device";
                case DIRECTORY:
                    return "a directory";
                default:
                    break;
            }
        }
        return "a special file (device, FIFO or socket)";
    }
}
