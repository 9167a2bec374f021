package dev.pqsign.keys;

import dev.pqsign.core.KeyFormatException;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Re-verifies a sensor key directory's whole handover chain from its first public key: the
 * compacted generations in the handover log, then the generations still in directories, each
 * record followed as an operator follows it ({@link KeyChain}: chain id, sequence, signer, the
 * signature under the previous key, no key reused). Reads only; takes no lock.
 */
public final class KeyDirectoryAudit {
    /**
     * The outcome.
     *
     * @param generation the current generation the directory names (0 if it could not be read that far)
     * @param verified how many handover records were followed, from generation 1 on
     * @param logEntries how many of the records are in the handover log
     * @param problems what failed, one line each; empty if the audit passed
     */
    public record Report(long generation, long verified, long logEntries, List<String> problems) {
        /**
         * Copies the problems, so that the report cannot change after it is made.
         *
         * @param generation the current generation
         * @param verified the records followed
         * @param logEntries the records in the log
         * @param problems what failed
         */
        public Report {
            problems = List.copyOf(problems);
        }

        /**
         * {@code true} if every record of the chain verified.
         *
         * @return whether there are no problems
         */
        public boolean passed() {
            return problems.isEmpty();
        }
    }

    private KeyDirectoryAudit() {}

    /**
     * Audits a key directory from its own {@code key.pub}.
     *
     * @param dir the key directory
     * @return the report: passed only if every handover from generation 1 to the current one verifies
     * @throws KeyFormatException if {@code key.pub} is not an XMSS / XMSS^MT public key
     * @throws IOException if a file cannot be read
     */
    public static Report run(Path dir) throws IOException {
        return run(dir, Generations.readFirstKey(dir));
    }

    /**
     * Audits a key directory from a pinned first key.
     *
     * @param dir the key directory (with {@code key.pub}, generation 0's public key)
     * @param firstKey the key the chain must start at: the one operators pinned
     * @return the report: passed only if every handover from generation 1 to the current one verifies
     * @throws IOException if a file cannot be read
     */
    public static Report run(Path dir, PqPublicKey firstKey) throws IOException {
        List<String> problems = new ArrayList<>();
        if (!Generations.readFirstKey(dir).equals(firstKey)) {
            problems.add(dir.resolve(SensorKeyDirectory.PUBLIC_KEY) + " is not the pinned first key");
            return new Report(0, 0, 0, problems);
        }
        Generations found;
        try {
            found = Generations.scan(dir, firstKey);
        } catch (KeyFormatException e) {
            problems.add(e.getMessage());
            return new Report(0, 0, 0, problems);
        }
        KeyChain chain = KeyChain.startingAt(firstKey);
        long verified = 0;
        for (long g = 1; g <= found.current(); g++) {
            String where = g <= found.compacted()
                    ? dir.resolve(SensorKeyDirectory.HANDOVER_LOG) + " generation " + g
                    : found.dirs().get(g).resolve(SensorKeyDirectory.HANDOVER).toString();
            SignedKeyHandover h;
            try {
                h = SignedKeyHandover.decode(found.record(g));
            } catch (KeyFormatException e) {
                problems.add(where + ": " + e.getMessage());
                break;
            }
            KeyChain.Step step = chain.follow(h);
            if (step.outcome() != HandoverOutcome.FOLLOWED) {
                problems.add(where + ": " + step.outcome() + " (the chain breaks here)");
                break;
            }
            chain = step.chain();
            verified++;
            Path pub = found.dirs().containsKey(g) ? found.dirs().get(g).resolve(SensorKeyDirectory.PUBLIC_KEY) : null;
            if (pub != null
                    && Files.isRegularFile(pub, LinkOption.NOFOLLOW_LINKS)
                    && !Arrays.equals(
                            KeyDirectoryLayout.readSmall(pub),
                            h.statement().newKey().rawEncoding())) {
                problems.add(pub + ": not the key generation " + g + "'s handover names");
            }
        }
        return new Report(found.current(), verified, Math.min(found.compacted(), found.current()), problems);
    }
}
