package dev.pqsign.cli;

import dev.pqsign.keys.PrivateKeys;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.DurableWriteException;
import dev.pqsign.state.FileStateStore;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rules for every file a command writes (docs/cli-safety.md): an output is a new regular file
 * or the atomic replacement of a regular file that is not one of the command's inputs and holds no
 * private key; never a symbolic link, directory, device, FIFO or socket. All checks run before the
 * command spends anything (an XMSS index), including a real test that the directory takes a new
 * file. A write that fails afterwards is an operation failure (exit 1), not a usage error.
 */
final class OutputFiles {
    /** The name that means standard output where a command allows it. */
    static final String STDOUT = "-";

    private OutputFiles() {}

    static boolean isStdout(Path p) {
        return p.toString().equals(STDOUT);
    }

    /**
     * The files of a private key's directory that no output may replace: the key itself, its lock
     * file and its public key.
     */
    static List<Path> keyFiles(Path key) {
        Path dir = key.toAbsolutePath().getParent();
        List<Path> out =
                new ArrayList<>(List.of(key, key.resolveSibling(key.getFileName() + FileStateStore.LOCK_SUFFIX)));
        if (dir != null) {
            out.add(dir.resolve("key.pub"));
            out.add(dir.resolve("key.state"));
            out.add(dir.resolve("key.sk"));
        }
        return out;
    }

    /**
     * Checks a list of output files before anything is spent: each by {@link #check}, and no two
     * naming the same file.
     */
    static void checkAll(List<Path> targets, Collection<Path> inputs) {
        Set<Path> seen = new HashSet<>();
        for (Path t : targets) {
            if (isStdout(t)) {
                continue;
            }
            Path norm = t.toAbsolutePath().normalize();
            if (!seen.add(norm)) {
                throw CliException.usage(t + ": named twice as an output (two inputs with the same file name?);"
                        + " nothing was signed");
            }
        }
        for (Path t : targets) {
            check(t, inputs);
        }
    }

    /**
     * Checks one output file: not a link or special file, not an input, no private key, and a new
     * file can be created in its directory.
     */
    static void check(Path target, Collection<Path> inputs) {
        if (isStdout(target)) {
            return;
        }
        BasicFileAttributes a = attributes(target);
        if (a != null) {
            if (a.isSymbolicLink()) {
                throw CliException.usage(target + ": is a symbolic link; refusing to write through or replace it");
            }
            if (a.isDirectory()) {
                throw CliException.usage(target + ": is a directory; give a file name");
            }
            if (!a.isRegularFile()) {
                throw CliException.usage(
                        target + ": is not a regular file (device, FIFO or socket);" + " refusing to replace it");
            }
            for (Path in : inputs) {
                if (sameFile(target, in)) {
                    throw CliException.usage(
                            target + ": is also an input of this command (" + in + "); refusing to overwrite it");
                }
            }
            if (holdsPrivateKey(target)) {
                throw CliException.usage(target + ": holds a private key; refusing to overwrite it");
            }
        }
        probe(target);
    }

    /** Creates and removes a temporary file next to {@code target}: the directory exists and is writable. */
    static void probe(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw CliException.usage(target + ": directory " + (dir == null ? target : dir) + " does not exist");
        }
        try {
            DurableFiles.probeWritable(target);
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED, target + ": cannot create a file in " + dir + ": " + reason(e), e);
        }
    }

    /** Removes temporary files a crashed earlier write of {@code target} left behind. */
    static void removeStaleTemps(Path target) {
        try {
            DurableFiles.deleteLeftoverTemps(target);
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED, target + ": cannot remove stale temporary files: " + reason(e), e);
        }
    }

    /**
     * Durably writes an output checked by {@link #check}: temporary file, fsync, atomic rename.
     * {@code shared} files (public keys, certificates) get mode 0644, all others stay 0600.
     */
    static void write(Path target, byte[] data, boolean shared) {
        try {
            writeDurably(target, data, shared);
        } catch (IOException e) {
            throw new CliException(CliException.FAILED, target + ": write failed, " + reason(e), e);
        }
    }

    /** {@link #write} that leaves the error to the caller. */
    static void writeDurably(Path target, byte[] data, boolean shared) throws IOException {
        DurableFiles.writeAtomically(target, data);
        if (shared) {
            try {
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
            } catch (UnsupportedOperationException e) {
                // Not a POSIX file system: its default permissions apply.
            }
        }
    }

    /** Whether two paths name the same file (links and {@code ..} included); false if either is missing. */
    static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    private static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw CliException.usage(p + ": cannot examine it: " + reason(e));
        }
    }

    private static boolean holdsPrivateKey(Path p) {
        try {
            return PrivateKeys.formatOf(p).isPresent();
        } catch (IOException e) {
            // Unreadable: we cannot show it is safe to replace.
            throw CliException.usage(p + ": exists and cannot be read to check it is no key: " + reason(e));
        }
    }

    /** An I/O failure in words, without Java class names. */
    static String reason(IOException e) {
        if (e instanceof DurableWriteException d && d.getCause() instanceof IOException cause) {
            return "could not " + d.step().description() + " (" + reason(cause) + ")"
                    + (d.step().mayHavePublished()
                            ? "; the new content is in place but may not survive a power loss"
                            : "");
        }
        if (e instanceof FileSystemException fse) {
            String r = fse.getReason();
            if (r != null) {
                return r;
            }
            if (e instanceof NoSuchFileException) {
                return "no such file or directory";
            }
            if (e instanceof AccessDeniedException) {
                return "permission denied";
            }
            if (e instanceof FileAlreadyExistsException) {
                return "already exists";
            }
            if (e instanceof NotDirectoryException) {
                return "not a directory";
            }
            return "file system error";
        }
        return e.getMessage() == null ? "input/output error" : e.getMessage();
    }
}
