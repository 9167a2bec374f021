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
 *     SensorVerification pi1 = pipeline.sensor("pi1", pinnedKey);
 *     SensorVerification.Judgement j = pi1.judge(ReceivedValue.now(recordBytes, true), KeyHistory.NONE);
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

    /**
     * Where a pipeline that does not own a data directory keeps its state, e.g. a stream processor's
     * changelogged state store: the same rules, other durable stores.
     *
     * @param marks opens the store of each key's replay mark
     * @param accepted the accepted records, or null (every older index is then {@code REPLAYED})
     * @param evidence where index-reuse evidence is kept (required with {@code accepted}, else null)
     * @param chains where the followed key chains are kept
     */
    public record Stores(
            ReplayGuard.StoreProvider marks,
            AcceptedStore accepted,
            EvidenceSink evidence,
            KeyChainFollower.ChainStore chains) {
        /**
         * Checks the parts.
         *
         * @param marks opens the store of each key's replay mark
         * @param accepted the accepted records, or null
         * @param evidence where index-reuse evidence is kept (required with {@code accepted}, else null)
         * @param chains where the followed key chains are kept
         */
        public Stores {
            Objects.requireNonNull(marks, "marks");
            Objects.requireNonNull(chains, "chains");
            if ((accepted == null) != (evidence == null)) {
                throw new IllegalArgumentException("accepted records and evidence go together");
            }
        }
    }

    /** Builds an {@link OperatorPipeline} over a data directory. */
    public static final class Builder {
        private final Path dataDir;
        private int remember = AcceptedRecords.DEFAULT_CAPACITY;

        private Builder(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        }

        /**
         * Accepted records remembered per key, to tell a duplicate from index reuse; 0 remembers none
         * (every reading at or below a key's mark is then {@code REPLAYED}, no evidence is kept).
         *
         * @param slots 0 … 2^20
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
            if (remember < 0 || remember > AcceptedRecords.MAX_CAPACITY) {
                throw new IllegalArgumentException(
                        "accepted records per key must be 0.." + AcceptedRecords.MAX_CAPACITY + ", got " + remember);
            }
            MarkRecovery proven = new MarkRecovery(dataDir.resolve(ACCEPTED), dataDir.resolve(CHAINS));
            AcceptedRecords records =
                    remember == 0 ? null : AcceptedRecords.inDirectory(dataDir.resolve(ACCEPTED), remember);
            ReplayGuard guard;
            try {
                guard = ReplayGuard.inDirectory(dataDir.resolve(REPLAY), proven);
            } catch (IOException e) {
                closeQuietly(records);
                throw withRecoveryHint(dataDir, e);
            }
            KeyChainFollower chains;
            try {
                chains = new KeyChainFollower(dataDir.resolve(CHAINS));
            } catch (IOException e) {
                closeQuietly(guard);
                closeQuietly(records);
                throw e;
            }
            return new OperatorPipeline(
                    dataDir,
                    guard,
                    records,
                    records == null ? null : EvidenceSink.files(dataDir.resolve(EVIDENCE)),
                    chains,
                    records);
        }
    }

    private final Path dataDir;
    private final ReplayGuard guard;
    private final AcceptedStore accepted;
    private final EvidenceSink evidence;
    private final KeyChainFollower chains;
    private final AcceptedRecords ownedRecords;
    private final Map<String, SensorVerification> sensors = new LinkedHashMap<>();

    private OperatorPipeline(
            Path dataDir,
            ReplayGuard guard,
            AcceptedStore accepted,
            EvidenceSink evidence,
            KeyChainFollower chains,
            AcceptedRecords ownedRecords) {
        this.dataDir = dataDir;
        this.guard = guard;
        this.accepted = accepted;
        this.evidence = evidence;
        this.chains = chains;
        this.ownedRecords = ownedRecords;
    }

    /**
     * A builder for the pipeline over {@code dataDir}.
     *
     * @param dataDir the operator's data directory
     * @return the builder
     */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /**
     * A pipeline over stores it does not own (closing it closes nothing of theirs).
     *
     * @param stores where its state is kept
     * @return the pipeline
     */
    public static OperatorPipeline over(Stores stores) {
        return new OperatorPipeline(
                null,
                new ReplayGuard(stores.marks()),
                stores.accepted(),
                stores.evidence(),
                new KeyChainFollower(stores.chains()),
                null);
    }

    /**
     * The verification of one sensor followed by its handovers alone; see
     * {@link #sensor(String, PqPublicKey, DeviceCaTrust)}.
     *
     * @param name the sensor's name (one verification per name)
     * @param firstKey the sensor's trusted first key
     * @return the sensor's verification
     * @throws IOException if its chain or a replay mark cannot be read
     */
    public SensorVerification sensor(String name, PqPublicKey firstKey) throws IOException {
        return sensor(name, firstKey, null);
    }

    /**
     * The verification of one sensor: its chain starts at {@code firstKey} (or resumes where the
     * stores left it), and the replay mark of every key the chain reached is loaded now, so a
     * damaged or lost mark is found before the first reading.
     *
     * @param name the sensor's name (one verification per name)
     * @param firstKey the sensor's trusted first key (pinned, or certified)
     * @param trust in certificate mode the sensor's device CA binding (each new key needs a chain it
     *     accepts), else null
     * @return the sensor's verification
     * @throws IOException if its chain or a replay mark cannot be read; a damaged mark file is named
     *     with how to recover
     */
    public synchronized SensorVerification sensor(String name, PqPublicKey firstKey, DeviceCaTrust trust)
            throws IOException {
        SensorVerification s = sensors.get(name);
        if (s != null) {
            return s;
        }
        ReadingVerifier v = new ReadingVerifier(guard, List.of(TrustedKeys.of(firstKey)), accepted, evidence);
        chains.follow(firstKey, v);
        try {
            for (ReadingVerifier.TrustedKey k : v.trustedKeys()) {
                guard.lastAccepted(k.id());
            }
        } catch (IOException e) {
            throw dataDir == null ? e : withRecoveryHint(dataDir, e);
        }
        s = new SensorVerification(name, v, chains, trust);
        sensors.put(name, s);
        return s;
    }

    /**
     * The verification of a sensor whose key never hands over: {@code key} alone is trusted, and a
     * handover record on its record node is malformed (no chain is followed).
     *
     * @param name the sensor's name (one verification per name)
     * @param key the sensor's pinned key
     * @return the sensor's verification
     * @throws IOException if the key's replay mark cannot be read; a damaged mark file is named with how to recover
     */
    public synchronized SensorVerification pinned(String name, ReadingVerifier.TrustedKey key) throws IOException {
        SensorVerification s = sensors.get(name);
        if (s != null) {
            return s;
        }
        ReadingVerifier v = new ReadingVerifier(guard, List.of(key), accepted, evidence);
        try {
            guard.lastAccepted(key.id());
        } catch (IOException e) {
            throw dataDir == null ? e : withRecoveryHint(dataDir, e);
        }
        s = new SensorVerification(name, v, null, null);
        sensors.put(name, s);
        return s;
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
     * @return {@code dataDir/replay/replay-marks.pqrm}, or null for a pipeline over stores
     */
    public Path markFile() {
        return dataDir == null ? null : dataDir.resolve(REPLAY).resolve(ReplayGuard.MARK_FILE_NAME);
    }

    private static IOException withRecoveryHint(Path dataDir, IOException e) {
        Path marks = dataDir.resolve(REPLAY).resolve(ReplayGuard.MARK_FILE_NAME);
        return new IOException(
                e.getMessage() + "; to rebuild the replay marks from " + dataDir.resolve(ACCEPTED) + " and "
                        + dataDir.resolve(CHAINS) + ", move " + marks + " aside and start again",
                e);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing after a failure to open: the first failure is the one to report
            }
        }
    }

    /** Closes the stores this pipeline opened (none for a pipeline {@link #over} stores). */
    @Override
    public void close() throws IOException {
        if (dataDir == null) {
            return;
        }
        try {
            guard.close();
        } finally {
            if (ownedRecords != null) {
                ownedRecords.close();
            }
        }
    }
}
