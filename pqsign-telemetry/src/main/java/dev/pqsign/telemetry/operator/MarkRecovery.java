package dev.pqsign.telemetry.operator;

import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.state.DurableFiles;
import dev.pqsign.telemetry.KeyId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The floor under a key's replay mark that the rest of the operator's data directory proves,
 * for a mark file that was deleted, truncated, or replaced by an older copy: an operator must never
 * accept a reading at or below one it accepted before. The floor is the higher of
 *
 * <ul>
 *   <li>one above the highest index in the key's ring of accepted records ({@link AcceptedRecords}):
 *       a record is stored there before its mark advances, so every record in it was accepted (or
 *       verified and about to be, then reported as accepted on the next start);
 *   <li>the index at which a followed key chain ({@link KeyChainFollower}) retired the key: nothing
 *       at or above it is accepted, and every index below it was accepted or reported as a gap when
 *       the handover was followed.
 * </ul>
 *
 * <p>Readings delivered again then get {@code DUPLICATE} (or {@code REPLAYED} if older than the
 * ring), never {@code ACCEPTED}. Reads the directory only: the chains when it is made, a key's ring
 * when the guard first loads the key.
 */
public final class MarkRecovery implements ReplayGuard.MarkFloor {

    /** Chain files larger than this are not chain states (the chain keeps 16 retired keys at most). */
    private static final int MAX_CHAIN_BYTES = 1 << 20;

    private final Path acceptedDir;
    private final Map<KeyId, Long> retiredAt;

    /**
     * The floor proven by the rings in {@code acceptedDir} and by the chains in {@code chainsDir} as
     * they are now: a key retired later by this process keeps the mark it has (the handover that
     * retires it reports its missing indices from that mark).
     *
     * @param acceptedDir the operator's directory of accepted records (need not exist)
     * @param chainsDir the operator's directory of followed key chains (need not exist)
     * @throws IOException if a chain file cannot be read or is not a chain state
     */
    public MarkRecovery(Path acceptedDir, Path chainsDir) throws IOException {
        this.acceptedDir = Objects.requireNonNull(acceptedDir, "acceptedDir");
        this.retiredAt = retiredKeys(Objects.requireNonNull(chainsDir, "chainsDir"));
    }

    @Override
    public long of(KeyId key) throws IOException {
        return Math.max(AcceptedRecords.highestRemembered(acceptedDir, key) + 1, retiredAt.getOrDefault(key, 0L));
    }

    /** Every key the chains in {@code chainsDir} retired, with its handover index. */
    private static Map<KeyId, Long> retiredKeys(Path chainsDir) throws IOException {
        Map<KeyId, Long> out = new HashMap<>();
        if (!Files.isDirectory(chainsDir, LinkOption.NOFOLLOW_LINKS)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(chainsDir, "*" + KeyChainFollower.SUFFIX)) {
            for (Path f : files) {
                if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                String name = f.getFileName().toString();
                byte[] chainId;
                try {
                    chainId = Hex.decode(name.substring(0, name.length() - KeyChainFollower.SUFFIX.length()));
                } catch (IllegalArgumentException notAChain) {
                    continue;
                }
                KeyChain chain;
                try {
                    chain = KeyChain.decode(DurableFiles.readAll(f, MAX_CHAIN_BYTES), chainId);
                } catch (KeyFormatException e) {
                    throw new IOException(f + ": " + e.getMessage(), e);
                }
                for (KeyChain.Member m : chain.retired()) {
                    out.merge(KeyId.of(m.keyId()), m.retiredAt(), Math::max);
                }
            }
        }
        return out;
    }
}
