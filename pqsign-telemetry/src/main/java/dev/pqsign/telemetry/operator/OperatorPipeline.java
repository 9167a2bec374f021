package dev.pqsign.telemetry.operator;

import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The operator's verification pipeline over its data directory, built in one place: replay marks
 * (with a floor rebuilt from what the directory proves when the mark file is lost), accepted
 * records, followed key chains and index-reuse evidence, and one {@link ReadingVerifier} per sensor
 * that starts its key chain at the sensor's trusted first key.
 *
 * <p>Layout of the data directory ({@code docs/telemetry.md}): {@value #REPLAY}/ (the mark file),
 * {@value #ACCEPTED}/ (one ring of accepted records per key), {@value #CHAINS}/ (followed key chains
 * and certificate enrolments), {@value #EVIDENCE}/ (index-reuse evidence).
 *
 * <pre>{@code
 * try (OperatorPipeline pipeline = OperatorPipeline.builder(Path.of("op")).remember(1024).open()) {
 *     ReadingVerifier pi1 = pipeline.sensor("pi1", pinnedKey);
 *     RecordCheck check = pi1.check(record);
 * }
 * }</pre>
 */
public final class OperatorPipeline implements AutoCloseable {
    /** Subdirectory of the replay marks. */
    public static final String REPLAY = "replay";
    /** Subdirectory of the accepted records. */
    public static final String ACCEPTED = "accepted";
    /** Subdirectory of the followed key chains and certificate enrolments. */
    public static final String CHAINS = "chains";
    /** Subdirectory of index-reuse evidence. */
    public static final String EVIDENCE = "evidence";

    /** Builds an {@link OperatorPipeline}. */
    public static final class Builder {
        private final Path dataDir;
        private int remember = AcceptedRecords.DEFAULT_CAPACITY;

        private Builder(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        }

        /**
         * Accepted records remembered per key, to tell a duplicate from index reuse.
         *
         * @param slots 1 … 2^20
         * @return this builder
         */
        public Builder remember(int slots) {
            this.remember = slots;
            return this;
        }

        /**
         * Opens the data directory (creating what is missing).
         *
         * @return the pipeline
         * @throws IOException if a part cannot be opened; a damaged mark file is named with how to recover
         * @throws IllegalArgumentException if {@link #remember} is out of range
         */
        public OperatorPipeline open() throws IOException {
            return new OperatorPipeline(dataDir, remember);
        }
    }

    private final Path dataDir;
    private final ReplayGuard guard;
    private final AcceptedRecords accepted;
    private final KeyChainFollower chains;
    private final Map<String, ReadingVerifier> sensors = new LinkedHashMap<>();

    /**
     * A builder for the pipeline over {@code dataDir}.
     *
     * @param dataDir the operator's data directory
     * @return the builder
     */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    private OperatorPipeline(Path dataDir, int remember) throws IOException {
        this.dataDir = dataDir;
        MarkRecovery proven = new MarkRecovery(dataDir.resolve(ACCEPTED), dataDir.resolve(CHAINS));
        AcceptedRecords records = AcceptedRecords.inDirectory(dataDir.resolve(ACCEPTED), remember);
        ReplayGuard g;
        try {
            g = ReplayGuard.inDirectory(dataDir.resolve(REPLAY), proven);
        } catch (IOException e) {
            records.close();
            throw withRecoveryHint(e);
        }
        try {
            this.chains = new KeyChainFollower(dataDir.resolve(CHAINS));
        } catch (IOException e) {
            g.close();
            records.close();
            throw e;
        }
        this.guard = g;
        this.accepted = records;
    }

    /**
     * The verifier of one sensor: its chain starts at {@code firstKey} (or resumes where the data
     * directory left it), and the replay mark of every key the chain reached is loaded now, so a
     * damaged or lost mark is found before the first reading.
     *
     * @param name the sensor's name (one verifier per name)
     * @param firstKey the sensor's trusted first key (pinned, or certified)
     * @return the sensor's verifier
     * @throws IOException if its chain or a replay mark cannot be read; a damaged mark file is named
     *     with how to recover
     */
    public synchronized ReadingVerifier sensor(String name, PqPublicKey firstKey) throws IOException {
        ReadingVerifier v = sensors.get(name);
        if (v != null) {
            return v;
        }
        v = new ReadingVerifier(guard, List.of(TrustedKeys.of(firstKey)), accepted, dataDir.resolve(EVIDENCE));
        chains.follow(firstKey, v);
        try {
            for (ReadingVerifier.TrustedKey k : v.trustedKeys()) {
                guard.lastAccepted(k.id());
            }
        } catch (IOException e) {
            throw withRecoveryHint(e);
        }
        sensors.put(name, v);
        return v;
    }

    /**
     * The followed key chains of every sensor.
     *
     * @return the follower
     */
    public KeyChainFollower chains() {
        return chains;
    }

    /**
     * The replay marks raised to what the data directory proves when their keys were loaded (a
     * mark file deleted, truncated or replaced by an older copy).
     *
     * @return the rebuilt marks, in load order
     */
    public List<ReplayGuard.RebuiltMark> rebuiltMarks() {
        return guard.rebuiltMarks();
    }

    /**
     * The mark file's path, for messages.
     *
     * @return {@code dataDir/replay/replay-marks.pqrm}
     */
    public Path markFile() {
        return dataDir.resolve(REPLAY).resolve(ReplayGuard.MARK_FILE_NAME);
    }

    private IOException withRecoveryHint(IOException e) {
        return new IOException(
                e.getMessage() + "; to rebuild the replay marks from " + dataDir.resolve(ACCEPTED) + " and "
                        + dataDir.resolve(CHAINS) + ", move " + markFile() + " aside and start again",
                e);
    }

    @Override
    public void close() throws IOException {
        try {
            guard.close();
        } finally {
            accepted.close();
        }
    }
}
