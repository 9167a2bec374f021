package dev.pqsign.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Crash-safe replacement and creation of small files, for key state, replay-guard counters and
 * similar records whose loss or tearing would be a security problem.
 *
 * <p>A write goes to a fresh temporary file in the same directory ({@code .NAME.tmp-<16 hex>}),
 * which is fsynced and closed, then atomically renamed over (or, for a create, hard-linked as) the
 * target, and finally the directory is fsynced so that the new name itself survives a power loss.
 * When the method returns normally the new content is durable; when it throws, the target holds
 * either its old content or (only if the final directory sync failed, see
 * {@link WriteStep#mayHavePublished()}) the complete new content, never a mixture, and the temporary
 * file has been removed. There is no fallback to a non-atomic copy: a file system that cannot rename
 * atomically makes the write fail.
 *
 * <p>On POSIX file systems the written file always ends up with owner-only permissions
 * ({@code rw-------}), because the temporary file is created that way (it may hold secret seeds)
 * and the rename carries its mode over; change them afterwards if a written file is public. A
 * target that is a symbolic link is replaced by a regular file, not written through.
 *
 * <p>These methods take no locks. Two concurrent writers of the same file do not corrupt it (the
 * last rename wins, whole), but a read-modify-write needs mutual exclusion, which
 * {@link FileStateStore} provides.
 */
public final class DurableFiles {

    /** Marker between the target's name and the random suffix of a temporary file. */
    static final String TEMP_MARKER = ".tmp-";

    private static final int TEMP_SUFFIX_HEX_DIGITS = 16;
    private static final int TEMP_NAME_ATTEMPTS = 8;

    private DurableFiles() {}

    /**
     * Durably replaces (or creates) {@code target} with {@code data}.
     *
     * @param target the file to replace or create
     * @param data its new content
     * @throws DurableWriteException if a step of the write failed; it names the step
     * @throws IOException if the target's directory does not exist
     */
    public static void writeAtomically(Path target, byte[] data) throws IOException {
        write(target, data, FileOps.REAL, false);
    }

    /**
     * What a streamed write puts into the temporary file: the content is written piece by piece,
     * so a large file (a sensor's history) never has to be held in memory whole.
     */
    @FunctionalInterface
    public interface Content {
        /**
         * Writes the whole content to {@code out}, from its start.
         *
         * @param out the temporary file; do not close it
         * @throws IOException if the content cannot be produced or written; the write then fails
         *     and the target keeps its old content
         */
        void writeTo(WritableByteChannel out) throws IOException;
    }

    /**
     * Durably replaces (or creates) {@code target} with what {@code content} writes, by the same
     * steps as {@link #writeAtomically(Path, byte[])}.
     *
     * @param target the file to replace or create
     * @param content writes the new content into the temporary file
     * @throws DurableWriteException if a step of the write failed, writing the content included; it
     *     names the step
     * @throws IOException if the target's directory does not exist
     */
    public static void writeAtomically(Path target, Content content) throws IOException {
        write(target, content, FileOps.REAL, false);
    }

    /**
     * Durably creates {@code target} with {@code data}, failing if anything already exists under that
     * name. The check and the creation are one atomic step (a hard link of the fsynced temporary
     * file), so two racing creators cannot both succeed.
     *
     * @param target the file to create
     * @param data its content
     * @throws FileAlreadyExistsException if {@code target} exists; it is left unchanged
     * @throws DurableWriteException if a step of the write failed; it names the step
     */
    public static void createAtomically(Path target, byte[] data) throws IOException {
        write(target, data, FileOps.REAL, true);
    }

    /**
     * Checks that {@code target} could be written now, by creating and deleting a temporary file of
     * the form a write uses ({@code .NAME.tmp-<16 hex>}) in its directory. Callers that must not
     * waste something irreplaceable on a write that cannot succeed (an XMSS index burned for a
     * signature) call this first: a missing directory, missing permissions or a read-only file
     * system fail here, before anything was spent. A full disk can still fail the write itself.
     *
     * @param target the file a write is about to replace or create
     * @throws NoSuchFileException if the target's directory does not exist
     * @throws IOException if a file cannot be created in that directory
     */
    public static void probeWritable(Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(String.valueOf(dir), null, "directory does not exist");
        }
        Path probe = dir.resolve("." + abs.getFileName() + TEMP_MARKER + randomHex());
        FileOps.REAL.close(FileOps.REAL.openTemp(probe));
        Files.deleteIfExists(probe);
    }

    /**
     * Reads a whole file of at most {@code maxBytes} bytes. The size is checked before any buffer is
     * allocated, so a wrong or corrupted path cannot make the caller allocate gigabytes.
     *
     * @param file the file to read
     * @param maxBytes the largest size accepted
     * @return the file's content
     * @throws NoSuchFileException if the file does not exist (message names the file)
     * @throws NotRegularFileException if it is not a regular file (a FIFO, device, socket, directory,
     *     or a link to one), found before it is opened ({@link RegularFiles})
     * @throws IOException if the file is larger than {@code maxBytes} or changes size while read
     */
    public static byte[] readAll(Path file, int maxBytes) throws IOException {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative, got " + maxBytes);
        }
        try (FileChannel ch = RegularFiles.openForReading(file)) {
            long size = ch.size();
            if (size > maxBytes) {
                throw new IOException(file + " is " + size + " bytes, more than the limit of " + maxBytes
                        + " bytes; refusing to read it (wrong file or corrupted?)");
            }
            byte[] buf = new byte[(int) size];
            ByteBuffer bb = ByteBuffer.wrap(buf);
            try {
                while (bb.hasRemaining()) {
                    if (ch.read(bb) < 0) {
                        throw new IOException(
                                file + " shrank while being read: expected " + size + " bytes, got " + bb.position());
                    }
                }
                if (ch.read(ByteBuffer.allocate(1)) >= 0) {
                    throw new IOException(file + " grew while being read beyond " + size + " bytes");
                }
            } catch (IOException | RuntimeException e) {
                java.util.Arrays.fill(buf, (byte) 0);
                throw e;
            }
            return buf;
        }
    }

    /**
     * Deletes temporary files that an interrupted write of {@code target} left behind (names of the
     * exact form {@code .NAME.tmp-<16 hex digits>} in the target's directory; nothing else is
     * touched). Such files are never read as the target's content, so they are harmless, but they may
     * hold secret bytes.
     *
     * <p>Only call this while no other writer of {@code target} can be running (under the lock that
     * serializes the writers, or at start-up), or a live writer's temporary file may vanish and its
     * write fail.
     *
     * @param target the file whose leftover temporary files are deleted
     * @return the number of files deleted
     * @throws IOException if the directory cannot be listed or a file cannot be deleted
     */
    public static int deleteLeftoverTemps(Path target) throws IOException {
        int deleted = 0;
        for (Path p : leftoverTemps(target)) {
            if (Files.deleteIfExists(p)) {
                deleted++;
            }
        }
        return deleted;
    }

    /**
     * The temporary files that interrupted writes of {@code target} left behind: regular files (not
     * links) named exactly {@code .NAME.tmp-<16 hex digits>} in the target's directory. For callers
     * that must destroy their content before deleting them (a key state's copies hold its secret);
     * the same caution as for {@link #deleteLeftoverTemps} applies.
     *
     * @param target the file whose leftover temporary files are listed
     * @return the files, in no particular order
     * @throws IOException if the directory cannot be listed
     */
    public static List<Path> leftoverTemps(Path target) throws IOException {
        Path abs = target.toAbsolutePath();
        String prefix = "." + abs.getFileName() + TEMP_MARKER;
        List<Path> leftovers = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(
                abs.getParent(), p -> isTempName(p.getFileName().toString(), prefix))) {
            for (Path p : entries) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    leftovers.add(p);
                }
            }
        }
        return leftovers;
    }

    /**
     * fsyncs a directory, making renames, links and deletions inside it durable. (A no-op on
     * Windows, which cannot open directories as files.)
     *
     * @param dir the directory to fsync
     * @throws IOException if the directory cannot be opened or synced
     */
    public static void forceDirectory(Path dir) throws IOException {
        FileOps.REAL.forceDirectory(dir);
    }

    static boolean isTempName(String fileName, String prefix) {
        if (!fileName.startsWith(prefix) || fileName.length() != prefix.length() + TEMP_SUFFIX_HEX_DIGITS) {
            return false;
        }
        for (int i = prefix.length(); i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    static void write(Path target, byte[] data, FileOps ops, boolean createOnly) throws IOException {
        Objects.requireNonNull(data, "data");
        write(target, out -> out.write(ByteBuffer.wrap(data)), ops, createOnly);
    }

    static void write(Path target, Content content, FileOps ops, boolean createOnly) throws IOException {
        Objects.requireNonNull(content, "content");
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(String.valueOf(dir), null, "directory of " + abs + " does not exist");
        }
        String prefix = "." + abs.getFileName() + TEMP_MARKER;

        WriteStep step = WriteStep.OPEN_TEMP;
        Path temp = null;
        FileChannel ch = null;
        try {
            // A random name plus CREATE_NEW means we never write into a file someone else made.
            for (int attempt = 1; ; attempt++) {
                Path candidate = dir.resolve(prefix + randomHex());
                try {
                    ch = ops.openTemp(candidate);
                    temp = candidate;
                    break;
                } catch (FileAlreadyExistsException e) {
                    if (attempt == TEMP_NAME_ATTEMPTS) {
                        throw e;
                    }
                }
            }
            step = WriteStep.WRITE_TEMP;
            content.writeTo(new TempChannel(ops, ch));
            step = WriteStep.FORCE_TEMP;
            ops.force(ch);
            step = WriteStep.CLOSE_TEMP;
            FileChannel closing = ch;
            ch = null;
            ops.close(closing);
            if (createOnly) {
                step = WriteStep.LINK;
                ops.link(abs, temp);
                // The temporary name is now a second link to the target; dropping it is cleanup
                // only, so failing to delete it does not fail the write (deleteLeftoverTemps
                // removes it later).
                Path linked = temp;
                temp = null;
                deleteQuietly(linked, null);
            } else {
                step = WriteStep.RENAME;
                ops.moveAtomically(temp, abs);
                temp = null;
            }
            step = WriteStep.FORCE_DIRECTORY;
            ops.forceDirectory(dir);
        } catch (IOException e) {
            IOException thrown;
            if (step == WriteStep.LINK && e instanceof FileAlreadyExistsException) {
                thrown = new FileAlreadyExistsException(
                        abs.toString(), null, "already exists; refusing to overwrite it with a new file");
                thrown.initCause(e);
            } else {
                thrown = new DurableWriteException(step, abs, temp, createOnly, e);
            }
            cleanUp(ops, ch, temp, thrown);
            throw thrown;
        } catch (RuntimeException | Error e) {
            cleanUp(ops, ch, temp, e);
            throw e;
        }
    }

    /** The temporary file as a content sees it: every write goes through {@link FileOps#write}. */
    private static final class TempChannel implements WritableByteChannel {
        private final FileOps ops;
        private final FileChannel channel;

        TempChannel(FileOps ops, FileChannel channel) {
            this.ops = ops;
            this.channel = channel;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            ops.write(channel, src);
            return n;
        }

        @Override
        public boolean isOpen() {
            return channel.isOpen();
        }

        @Override
        public void close() {
            // the write closes the temporary file itself, after its fsync
        }
    }

    /** Closes and deletes a temporary file after a failure, recording problems as suppressed. */
    private static void cleanUp(FileOps ops, FileChannel ch, Path temp, Throwable failure) {
        if (ch != null) {
            try {
                ops.close(ch);
            } catch (IOException | RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
        if (temp != null) {
            deleteQuietly(temp, failure);
        }
    }

    private static void deleteQuietly(Path file, Throwable failure) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    private static String randomHex() {
        long r = ThreadLocalRandom.current().nextLong();
        String hex = Long.toHexString(r);
        return "0".repeat(TEMP_SUFFIX_HEX_DIGITS - hex.length()) + hex;
    }
}
