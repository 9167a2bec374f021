package dev.pqsign.keys;

import static dev.pqsign.keys.KeyDirectoryLayout.generationDir;
import static dev.pqsign.keys.KeyDirectoryLayout.readSmall;
import static dev.pqsign.keys.SensorKeyDirectory.CERTIFICATE;
import static dev.pqsign.keys.SensorKeyDirectory.GENERATIONS;
import static dev.pqsign.keys.SensorKeyDirectory.HANDOVER;
import static dev.pqsign.keys.SensorKeyDirectory.HANDOVER_LOG;
import static dev.pqsign.keys.SensorKeyDirectory.PUBLIC_KEY;
import static dev.pqsign.keys.SensorKeyDirectory.STATE;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Compacts a key directory's retired generations into its handover log (docs/key-directory.md,
 * "Bounded layout"), and reads a generation's handover record and certificate chain from where
 * compaction left them: the log, or the generation's directory. Compaction appends to the log
 * before it removes a directory, so a reader on another thread finds each generation in one place
 * or both, never in neither.
 */
final class Compaction {
    private final Path dir;
    private final PqPublicKey firstKey;
    private final SensorKeyDirectory.Observer observer;
    /** The handover log, or null until the first compaction creates it. */
    private volatile HandoverLog log;

    /** Compacts {@code dir}, whose handover log the open found ({@code log}: null if it has none yet). */
    Compaction(Path dir, PqPublicKey firstKey, SensorKeyDirectory.Observer observer, HandoverLog log) {
        this.dir = dir;
        this.firstKey = firstKey;
        this.observer = observer;
        this.log = log;
    }

    /** See {@link SensorKeyDirectory#compact}; {@code current} is the current generation. */
    long compactBelow(long current) throws IOException {
        long done = 0;
        for (long g = compactedCount() + 1; g < current; g = compactedCount() + 1) {
            Path gdir = generationDir(dir, g);
            if (Files.exists(gdir.resolve(STATE), LinkOption.NOFOLLOW_LINKS)) {
                break; // its state is not destroyed yet: a later call compacts it
            }
            compactGeneration(g, gdir);
            done++;
        }
        return done;
    }

    private long compactedCount() {
        HandoverLog l = log;
        return l == null ? 0 : l.count();
    }

    private void compactGeneration(long g, Path gdir) throws IOException {
        byte[] record = readSmall(gdir.resolve(HANDOVER));
        Path certFile = gdir.resolve(CERTIFICATE);
        byte[] cert = Files.exists(certFile, LinkOption.NOFOLLOW_LINKS) ? readSmall(certFile) : new byte[0];
        HandoverLog.Entry entry = new HandoverLog.Entry(g, record, cert);
        // A SIGKILL between a create's link and the deletion of its temporary file leaves that file
        // beside the one it became; such leftovers hold public bytes only and are never read.
        for (String name : List.of(PUBLIC_KEY, HANDOVER, CERTIFICATE)) {
            DurableFiles.deleteLeftoverTemps(gdir.resolve(name));
        }
        List<Path> files;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(gdir)) {
            files = new ArrayList<>();
            s.forEach(files::add);
        }
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (!name.equals(PUBLIC_KEY) && !name.equals(HANDOVER) && !name.equals(CERTIFICATE)) {
                throw new KeyFormatException(
                        f + " is not a file of a retired generation; " + gdir + " is not compacted");
            }
        }
        // Checks the public key against the record (and nothing else is there) before anything changes.
        List<Path> remove = leftoverFiles(gdir, entry);
        HandoverLog l = log;
        if (l == null) {
            l = HandoverLog.create(dir.resolve(HANDOVER_LOG), firstKey);
            log = l;
        }
        l.append(entry);
        observer.compactionStepDone(CompactionStep.RECORD_LOGGED, g);
        // The record goes last, so a directory a crash left half removed still says which generation it was.
        remove.sort((a, b) -> Boolean.compare(
                a.getFileName().toString().equals(HANDOVER),
                b.getFileName().toString().equals(HANDOVER)));
        removeGenerationDirectory(gdir, remove);
        DurableFiles.forceDirectory(dir.resolve(GENERATIONS));
        observer.compactionStepDone(CompactionStep.DIRECTORY_REMOVED, g);
    }

    /**
     * The files a compaction left in a generation directory it had logged (a crash between its two
     * steps): each must equal what the log holds; a retired state is destroyed like any other.
     *
     * @return the files to remove before the directory
     * @throws KeyFormatException if a file differs from the log or is not one a generation holds
     */
    static List<Path> leftoverFiles(Path gdir, HandoverLog.Entry logged) throws IOException {
        List<Path> files = new ArrayList<>();
        List<Path> present = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(gdir)) {
            s.forEach(present::add);
        } catch (NoSuchFileException e) {
            return files; // removed meanwhile by a compaction of a running sensor
        }
        for (Path f : present) {
            String name = f.getFileName().toString();
            byte[] expected;
            if (name.equals(HANDOVER)) {
                expected = logged.record();
            } else if (name.equals(CERTIFICATE)) {
                expected = logged.certificate();
            } else if (name.equals(PUBLIC_KEY)) {
                expected = SignedKeyHandover.decode(logged.record())
                        .statement()
                        .newKey()
                        .rawEncoding();
            } else if (name.equals(STATE) || name.equals(STATE + FileStateStore.LOCK_SUFFIX)) {
                continue; // destroyed as every retired generation's state is
            } else {
                throw new KeyFormatException(f + " is not a file of a generation directory (generation "
                        + logged.generation() + " is in " + HANDOVER_LOG + ")");
            }
            byte[] found;
            try {
                found = readSmall(f);
            } catch (NoSuchFileException e) {
                continue; // removed meanwhile by a compaction of a running sensor
            }
            if (!Arrays.equals(found, expected)) {
                throw new KeyFormatException(
                        f + " differs from generation " + logged.generation() + "'s entry in " + HANDOVER_LOG);
            }
            files.add(f);
        }
        return files;
    }

    static void removeGenerationDirectory(Path gdir, List<Path> files) throws IOException {
        for (Path f : files) {
            Files.deleteIfExists(f);
        }
        Files.delete(gdir);
    }

    /**
     * Generation {@code g}'s signed handover record, from the log or from its directory. Safe while
     * a compaction runs on another thread: it appends to the log before it removes the directory,
     * so a record missing from the directory is in the log by then.
     */
    byte[] handoverRecord(long g) throws IOException {
        HandoverLog l = log;
        if (l != null && g <= l.count()) {
            return l.entry(g).record();
        }
        try {
            return readSmall(generationDir(dir, g).resolve(HANDOVER));
        } catch (NoSuchFileException e) {
            l = log;
            if (l != null && g <= l.count()) {
                return l.entry(g).record();
            }
            throw e;
        }
    }

    /** See {@link SensorKeyDirectory#certificate}. */
    Optional<byte[]> certificate(long g) throws IOException {
        try {
            return Optional.of(readSmall(generationDir(dir, g).resolve(CERTIFICATE)));
        } catch (NoSuchFileException e) {
            HandoverLog l = log;
            if (g >= 1 && l != null && g <= l.count()) {
                byte[] c = l.entry(g).certificate();
                return c.length == 0 ? Optional.empty() : Optional.of(c);
            }
            return Optional.empty();
        }
    }
}
