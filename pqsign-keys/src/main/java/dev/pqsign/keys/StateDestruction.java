package dev.pqsign.keys;

import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Destroys a key's secret state on disk: a retired generation's, or one a failed or interrupted
 * creation left behind (docs/key-directory.md, {@link RolloverStep#RETIRED_KEY_DESTROYED}).
 */
final class StateDestruction {
    private StateDestruction() {}

    /**
     * Overwrites a secret file and the temporary copies interrupted writes left of it with zeros,
     * fsyncs them, removes them and its lock file, and fsyncs its directory if anything was removed.
     */
    static void destroy(Path file) throws IOException {
        // Besides the state, a SIGKILL can leave a temporary copy of it (a write of its signer:
        // reserving indices ahead, or returning them on close, after the handover) and, between the
        // deletions below, the lock file alone. Each is destroyed even when the state is already
        // gone: a copy holds the secret, and compaction takes only a directory of known files.
        if (!Files.isDirectory(file.getParent(), LinkOption.NOFOLLOW_LINKS)) {
            return; // e.g. a temporary directory already renamed into place
        }
        List<Path> copies = new ArrayList<>();
        if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            copies.add(file);
        }
        copies.addAll(DurableFiles.leftoverTemps(file));
        boolean removed = false;
        for (Path copy : copies) {
            wipe(copy);
            removed |= Files.deleteIfExists(copy);
        }
        removed |= Files.deleteIfExists(file.resolveSibling(file.getFileName() + FileStateStore.LOCK_SUFFIX));
        if (removed) {
            DurableFiles.forceDirectory(file.getParent());
        }
    }

    /** Overwrites a file with zeros and fsyncs it. */
    private static void wipe(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(size, 1 << 16));
            for (long off = 0; off < size; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - off));
                off += ch.write(zeros, off);
            }
            ch.force(true);
        }
    }
}
