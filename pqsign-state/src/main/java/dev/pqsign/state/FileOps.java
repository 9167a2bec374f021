package dev.pqsign.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The individual file-system calls of a durable write. Production code uses {@link #REAL}; tests
 * substitute an implementation that fails a chosen step, which is the only practical way to check
 * the cleanup path after, say, a failed fsync.
 */
interface FileOps {

    /** Creates {@code temp}, failing if anything already exists under that name. */
    FileChannel openTemp(Path temp) throws IOException;

    /** Writes all remaining bytes of {@code src} at the channel's position. */
    void write(FileChannel channel, ByteBuffer src) throws IOException;

    /** Flushes file data and metadata to the device. */
    void force(FileChannel channel) throws IOException;

    void close(FileChannel channel) throws IOException;

    /** Atomically renames {@code source} over {@code target}; never a copy-and-delete. */
    void moveAtomically(Path source, Path target) throws IOException;

    /** Creates {@code link} as a new name of {@code existing}; fails if {@code link} exists. */
    void link(Path link, Path existing) throws IOException;

    /** Flushes the directory entry table of {@code dir} to the device. */
    void forceDirectory(Path dir) throws IOException;

    boolean WINDOWS = System.getProperty("os.name", "").startsWith("Windows");

    boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    FileAttribute<Set<PosixFilePermission>> OWNER_ONLY = PosixFilePermissions.asFileAttribute(
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));

    FileOps REAL = new FileOps() {
        @Override
        public FileChannel openTemp(Path temp) throws IOException {
            Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            if (POSIX) {
                // State files hold secret seeds: never let them exist, even briefly, with the
                // umask's usual group/other read bits. The rename carries these bits over.
                return FileChannel.open(temp, options, OWNER_ONLY);
            }
            return FileChannel.open(temp, options);
        }

        @Override
        public void write(FileChannel channel, ByteBuffer src) throws IOException {
            while (src.hasRemaining()) {
                channel.write(src);
            }
        }

        @Override
        public void force(FileChannel channel) throws IOException {
            channel.force(true);
        }

        @Override
        public void close(FileChannel channel) throws IOException {
            channel.close();
        }

        @Override
        public void moveAtomically(Path source, Path target) throws IOException {
            // With ATOMIC_MOVE the JDK issues a single rename(2) on Unix (replacing the target) and
            // MoveFileEx(REPLACE_EXISTING) on Windows; it throws AtomicMoveNotSupportedException
            // instead of silently copying, which is exactly the fail-closed behaviour we need.
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }

        @Override
        public void link(Path link, Path existing) throws IOException {
            Files.createLink(link, existing);
        }

        @Override
        public void forceDirectory(Path dir) throws IOException {
            if (WINDOWS) {
                // Windows cannot open a directory as a FileChannel; NTFS journals the rename's
                // metadata itself. Documented in docs/state-durability.md as a weaker guarantee.
                return;
            }
            try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
                ch.force(true);
            }
        }
    };
}
