package dev.pqsign.cli;

import dev.pqsign.keys.KeyDirectoryOwner;
import dev.pqsign.keys.PrivateKeyFormat;
import dev.pqsign.keys.PrivateKeySummary;
import dev.pqsign.lms.HssKeySplit;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.state.FileStateStore;
import dev.pqsign.xmss.XmssKeySplit;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pqsign key split}: divides the remaining indices of an XMSS or HSS key state into N key files with
 * disjoint ranges (the original keeps the first range; {@code OUT/part-2.state} ... {@code part-N.state}
 * get the others, plus {@code OUT/key.pub}). The original is shrunk durably under its lock before any
 * part file exists, so no index can ever belong to two files, even after a crash.
 */
@Command(
        name = "split",
        mixinStandardHelpOptions = true,
        description = {
            "Split the remaining index range of an XMSS or HSS key state into N disjoint key files.",
            "The original keeps the first range; OUT/part-2.state .. part-N.state and OUT/key.pub are created.",
            "Use this (never a copy of key.state) to sign with one key on several devices."
        })
final class KeySplitCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--key",
            required = true,
            description = "The key state to split (DIR/key.state); it shrinks to part 1.")
    Path key;

    @Option(
            names = "--parts",
            required = true,
            description = "Number of parts N (2 .. remaining signatures, at most " + MAX_PARTS + ").")
    int parts;

    @Option(names = "--out", required = true, description = "Directory for part-2.state .. part-N.state and key.pub.")
    Path out;

    @Option(
            names = "--lock-timeout",
            defaultValue = "10",
            description = "Seconds to wait for another process holding the key (default 10).")
    int lockTimeout;

    /** More parts than devices anyone hands one key to; each part is one fsynced file. */
    static final int MAX_PARTS = 10_000;

    @Override
    public Integer call() throws IOException {
        // Bounded before anything loops over the parts (--parts 2147483647 used to overflow the loop).
        Bounds.check("--parts", parts, 2, MAX_PARTS);
        Bounds.lockTimeout(lockTimeout);
        // A key directory in use (a running sensor) is refused before anything is checked or made.
        KeyDirectoryOwner owner = KeyFiles.ownKeyDirectory(key, lockTimeout);
        try {
            return split();
        } finally {
            if (owner != null) {
                owner.close();
            }
        }
    }

    private int split() throws IOException {
        PrivateKeyFormat format = KeyFiles.privateKeyFormat(key, "key state")
                .filter(PrivateKeyFormat::isKeyState)
                .orElseThrow(() -> CliException.usage(key + " is not an XMSS or HSS key state (only stateful keys"
                        + " are split; HAETAE keys are stateless)"));
        PrivateKeySummary summary = KeyFiles.privateKeySummary(key, "key state")
                .filter(k -> k.format() == format)
                .orElseThrow(() -> CliException.usage(key + ": changed while it was read"));
        byte[] pub = summary.publicKey().rawEncoding();
        String setName = summary.parameterSetName();
        long remaining = summary.remaining().orElseThrow();
        if (remaining == 0) {
            throw new CliException(
                    CliException.FAILED, key + ": key is exhausted (no signatures left);" + " nothing to split");
        }
        if (parts > remaining) {
            throw CliException.usage(key + ": --parts " + parts + " is more than the " + remaining
                    + " remaining signatures; every part needs at least one");
        }
        if (Files.exists(out, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(out)) {
            throw CliException.usage(out + ": --out exists and is not a directory");
        }
        Path pubFile = out.resolve("key.pub");
        boolean pubPresent = Files.exists(pubFile, LinkOption.NOFOLLOW_LINKS);
        if (pubPresent && !Files.isRegularFile(pubFile, LinkOption.NOFOLLOW_LINKS)) {
            throw CliException.usage(pubFile + ": is a symbolic link or special file; refusing to use it");
        }
        if (pubPresent && !Arrays.equals(pub, KeyFiles.readSmall(pubFile, "public key"))) {
            throw CliException.usage(
                    pubFile + " already exists and holds a different public key; choose another --out");
        }
        for (int i = 2; i <= parts; i++) {
            Path p = partFile(i);
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                throw CliException.usage(p + " already exists; refusing to overwrite a key file (nothing was changed)");
            }
        }
        boolean createdOut = false;
        if (!Files.isDirectory(out)) {
            try {
                Files.createDirectories(out);
                createdOut = true;
                Path parent = out.toAbsolutePath().normalize().getParent();
                if (parent != null) {
                    // The new directory's own entry must survive a power loss too.
                    DurableFiles.forceDirectory(parent);
                }
            } catch (IOException e) {
                throw new CliException(
                        CliException.FAILED, out + ": cannot create directory: " + OutputFiles.reason(e), e);
            }
        }
        // Before the original shrinks: the parts' directory must take new files.
        OutputFiles.probe(partFile(2));
        for (int i = 2; i <= parts; i++) {
            OutputFiles.removeStaleTemps(partFile(i));
        }
        if (!pubPresent) {
            OutputFiles.removeStaleTemps(pubFile);
        }

        List<Part> result;
        boolean refused = true;
        try (FileStateStore store = FileStateStore.open(key, Duration.ofSeconds(lockTimeout))) {
            result = splitStore(format, store);
            refused = false;
        } catch (XmssKeySplit.PartWriteException | HssKeySplit.PartWriteException e) {
            refused = false;
            throw new CliException(CliException.FAILED, e.getMessage(), e);
        } catch (FileAlreadyExistsException e) {
            throw CliException.usage(e.getFile() + ": " + e.getReason());
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        } finally {
            if (refused && createdOut) {
                // Nothing was split: do not leave the empty directory we made behind.
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // not empty after all (someone else wrote into it): leave it
                }
            }
        }
        if (!pubPresent) {
            KeygenCommand.writePublic(pubFile, pub);
        }
        PrintWriter o = spec.commandLine().getOut();
        o.printf("%s split into %d parts (%s):%n", key, parts, setName);
        for (Part p : result) {
            o.printf(
                    "  part %d: indices [%d, %d), %d signatures -> %s%n",
                    p.number(), p.nextIndex(), p.endIndex(), p.size(), p.number() == 1 ? key : p.location());
        }
        o.printf("  public key: %s%n", pubFile);
        o.println("Give each part to one device only; never copy a key.state file.");
        o.flush();
        return 0;
    }

    private Path partFile(int part) {
        return out.resolve("part-" + part + ".state");
    }

    /** One part as the output lists it, whichever scheme split it. */
    private record Part(int number, long nextIndex, long endIndex, String location) {
        long size() {
            return endIndex - nextIndex;
        }
    }

    private List<Part> splitStore(PrivateKeyFormat format, FileStateStore store) throws IOException {
        PartFiles files = new PartFiles();
        List<Part> result = new ArrayList<>();
        if (format == PrivateKeyFormat.HSS_KEY_STATE) {
            for (HssKeySplit.Part p : HssKeySplit.split(store, parts, files)) {
                result.add(new Part(p.number(), p.nextIndex(), p.endIndex(), p.location()));
            }
        } else {
            for (XmssKeySplit.Part p : XmssKeySplit.split(store, parts, files)) {
                result.add(new Part(p.number(), p.nextIndex(), p.endIndex(), p.location()));
            }
        }
        return result;
    }

    /** Creates the part files next to each other in {@code --out}, never over an existing file. */
    private final class PartFiles implements XmssKeySplit.PartWriter, HssKeySplit.PartWriter {
        @Override
        public void checkAbsent(int part) throws IOException {
            Path p = partFile(part);
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new FileAlreadyExistsException(
                        p.toString(), null, "already exists; refusing to overwrite a key file (nothing was changed)");
            }
        }

        @Override
        public void create(int part, byte[] encodedState) throws IOException {
            DurableFiles.createAtomically(partFile(part), encodedState);
        }

        @Override
        public String describe(int part) {
            return partFile(part).toString();
        }
    }
}
