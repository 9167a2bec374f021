package dev.pqsign.cli;

import dev.pqsign.state.DurableFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * A new key directory that appears whole or not at all: its files are written into a temporary
 * sibling directory ({@code .NAME.tmp-<16 hex>}), which is fsynced and then renamed to its name in
 * one step. A crash or a full disk leaves at most that temporary directory, which the next keygen
 * for the same name removes; never half a key under the real name.
 */
final class KeyDirectory implements AutoCloseable {
    private static final String MARKER = ".tmp-";
    private static final Pattern HEX16 = Pattern.compile("[0-9a-f]{16}");
    private static final List<String> KEY_FILES = List.of("key.pub", "key.state", "key.sk");

    private final Path target;
    private final Path temp;
    private boolean published;

    private KeyDirectory(Path target, Path temp) {
        this.target = target;
        this.temp = temp;
    }

    /**
     * Checks, before a key is generated, that {@code out} can become a new key directory: it does not
     * exist or is an empty directory (not a link), its parent exists (created if missing) and takes
     * new entries. Removes temporary directories of crashed earlier runs for the same name.
     */
    static void checkTarget(Path out) {
        Path abs = out.toAbsolutePath().normalize();
        if (abs.getParent() == null) {
            throw CliException.usage(out + ": not a directory a key can be created in");
        }
        BasicFileAttributes a = attributes(out);
        if (a != null) {
            if (a.isSymbolicLink()) {
                throw CliException.usage(out + ": is a symbolic link; give the real directory");
            }
            if (!a.isDirectory()) {
                throw CliException.usage(out + ": exists and is not a directory");
            }
            for (String f : KEY_FILES) {
                if (Files.exists(out.resolve(f), LinkOption.NOFOLLOW_LINKS)) {
                    throw CliException.usage(out + ": already holds a key (" + f + "); refusing to overwrite it");
                }
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(out)) {
                if (entries.iterator().hasNext()) {
                    throw CliException.usage(out + ": exists and is not empty; a key directory is created whole,"
                            + " give a new or empty directory");
                }
            } catch (IOException e) {
                throw CliException.usage(out + ": cannot list directory: " + OutputFiles.reason(e));
            }
        }
        Path parent = abs.getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED, parent + ": cannot create directory: " + OutputFiles.reason(e), e);
        }
        removeStale(abs);
        OutputFiles.probe(abs);
    }

    /** Creates the temporary directory that {@link #publish} renames to {@code out}. */
    static KeyDirectory stage(Path out) {
        Path abs = out.toAbsolutePath().normalize();
        Path temp = abs.resolveSibling("." + abs.getFileName() + MARKER
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()));
        try {
            Files.createDirectory(temp);
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED,
                    out + ": cannot create temporary directory " + temp + ": " + OutputFiles.reason(e),
                    e);
        }
        return new KeyDirectory(abs, temp);
    }

    /** Where to write file {@code name} of the key directory until it is published. */
    Path file(String name) {
        return temp.resolve(name);
    }

    /**
     * Runs a write of file {@code name} into the staging directory; a failure names the file as it
     * would have appeared ({@code OUT/name}) and says that no key was created.
     */
    void write(String name, FileWrite write) {
        try {
            write.run(file(name));
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED,
                    target.resolve(name) + ": write failed, " + OutputFiles.reason(e) + "; no key was created",
                    e);
        }
    }

    /** One durable write of a file of the new key. */
    @FunctionalInterface
    interface FileWrite {
        void run(Path file) throws IOException;
    }

    /** fsyncs the temporary directory, renames it to the target name and fsyncs the parent. */
    void publish() {
        try {
            DurableFiles.forceDirectory(temp);
            // One rename(2): the name shows either nothing (or the empty directory it replaces) or the whole key.
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            published = true;
            DurableFiles.forceDirectory(target.getParent());
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED,
                    target + ": cannot publish the new key directory: "
                            + OutputFiles.reason(e)
                            + (published
                                    ? " (the key is in place but may not survive a power loss)"
                                    : "; no key was created"),
                    e);
        }
    }

    /** Removes the temporary directory unless it was published. */
    @Override
    public void close() {
        if (!published) {
            deleteQuietly(temp);
        }
    }

    private static void removeStale(Path abs) {
        String prefix = "." + abs.getFileName() + MARKER;
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(abs.getParent(), p -> {
            String n = p.getFileName().toString();
            return n.startsWith(prefix)
                    && HEX16.matcher(n.substring(prefix.length())).matches();
        })) {
            entries.forEach(stale::add);
        } catch (IOException e) {
            throw new CliException(
                    CliException.FAILED, abs.getParent() + ": cannot list directory: " + OutputFiles.reason(e), e);
        }
        for (Path p : stale) {
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                deleteQuietly(p);
            }
        }
    }

    /** Deletes a staging directory: its regular files (keys may be among them), then itself. */
    private static void deleteQuietly(Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // Left for the next keygen of this name, which removes it before it starts.
        }
    }

    private static BasicFileAttributes attributes(Path p) {
        try {
            return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw CliException.usage(p + ": cannot examine it: " + OutputFiles.reason(e));
        }
    }
}
