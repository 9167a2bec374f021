package dev.pqsign.keys;

import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * A key directory is owned by another process (or another part of this one): it holds the
 * directory's {@link KeyDirectoryOwner#FILE} lock. The message is one line naming the directory and
 * the owner's pid, e.g. {@code kd: key directory in use by process 4711 (kd/owner.lock); a key
 * directory is used by one process at a time}.
 */
public final class KeyDirectoryInUseException extends IOException {
    private static final long serialVersionUID = 1L;

    /** The owner's pid as it wrote it into the lock file, or -1 if it could not be read. */
    private final long ownerPid;

    KeyDirectoryInUseException(Path dir, Path lockFile, long ownerPid) {
        super(dir + ": key directory in use by " + (ownerPid < 0 ? "another process" : "process " + ownerPid) + " ("
                + lockFile + "); a key directory is used by one process at a time");
        this.ownerPid = ownerPid;
    }

    /**
     * The owner's process id, as it wrote it into the lock file.
     *
     * @return the pid, or empty if the lock file did not say (the owner was just writing it)
     */
    public OptionalLong ownerPid() {
        return ownerPid < 0 ? OptionalLong.empty() : OptionalLong.of(ownerPid);
    }
}
