package dev.pqsign.keys;

import static dev.pqsign.keys.KeyDirectoryLayout.readSmall;
import static dev.pqsign.keys.SensorKeyDirectory.HANDOVER;
import static dev.pqsign.keys.SensorKeyDirectory.HANDOVER_LOG;
import static dev.pqsign.keys.SensorKeyDirectory.PUBLIC_KEY;
import static dev.pqsign.keys.SensorKeyDirectory.STATE;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.core.Secrets;
import dev.pqsign.x509.PqPublicKey;
import dev.pqsign.xmss.XmssKeyState;
import dev.pqsign.xmss.XmssParameterSet;
import dev.pqsign.xmss.XmssPublicKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;

/**
 * The generations on disk: the current one, its key, the handover that made it current, the
 * generation directories and the handover log (null if there is none).
 */
record Generations(
        long current, PqPublicKey key, SignedKeyHandover latest, NavigableMap<Long, Path> dirs, HandoverLog log) {
    /** The number of generations in the log: 1 to this one are compacted. */
    long compacted() {
        return log == null ? 0 : log.count();
    }

    /** Generation {@code g}'s signed handover record, from the log if it is there, else from its directory. */
    byte[] record(long g) throws IOException {
        return g <= compacted() ? log.entry(g).record() : readSmall(dirs.get(g).resolve(HANDOVER));
    }

    /**
     * Finds the current generation: the log's generations 1 to n, then the directories' from n + 1
     * on, the highest one with a handover record being current, numbered without a hole. Only the
     * latest record's signature is verified here (under the previous key): the earlier ones were
     * verified when they were made, the log's entries are checked for their CRCs and for naming
     * the previous entry's key, and a sensor that has rolled over for years must still open
     * quickly. {@link KeyDirectoryAudit} and operators verify every signature.
     */
    static Generations scan(Path dir, PqPublicKey firstKey) throws IOException {
        // The directories first, then the log: a compaction running meanwhile appends a generation
        // to the log before it removes its directory, so this sees it in one place or in both.
        NavigableMap<Long, Path> generations = KeyDirectoryLayout.generationDirectories(dir);
        Path logFile = dir.resolve(HANDOVER_LOG);
        HandoverLog log = Files.exists(logFile, LinkOption.NOFOLLOW_LINKS) ? HandoverLog.read(logFile, firstKey) : null;
        long compacted = log == null ? 0 : log.count();
        if (log != null) {
            checkDamagedTail(logFile, log, generations);
        }
        for (var e : generations.headMap(compacted, true).entrySet()) {
            Compaction.leftoverFiles(e.getValue(), log.entry(e.getKey()));
        }
        long current = currentGeneration(generations, compacted);
        if (compacted > 0 && current == compacted) {
            // A compaction never logs the current generation: its directory holds the live state.
            throw new KeyFormatException(logFile + " holds generation " + compacted
                    + ", which no generation directory hands over from: the current generation is never compacted");
        }
        for (long g : generations.keySet()) {
            if (g > current + 1) {
                throw new KeyFormatException(
                        generations.get(g) + " is a generation after the next one (current is " + current + ")");
            }
        }
        Generations found = new Generations(current, firstKey, null, generations, log);
        if (current == 0) {
            return found;
        }
        SignedKeyHandover signed = verifiedLatest(found, firstKey, logFile);
        return new Generations(current, signed.statement().newKey(), signed, generations, log);
    }

    /** Refuses a damaged last entry of the log unless it is the torn tail of an interrupted append. */
    private static void checkDamagedTail(Path logFile, HandoverLog log, NavigableMap<Long, Path> generations)
            throws KeyFormatException {
        if (log.damagedTail().isPresent()) {
            HandoverLog.DamagedTail t = log.damagedTail().get();
            Path d = generations.get(t.generation());
            // Torn by a crash while appending, the entry's generation still has its directory
            // (removed only after the append is durable); without it, the bytes are damage.
            if (d == null || !Files.exists(d.resolve(HANDOVER), LinkOption.NOFOLLOW_LINKS)) {
                throw new KeyFormatException(logFile + ": " + t.problem() + " at offset " + t.offset()
                        + " and generation " + t.generation() + " has no directory: the log is damaged");
            }
        }
    }

    /** The highest generation with a handover record after the {@code compacted} ones, numbered without a hole. */
    private static long currentGeneration(NavigableMap<Long, Path> generations, long compacted)
            throws KeyFormatException {
        long current = compacted;
        for (var e : generations.tailMap(compacted, false).entrySet()) {
            if (!Files.exists(e.getValue().resolve(HANDOVER), LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            if (e.getKey() != current + 1) {
                throw new KeyFormatException(e.getValue().resolve(HANDOVER) + " hands over to generation " + e.getKey()
                        + " but generation " + (current + 1) + " has no handover");
            }
            current = e.getKey();
        }
        return current;
    }

    /** The current generation's handover, checked to be this chain's and signed by the previous key. */
    private static SignedKeyHandover verifiedLatest(Generations found, PqPublicKey firstKey, Path logFile)
            throws IOException {
        long current = found.current();
        long compacted = found.compacted();
        String where = current <= compacted
                ? logFile + " generation " + current
                : found.dirs().get(current).resolve(HANDOVER).toString();
        SignedKeyHandover signed = SignedKeyHandover.decode(found.record(current));
        PqPublicKey previous = current == 1
                ? firstKey
                : current - 1 <= compacted
                        ? SignedKeyHandover.decode(found.record(current - 1))
                                .statement()
                                .newKey()
                        : PublicKeys.decode(
                                firstKey.parameterSet().setName(),
                                readSmall(found.dirs().get(current - 1).resolve(PUBLIC_KEY)));
        if (signed.statement().sequence() != current
                || !signed.isSignedBy(previous)
                || !MessageDigest.isEqual(signed.statement().chainId(), PublicKeys.keyId(firstKey))) {
            throw new KeyFormatException(where + " is not a handover of this directory from generation " + (current - 1)
                    + " signed by its key");
        }
        return signed;
    }

    /** Reads generation 0's public key, {@code dir/key.pub}: the key the chain starts at. */
    static PqPublicKey readFirstKey(Path dir) throws IOException {
        Path first = dir.resolve(PUBLIC_KEY);
        byte[] pub = readSmall(first);
        List<XmssParameterSet> candidates = XmssPublicKey.candidates(pub);
        if (candidates.isEmpty()) {
            throw new KeyFormatException(first + " is not an XMSS / XMSS^MT public key (only stateful keys roll over)");
        }
        if (candidates.size() == 1) {
            return PqPublicKey.of(XmssPublicKey.decode(candidates.get(0), pub));
        }
        // An XMSS and an XMSS^MT set share this type code: a state file of the directory names the set.
        XmssParameterSet set = parameterSetOfAnyState(dir);
        if (set == null || !candidates.contains(set)) {
            throw new KeyFormatException(
                    first + " fits several parameter sets and no key state in " + dir + " says which");
        }
        return PqPublicKey.of(XmssPublicKey.decode(set, pub));
    }

    /** The parameter set of the newest key state in the directory (every generation has the same), or null. */
    private static XmssParameterSet parameterSetOfAnyState(Path dir) throws IOException {
        List<Path> states = new ArrayList<>();
        for (Path g :
                KeyDirectoryLayout.generationDirectories(dir).descendingMap().values()) {
            states.add(g.resolve(STATE));
        }
        states.add(dir.resolve(STATE));
        for (Path state : states) {
            if (!Files.isRegularFile(state, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            byte[] b = readSmall(state);
            try {
                XmssKeyState s = XmssKeyState.decode(b);
                XmssParameterSet set = s.key().parameterSet();
                s.key().destroy();
                return set;
            } finally {
                Secrets.wipe(b);
            }
        }
        return null;
    }
}
