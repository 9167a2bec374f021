package dev.pqsign.telemetry.operator;

import dev.pqsign.core.Digests;
import dev.pqsign.core.Hex;
import dev.pqsign.core.KeyFormatException;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.keys.KeyCertificateChain;
import dev.pqsign.keys.KeyChain;
import dev.pqsign.keys.SignedKeyHandover;
import dev.pqsign.telemetry.HandoverCheck;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One sensor's verification: judges the values of its record node in the order the sensor
 * published them and says what each came to ({@link Observation}s). A value is a signed reading
 * (verified by the sensor's {@link ReadingVerifier}: pinned keys, replay marks, gaps, duplicates,
 * index reuse), a key handover (followed by the operator's {@link KeyChainFollower}, in
 * certificate mode only with a chain its {@link DeviceCaTrust} accepts), the certificate chain of
 * the key the next handover introduces, or something else (malformed). A reading of a key the
 * operator has not followed to yet makes it catch up on the handovers it missed from the sensor's
 * {@link KeyHistory}; if the sensor cannot be asked, the value is {@linkplain Judgement#deferred()
 * deferred}: whoever delivers values must deliver it (and what came after it) again later.
 *
 * <p>Not thread-safe: one sensor's values are judged one at a time, in order. Nothing a sensor
 * publishes can make it throw.
 */
public final class SensorVerification {
    private static final System.Logger LOG = System.getLogger(SensorVerification.class.getName());

    /** Publications remembered to recognize one delivered twice (from the history and live). */
    static final int RECENTLY_JUDGED = 65_536;

    /** Refused handovers remembered, so a catch-up does not raise the same alarm again. */
    static final int REFUSALS_REMEMBERED = 64;

    /**
     * What one value came to.
     *
     * @param deferred true if it could not be judged now and must be delivered again (nothing was decided)
     * @param observations what was decided, in order (none if deferred, or for a value judged already)
     */
    public record Judgement(boolean deferred, List<Observation> observations) {
        /**
         * Copies the observations.
         *
         * @param deferred true if it could not be judged now and must be delivered again
         * @param observations what was decided, in order
         */
        public Judgement {
            observations = List.copyOf(observations);
        }

        static final Judgement DEFERRED = new Judgement(true, List.of());
        static final Judgement NOTHING = new Judgement(false, List.of());
    }

    private final String name;
    private final ReadingVerifier verifier;
    private final KeyChainFollower chains;
    private final DeviceCaTrust trust;
    private final Map<Long, byte[]> recentlyJudged = lru(RECENTLY_JUDGED);
    private final Map<String, Boolean> refused = lru(REFUSALS_REMEMBERED);
    /** The latest key certificate chain the sensor published on its record node. */
    private KeyCertificateChain publishedCertificates;

    SensorVerification(String name, ReadingVerifier verifier, KeyChainFollower chains, DeviceCaTrust trust) {
        this.name = Objects.requireNonNull(name, "name");
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.chains = chains;
        this.trust = trust;
        if (chains == null && trust != null) {
            throw new IllegalArgumentException("certificate mode follows key chains: chains are required");
        }
    }

    /**
     * A sensor verification over a verifier assembled by hand (a test, a custom store);
     * {@link OperatorPipeline#sensor} builds it from the operator's data directory.
     *
     * @param name the sensor's name
     * @param verifier the sensor's reading verifier
     * @param chains the key chains to follow handovers with, or null to report handover records as malformed
     * @param trust the sensor's device CA binding in certificate mode (requires chains), else null
     * @return the verification
     */
    public static SensorVerification of(
            String name, ReadingVerifier verifier, KeyChainFollower chains, DeviceCaTrust trust) {
        return new SensorVerification(name, verifier, chains, trust);
    }

    private static <K, V> Map<K, V> lru(int size) {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > size;
            }
        };
    }

    /**
     * The sensor's name.
     *
     * @return the name given to the pipeline
     */
    public String name() {
        return name;
    }

    /**
     * The sensor's reading verifier (its trusted keys, replay state and accepted records).
     *
     * @return the verifier
     */
    public ReadingVerifier verifier() {
        return verifier;
    }

    /**
     * Where a (re)connecting operator's backfill from the sensor's history starts (see
     * {@link ReadingVerifier#backfillFrom()}).
     *
     * @return the start time, or empty if there is nothing to position by
     */
    public Optional<Instant> backfillFrom() {
        return verifier.backfillFrom();
    }

    /**
     * Judges one value of the sensor's record node.
     *
     * @param value the value as received
     * @param history what the sensor keeps about its keys, asked only to catch up on missed handovers
     * @return what it came to; deferred if the sensor had to be asked and could not be
     */
    public Judgement judge(ReceivedValue value, KeyHistory history) {
        return judge(value, history, true);
    }

    /**
     * Judges consecutive values of the record node, such as one page of the sensor's history, as
     * {@link #judge} would one by one, except that the replay marks of the readings accepted among
     * them are made durable together, by one flush, before this returns: none of them is reported
     * {@code ACCEPTED} before its mark is durable, and if that flush fails each of them is
     * {@code STATE_ERROR} instead (with no gap reported before it). Stops at the first value that is
     * deferred.
     *
     * @param values the values as received, in publication order
     * @param history what the sensor keeps about its keys, asked only to catch up on missed handovers
     * @return one judgement per value judged, in order; if the last one is {@linkplain
     *     Judgement#deferred() deferred}, it and the values after it were not judged and must be
     *     delivered again
     */
    public List<Judgement> judgeAll(List<ReceivedValue> values, KeyHistory history) {
        List<Judgement> out = new ArrayList<>(values.size());
        boolean unflushed = false;
        for (ReceivedValue v : values) {
            Judgement j = judge(v, history, false);
            out.add(j);
            if (j.deferred()) {
                break;
            }
            unflushed |= UnflushedBatch.acceptsAny(j);
        }
        if (unflushed) {
            try {
                verifier.sync();
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.ERROR, name + ": replay marks cannot be made durable", e);
                return UnflushedBatch.notAccepted(out, "replay state: " + e.getMessage());
            }
        }
        return out;
    }

    private Judgement judge(ReceivedValue value, KeyHistory history, boolean flush) {
        try {
            return decide(value, history, flush);
        } catch (RuntimeException e) {
            // Nothing a sensor publishes may stop the operator.
            LOG.log(Level.ERROR, name + ": unexpected failure judging a value", e);
            return new Judgement(
                    false,
                    List.of(reading(
                            -1,
                            verifier.malformed(
                                    -1,
                                    "operator failed on this value: "
                                            + e.getClass().getSimpleName()),
                            null,
                            null,
                            value.receivedAt())));
        }
    }

    private Judgement decide(ReceivedValue value, KeyHistory history, boolean flush) {
        Instant receivedAt = value.receivedAt();
        byte[] bytes = value.bytes();
        if (bytes == null) {
            return one(reading(
                    -1, verifier.malformed(-1, "record node holds " + value.description()), null, null, receivedAt));
        }
        if (chains != null && isHandover(bytes)) {
            return handover(bytes, receivedAt, value.live(), history);
        }
        if (KeyCertificateChain.hasMagic(bytes)) {
            // Not a reading: the certificates of the key the next handover introduces.
            publishedCertificates = decodeCertificates(bytes);
            return Judgement.NOTHING;
        }
        SignedRecord record;
        try {
            record = SignedRecord.decode(bytes);
        } catch (IllegalArgumentException e) {
            return one(reading(
                    -1, verifier.malformed(-1, "undecodable record: " + e.getMessage()), null, null, receivedAt));
        }
        byte[] digest = record.contentDigest();
        byte[] judged = recentlyJudged.get(record.sequence());
        if (judged != null && MessageDigest.isEqual(judged, digest)) {
            return Judgement.NOTHING; // this very publication was judged already (from the history, or twice)
        }
        long verifyStart = System.nanoTime();
        List<Observation> out = new ArrayList<>();
        if (chains != null && !verifier.trusts(record.keyId())) {
            // A key this operator has not followed to (yet): its handover comes first from the
            // sensor's list. A reading is never judged before the operator could ask for it.
            Optional<List<Observation>> caught = catchUp(receivedAt, history);
            if (caught.isEmpty()) {
                return Judgement.DEFERRED;
            }
            out.addAll(caught.get());
        }
        recentlyJudged.put(record.sequence(), digest);
        RecordCheck check = verifier.check(record, flush);
        if (check.verdict().reason() == Verdict.Reason.UNKNOWN_KEY) {
            // The sensor has no verified handover to this key (now): judged again if a later
            // delivery brings the record once more.
            recentlyJudged.remove(record.sequence());
        }
        long verdictAt = System.nanoTime();
        for (Verdict.Gap g : check.skipped()) {
            out.add(new Observation(
                    name,
                    record.sequence(),
                    dev.pqsign.telemetry.VerdictEvent.skipped(name, record.keyId(), g, receivedAt)
                            .verdict(),
                    null,
                    null,
                    record,
                    receivedAt,
                    g));
        }
        for (Verdict.Gap g : check.gaps()) {
            out.add(new Observation(
                    name,
                    record.sequence(),
                    gapVerdict(g, record.keyId(), receivedAt),
                    null,
                    null,
                    record,
                    receivedAt,
                    g));
        }
        LatencyRecord latency = new LatencyRecord(
                record.signNanos(),
                value.receivedNanos() - record.publishNanoTime(),
                verdictAt - verifyStart,
                verdictAt - record.signStartNanoTime());
        out.add(new Observation(
                name,
                record.sequence(),
                check.verdict(),
                record.reading(),
                latency,
                record,
                receivedAt,
                null,
                null,
                value.live()));
        return new Judgement(false, out);
    }

    private Verdict gapVerdict(Verdict.Gap g, KeyId key, Instant receivedAt) {
        return dev.pqsign.telemetry.VerdictEvent.gap(name, key, g, receivedAt).verdict();
    }

    private Observation reading(
            long sequence, Verdict verdict, SignedRecord record, LatencyRecord latency, Instant receivedAt) {
        return new Observation(
                name, sequence, verdict, record == null ? null : record.reading(), latency, record, receivedAt, null);
    }

    private static Judgement one(Observation o) {
        return new Judgement(false, List.of(o));
    }

    /** A key handover record starts with its own magic, distinct from a signed record's. */
    static boolean isHandover(byte[] value) {
        return value.length >= 4 && value[0] == 'P' && value[1] == 'Q' && value[2] == 'H' && value[3] == 'O';
    }

    private Judgement handover(byte[] value, Instant receivedAt, boolean live, KeyHistory history) {
        HandoverCheck check;
        try {
            check = judgeHandover(value, history);
            if (!live && check.outcome() == HandoverOutcome.ALREADY_FOLLOWED) {
                // Served again by a backfill that starts before it: judged once, like a reading.
                return Judgement.NOTHING;
            }
            List<Observation> out = new ArrayList<>();
            if (check.outcome() == HandoverOutcome.OUT_OF_ORDER) {
                Optional<List<Observation>> caught = catchUp(receivedAt, history);
                if (caught.isEmpty()) {
                    return Judgement.DEFERRED;
                }
                out.addAll(caught.get());
                if (!caught.get().isEmpty()) {
                    // The handovers in between came from the sensor's list, this one with them.
                    check = judgeHandover(value, history);
                    if (check.outcome() == HandoverOutcome.ALREADY_FOLLOWED) {
                        return new Judgement(false, out);
                    }
                }
            }
            out.addAll(announce(check, receivedAt));
            return new Judgement(false, out);
        } catch (IOException e) {
            // What the handover needs (the handovers before it, its key's certificates) is in the
            // sensor's history: judged when it can be read again.
            return Judgement.DEFERRED;
        }
    }

    /**
     * Judges a handover record from the record node. In certificate mode the next handover needs
     * its key's chain: one from the history comes without the chain the sensor published before it
     * live, so it is looked up in the sensor's list of chains.
     */
    private HandoverCheck judgeHandover(byte[] value, KeyHistory history) throws IOException {
        KeyCertificateChain certificates = publishedCertificates;
        if (trust != null && isNext(value)) {
            certificates = new SensorCertificates(history).forHandover(value);
        }
        return chains.receive(value, verifier, trust, certificates, Instant.now());
    }

    /**
     * Catches up on handovers the operator missed (it was away while the sensor rolled over, and
     * the delivered values did not bring them): follows, in order, each handover of the sensor's
     * list newer than its chain — in certificate mode each with its key's certificate chain — or,
     * from a sensor without a list, its latest handover if it is the next one.
     *
     * @return what was announced (empty list: nothing to follow), or empty if the sensor cannot be asked
     */
    private Optional<List<Observation>> catchUp(Instant receivedAt, KeyHistory history) {
        try {
            List<Observation> out = new ArrayList<>();
            Optional<List<byte[]>> list = history.handovers();
            if (list.isPresent()) {
                SensorCertificates certificates = new SensorCertificates(history);
                for (byte[] record : list.get()) {
                    if (!isNewer(record)) {
                        continue; // followed already: skipped without a verdict
                    }
                    HandoverCheck check =
                            chains.receive(record, verifier, trust, certificates.forHandover(record), Instant.now());
                    if (check.outcome() == HandoverOutcome.ALREADY_FOLLOWED) {
                        continue; // the same handover listed twice
                    }
                    if (check.outcome() != HandoverOutcome.FOLLOWED) {
                        // The chain is stuck there: the later ones cannot follow. Raised once, not
                        // again for every reading of the key it would have introduced.
                        if (!alreadyRefused(check)) {
                            out.addAll(announce(check, receivedAt));
                        }
                        break;
                    }
                    out.addAll(announce(check, receivedAt));
                }
                return Optional.of(out);
            }
            KeyHistory.Latest latest = history.latest();
            if (latest.handover().length == 0) {
                return Optional.of(out);
            }
            KeyCertificateChain certificates =
                    latest.certificates().length > 0 ? decodeCertificates(latest.certificates()) : null;
            HandoverCheck before = chains.receive(latest.handover(), verifier, trust, certificates, Instant.now());
            if (before.outcome() == HandoverOutcome.FOLLOWED) {
                out.addAll(announce(before, receivedAt));
            }
            // otherwise already followed (the key is not this sensor's), or not the next one
            return Optional.of(out);
        } catch (IOException e) {
            // The sensor went away or did not answer in time: whether it has a handover to this
            // key is not known, so nothing that depends on it may be judged now.
            LOG.log(Level.DEBUG, "{0}: cannot read the key handovers: {1}", name, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Whether a handover from the sensor's list is newer than the chain it belongs to (an
     * undecodable one counts as newer: the follower judges it and reports it as malformed).
     */
    private boolean isNewer(byte[] record) {
        try {
            SignedKeyHandover h = SignedKeyHandover.decode(record);
            KeyChain chain = chains.chain(h.statement().chainId());
            return chain == null || h.statement().sequence() > chain.current().generation();
        } catch (KeyFormatException e) {
            return true;
        }
    }

    /** Whether a handover record is the next one of the chain it belongs to. */
    private boolean isNext(byte[] record) {
        try {
            SignedKeyHandover h = SignedKeyHandover.decode(record);
            KeyChain chain = chains.chain(h.statement().chainId());
            return chain != null && h.statement().sequence() == chain.current().generation() + 1;
        } catch (KeyFormatException e) {
            return false;
        }
    }

    /**
     * The certificate chains a sensor keeps for its keys, for handovers judged in certificate mode:
     * the chain the sensor published on its record node if it certifies the handover's new key (the
     * live case), else the one for that key in the sensor's list of chains (read once, when first
     * needed), else, from a sensor without that list, its latest chain. Which chain goes with which
     * handover is decided by the key its certificate names; whether that chain is acceptable is the
     * follower's decision ({@link DeviceCaTrust}), as for a live one.
     */
    private final class SensorCertificates {
        private final KeyHistory history;
        private Map<PqPublicKey, KeyCertificateChain> byKey;

        SensorCertificates(KeyHistory history) {
            this.history = history;
        }

        /** The chain for the new key of {@code record}; null outside certificate mode, or if the sensor has none. */
        KeyCertificateChain forHandover(byte[] record) throws IOException {
            if (trust == null) {
                return null;
            }
            PqPublicKey key;
            try {
                key = SignedKeyHandover.decode(record).statement().newKey();
            } catch (KeyFormatException e) {
                return publishedCertificates; // judged (and reported as malformed) by the follower
            }
            KeyCertificateChain published = publishedCertificates;
            if (published != null && certifies(published, key)) {
                return published;
            }
            if (byKey == null) {
                byKey = load();
            }
            return byKey.get(key);
        }

        private Map<PqPublicKey, KeyCertificateChain> load() throws IOException {
            Map<PqPublicKey, KeyCertificateChain> out = new HashMap<>();
            Optional<List<byte[]>> list = history.certificateChains();
            List<byte[]> chainsKept =
                    list.isPresent() ? list.get() : List.of(history.latest().certificates());
            for (byte[] b : chainsKept) {
                if (b.length == 0) {
                    continue;
                }
                KeyCertificateChain c = decodeCertificates(b);
                if (c != null) {
                    try {
                        out.put(c.leaf().publicKey(), c);
                    } catch (RuntimeException e) {
                        LOG.log(Level.WARNING, "{0}: key certificate chain: {1}", name, e.getMessage());
                    }
                }
            }
            return out;
        }
    }

    private static boolean certifies(KeyCertificateChain chain, PqPublicKey key) {
        try {
            return chain.leaf().publicKey().equals(key);
        } catch (RuntimeException e) {
            return false; // the follower reports what is wrong with it
        }
    }

    /** A published key certificate chain, or null (logged) if it cannot be decoded: a handover then lacks it. */
    private KeyCertificateChain decodeCertificates(byte[] value) {
        try {
            return KeyCertificateChain.decode(value);
        } catch (KeyFormatException e) {
            LOG.log(Level.WARNING, "{0}: undecodable key certificate chain: {1}", name, e.getMessage());
            return null;
        }
    }

    private static String digestHex(SignedKeyHandover h) {
        return Hex.encode(Digests.sha256().digest(h.encode()));
    }

    /** Whether this very handover was refused (an alarm raised) before. */
    private boolean alreadyRefused(HandoverCheck check) {
        return check.handover() != null && refused.containsKey(digestHex(check.handover()));
    }

    /** The observations of a handover check: the retired key's gaps, then the handover itself. */
    private List<Observation> announce(HandoverCheck check, Instant receivedAt) {
        if (check.outcome().isAlarm() && check.handover() != null) {
            refused.put(digestHex(check.handover()), Boolean.TRUE);
        }
        List<Observation> out = new ArrayList<>();
        for (Verdict.Gap g : check.gaps()) {
            Verdict v = gapVerdict(g, KeyId.of(check.handover().statement().oldKeyId()), receivedAt);
            out.add(new Observation(name, -1, v, null, null, null, receivedAt, g, check));
        }
        out.add(new Observation(name, -1, check.verdict(), null, null, null, receivedAt, null, check));
        return out;
    }
}
