package dev.pqsign.telemetry.operator;

import dev.pqsign.core.Verifier;
import dev.pqsign.telemetry.EmbeddedIndex;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.ReadingMessage;
import dev.pqsign.telemetry.SignedReading;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.SkipNotice;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.Verdict.Reason;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator's verification policy for published readings, applied in this order:
 * key and parameter set pinned ({@link Reason#UNKNOWN_KEY}), sizes within bounds
 * ({@link Reason#MALFORMED}), index embedded in the signature equal to the published index
 * ({@link Reason#INDEX_MISMATCH}), signature valid over the canonical {@link ReadingMessage}
 * ({@link Reason#BAD_SIGNATURE}), index fresh for the key and durably recorded
 * ({@link Reason#REPLAYED}, {@link Reason#STATE_ERROR}). The signature is checked before freshness
 * so that a tampered copy of an old reading is reported as tampered, and so that a forged reading
 * can never advance the replay state.
 *
 * <p>Never throws on attacker-controlled input; every rejection is logged with its reason at
 * WARNING level (logger {@code dev.pqsign.telemetry.operator.ReadingVerifier}). Thread-safe.
 */
public final class ReadingVerifier {

    private static final System.Logger LOG = System.getLogger(ReadingVerifier.class.getName());

    /**
     * A pinned sensor key.
     *
     * @param id SHA-256 of the key's public key encoding
     * @param verifier verifier for that public key
     * @param embeddedIndex how to read the index inside the scheme's signatures ({@link EmbeddedIndex#NONE} if none)
     */
    public record TrustedKey(KeyId id, Verifier verifier, EmbeddedIndex embeddedIndex) {
        /**
         * Checks that every part is given.
         *
         * @param id SHA-256 of the key's public key encoding
         * @param verifier verifier for that public key
         * @param embeddedIndex how to read the index inside the scheme's signatures ({@link EmbeddedIndex#NONE} if
         *     none)
         */
        public TrustedKey {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(verifier, "verifier");
            Objects.requireNonNull(embeddedIndex, "embeddedIndex");
        }

        /**
         * Pins a public key: its id is the SHA-256 of {@code publicKeyEncoding} (for a certificate:
         * the raw key of its SubjectPublicKeyInfo, e.g. {@code PqCertificate.publicKey().rawEncoding()}).
         *
         * @param publicKeyEncoding the public key's standard encoding
         * @param verifier verifier for that public key
         * @param embeddedIndex how to read the index inside the scheme's signatures ({@link EmbeddedIndex#NONE} if
         *     none)
         * @return the trusted key
         */
        public static TrustedKey forPublicKey(
                byte[] publicKeyEncoding, Verifier verifier, EmbeddedIndex embeddedIndex) {
            return new TrustedKey(KeyId.ofPublicKey(publicKeyEncoding), verifier, embeddedIndex);
        }

        /**
         * The pinned parameter-set name.
         *
         * @return the verifier's canonical set name
         */
        public String parameterSetName() {
            return verifier.parameterSet().setName();
        }
    }

    /** Most rejected indices remembered per key above its mark (so that they are not reported as gaps too). */
    static final int MAX_REPORTED_AHEAD = 4096;

    private final ReplayGuard guard;
    private final Map<KeyId, TrustedKey> keys = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Keys handed over to a newer key: the index of their handover statement. */
    private final Map<KeyId, Long> retiredAt = new ConcurrentHashMap<>();

    private final AcceptedStore accepted;
    private final EvidenceSink evidence;
    private final SignatureCost signatureCost = new SignatureCost();
    /** Per key: indices above the key's mark already reported with a rejection (not gaps). */
    private final Map<KeyId, TreeSet<Long>> reportedAhead = new HashMap<>();

    /**
     * A verifier without accepted-records memory: every index at or below a key's last accepted one
     * is {@link Reason#REPLAYED}.
     *
     * @param guard persisted replay state
     * @param trusted the pinned keys, at least one
     */
    public ReadingVerifier(ReplayGuard guard, Collection<TrustedKey> trusted) {
        this(guard, trusted, (AcceptedStore) null, (EvidenceSink) null);
    }

    /**
     * A verifier that also remembers accepted records, so that a reading delivered again is
     * {@link Reason#DUPLICATE} and a different valid reading under an accepted index is
     * {@link Reason#INDEX_REUSE} (both records saved under {@code evidenceDir}).
     *
     * @param guard persisted replay state
     * @param trusted the pinned keys, at least one
     * @param accepted the accepted records (null: every older index is {@link Reason#REPLAYED})
     * @param evidenceDir where index-reuse evidence is written (required with {@code accepted})
     */
    public ReadingVerifier(
            ReplayGuard guard, Collection<TrustedKey> trusted, AcceptedRecords accepted, Path evidenceDir) {
        this(guard, trusted, accepted, evidenceDir == null ? null : EvidenceSink.files(evidenceDir));
        if ((accepted == null) != (evidenceDir == null)) {
            throw new IllegalArgumentException("accepted records and evidence directory go together");
        }
    }

    /**
     * A verifier that remembers accepted records in any store, keeping index-reuse evidence in
     * {@code evidence}.
     *
     * @param guard persisted replay state
     * @param trusted the pinned keys, at least one
     * @param accepted the accepted records (null: every older index is {@link Reason#REPLAYED})
     * @param evidence where index-reuse evidence is kept (required with {@code accepted})
     */
    public ReadingVerifier(
            ReplayGuard guard, Collection<TrustedKey> trusted, AcceptedStore accepted, EvidenceSink evidence) {
        if ((accepted == null) != (evidence == null)) {
            throw new IllegalArgumentException("accepted records and evidence go together");
        }
        this.accepted = accepted;
        this.evidence = evidence;
        this.guard = Objects.requireNonNull(guard, "guard");
        for (TrustedKey k : trusted) {
            keys.put(k.id(), k);
        }
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("at least one trusted key is required");
        }
    }

    /**
     * What checking signatures has cost this verifier so far.
     *
     * @return the live counters
     */
    public SignatureCost signatureCost() {
        return signatureCost;
    }

    /**
     * Whether readings of {@code keyId} can be judged: it is pinned, or a verified handover made it trusted.
     *
     * @param keyId the key id
     * @return whether the key is trusted
     */
    public boolean trusts(KeyId keyId) {
        return keys.containsKey(keyId);
    }

    /**
     * Trusts one more key from now on: the new key of a key handover the operator verified.
     *
     * @param key the new key; replaces a key with the same id
     */
    public void trust(TrustedKey key) {
        keys.put(key.id(), Objects.requireNonNull(key, "key"));
    }

    /**
     * Retires a key at the index its handover statement was signed under: its readings below that
     * index stay acceptable (they may arrive late), readings at or above it are
     * {@link Reason#RETIRED_KEY}. Returns the indices below the handover index that never arrived
     * since the key's last accepted reading (gaps; from index 0 if no reading of the key was ever accepted).
     *
     * @param keyId the retired key
     * @param handoverIndex the index its handover statement was signed under; of two calls the lower counts
     * @return the gaps, ascending; empty also if the key's replay state cannot be read
     */
    public List<Verdict.Gap> retire(KeyId keyId, long handoverIndex) {
        Objects.requireNonNull(keyId, "keyId");
        retiredAt.merge(keyId, handoverIndex, Math::min);
        long before;
        try {
            before = guard.lastAccepted(keyId);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        List<Verdict.Gap> gaps = new ArrayList<>();
        if (handoverIndex <= before + 1) {
            return gaps;
        }
        synchronized (reportedAhead) {
            TreeSet<Long> ahead = reportedAhead.computeIfAbsent(keyId, k -> new TreeSet<>());
            long next = before + 1;
            for (long r : ahead.subSet(next, true, handoverIndex, false)) {
                if (r > next) {
                    gaps.add(new Verdict.Gap(next, r - 1));
                }
                next = r + 1;
            }
            if (handoverIndex > next) {
                gaps.add(new Verdict.Gap(next, handoverIndex - 1));
            }
        }
        return gaps;
    }

    /**
     * Convenience for one pinned key.
     *
     * @param guard persisted replay state
     * @param trusted the pinned key
     */
    public ReadingVerifier(ReplayGuard guard, TrustedKey trusted) {
        this(guard, List.of(trusted));
    }

    /**
     * Checks one reading as published.
     *
     * @param claimedKey the key id the sensor claims to sign with; {@code null} means "the only
     *     pinned key" (allowed only when exactly one key is pinned)
     * @param claimedSetName the parameter-set name the sensor publishes; {@code null} to skip the check
     * @param reading the published reading, index and signature
     * @return the verdict; {@link Reason#ACCEPTED} only once the replay state has advanced durably
     */
    public Verdict check(KeyId claimedKey, String claimedSetName, SignedReading reading) {
        Verdict v;
        try {
            v = decide(claimedKey, claimedSetName, reading, null, true);
        } catch (RuntimeException e) {
            // A verifier must not throw on bad input; if one does anyway, reject instead of crashing.
            v = Verdict.of(
                    Reason.MALFORMED,
                    reading.index(),
                    "verifier failed: " + e.getClass().getSimpleName());
        }
        if (!v.accepted()) {
            LOG.log(Level.WARNING, "rejected reading index {0}: {1} ({2})", v.index(), v.reason(), v.detail());
        }
        return v;
    }

    /**
     * Checks one record as received: the same policy as {@link #check(KeyId, String, SignedReading)}
     * with the key id and parameter set the record states, plus what only a verifier that sees
     * every record can tell: the index ranges skipped since the key's last accepted reading (gaps;
     * a key's sequence starts at index 0), a record identical to an accepted one
     * ({@link Reason#DUPLICATE}) and a different valid record under an accepted index
     * ({@link Reason#INDEX_REUSE}).
     *
     * @param record the record as received
     * @return the gaps noticed and the record's verdict
     */
    public RecordCheck check(SignedRecord record) {
        return check(record, true);
    }

    /**
     * As {@link #check(SignedRecord)}; with {@code flush} false an accepted record's replay mark
     * may be only written, not yet durable: its {@link Reason#ACCEPTED} verdict must not be
     * reported before {@link #sync()} returned (and is {@link Reason#STATE_ERROR} if that fails).
     */
    RecordCheck check(SignedRecord record, boolean flush) {
        Objects.requireNonNull(record, "record");
        RecordCheck c;
        try {
            c = decideRecord(record, flush);
        } catch (RuntimeException e) {
            c = new RecordCheck(
                    List.of(),
                    Verdict.of(
                            Reason.MALFORMED,
                            record.index(),
                            "verifier failed: " + e.getClass().getSimpleName()));
        }
        Verdict v = c.verdict();
        if (v.alarm()) {
            LOG.log(Level.WARNING, "rejected reading index {0}: {1} ({2})", v.index(), v.reason(), v.detail());
        }
        for (Verdict.Gap g : c.gaps()) {
            LOG.log(Level.WARNING, "readings {0}..{1} missing", g.from(), g.to());
        }
        return c;
    }

    /**
     * Makes the replay marks of the records accepted by {@code check(record, false)} so far durable, with one flush.
     *
     * @throws IOException if they cannot be made durable: none of those records may be reported accepted
     */
    void sync() throws IOException {
        guard.sync();
    }

    private RecordCheck decideRecord(SignedRecord record, boolean flush) {
        KeyId keyId = record.keyId();
        TrustedKey key = keys.get(keyId);
        if (key == null) {
            return new RecordCheck(List.of(), decide(keyId, record.parameterSetName(), record.reading(), null, flush));
        }
        long index = record.index();
        Long retired = retiredAt.get(keyId);
        if (retired != null && index >= retired) {
            return new RecordCheck(
                    List.of(),
                    Verdict.of(
                            Reason.RETIRED_KEY,
                            index,
                            "key " + keyId.hex().substring(0, 16) + "… was handed over at index " + retired
                                    + "; it signs nothing at or after that index"));
        }
        long before;
        try {
            before = guard.lastAccepted(keyId);
        } catch (IOException | RuntimeException e) {
            return new RecordCheck(List.of(), Verdict.of(Reason.STATE_ERROR, index, "replay state: " + e.getMessage()));
        }
        Verdict v = decide(keyId, record.parameterSetName(), record.reading(), record, flush);
        if (v.reason() == Reason.REPLAYED && accepted != null) {
            v = compareWithAccepted(key, record, v);
        }
        synchronized (reportedAhead) {
            TreeSet<Long> ahead = reportedAhead.computeIfAbsent(keyId, k -> new TreeSet<>());
            if (!v.accepted()) {
                if (v.alarm() && index > before && v.reason() != Reason.UNKNOWN_KEY) {
                    ahead.add(index);
                    if (ahead.size() > MAX_REPORTED_AHEAD) {
                        ahead.pollFirst();
                    }
                }
                return new RecordCheck(List.of(), v);
            }
            // A key's sequence starts at its first index, 0: what never arrived before the first
            // reading accepted from it (signed before the operator first connected, or while it
            // was away across a handover) is reported like any other gap.
            List<Verdict.Gap> gaps = new ArrayList<>();
            long next = before + 1;
            for (long r : ahead.subSet(next, true, index, false)) {
                if (r > next) {
                    gaps.add(new Verdict.Gap(next, r - 1));
                }
                next = r + 1;
            }
            if (index > next) {
                gaps.add(new Verdict.Gap(next, index - 1));
            }
            ahead.headSet(index, true).clear();
            Optional<SkipNotice> notice = SkipNotice.parse(record.reading().reading());
            if (notice.isPresent() && notice.get().to() < index) {
                return split(gaps, notice.get(), v);
            }
            return new RecordCheck(gaps, v);
        }
    }

    /** The gaps before an accepted skip notice, its range taken out of them as skipped. */
    private static RecordCheck split(List<Verdict.Gap> gaps, SkipNotice notice, Verdict v) {
        List<Verdict.Gap> missing = new ArrayList<>();
        List<Verdict.Gap> skipped = new ArrayList<>();
        for (Verdict.Gap g : gaps) {
            long lo = Math.max(g.from(), notice.from());
            long hi = Math.min(g.to(), notice.to());
            if (lo > hi) {
                missing.add(g);
                continue;
            }
            if (g.from() < lo) {
                missing.add(new Verdict.Gap(g.from(), lo - 1));
            }
            skipped.add(new Verdict.Gap(lo, hi));
            if (hi < g.to()) {
                missing.add(new Verdict.Gap(hi + 1, g.to()));
            }
        }
        return new RecordCheck(missing, skipped, v);
    }

    /** An index at or below the key's mark: the same record again, another record under it, or unknown. */
    private Verdict compareWithAccepted(TrustedKey key, SignedRecord record, Verdict replayed) {
        int sigBytes = key.verifier().parameterSet().signatureBytes();
        Optional<SignedRecord> earlier;
        try {
            earlier = accepted.get(key.id(), record.index(), sigBytes);
        } catch (IOException | RuntimeException e) {
            return Verdict.of(Reason.STATE_ERROR, record.index(), "accepted records: " + e.getMessage());
        }
        if (earlier.isEmpty()) {
            return replayed;
        }
        if (earlier.get().sameContent(record)) {
            return Verdict.of(
                    Reason.DUPLICATE,
                    record.index(),
                    "identical to the reading accepted under index " + record.index());
        }
        String where;
        try {
            where = evidence.save(earlier.get(), record);
        } catch (IOException | RuntimeException e) {
            where = "evidence NOT saved: " + e.getMessage();
        }
        return Verdict.of(
                Reason.INDEX_REUSE,
                record.index(),
                "index " + record.index() + " already accepted with a different signed reading; " + where);
    }

    /**
     * Where a (re)connecting operator's backfill from the sensor's history starts: just after the
     * source time of the last record accepted under any pinned key, or {@link Instant#EPOCH}
     * (everything the sensor still holds) if nothing was accepted yet. Empty when there is nothing
     * to position by: no accepted-records memory, or a key whose last accepted record is not
     * remembered (a backfill from an unknown point could only produce false replay alarms).
     *
     * @return the start time, or empty
     */
    public Optional<Instant> backfillFrom() {
        if (accepted == null) {
            return Optional.empty();
        }
        Instant from = null;
        try {
            for (TrustedKey k : keys.values()) {
                long last = guard.lastAccepted(k.id());
                if (last < 0) {
                    continue;
                }
                Optional<SignedRecord> r =
                        accepted.get(k.id(), last, k.verifier().parameterSet().signatureBytes());
                if (r.isEmpty()) {
                    return Optional.empty();
                }
                Instant after = r.get().sourceTime().plusNanos(1);
                if (from == null || after.isAfter(from)) {
                    from = after;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "cannot position the backfill: {0}", e.getMessage());
            return Optional.empty();
        }
        return Optional.of(from == null ? Instant.EPOCH : from);
    }

    /**
     * Accepted records whose verdicts were never written out, oldest first per key (see
     * {@link AcceptedRecords#unreported}); empty without accepted-records memory.
     *
     * @return the records; empty if none
     * @throws IOException if a ring of accepted records cannot be read
     */
    public List<SignedRecord> acceptedUnreported() throws IOException {
        List<SignedRecord> out = new ArrayList<>();
        if (accepted == null) {
            return out;
        }
        for (TrustedKey k : keys.values()) {
            long last = guard.lastAccepted(k.id());
            if (last >= 0) {
                out.addAll(accepted.unreported(
                        k.id(), last, k.verifier().parameterSet().signatureBytes()));
            }
        }
        return out;
    }

    /**
     * Notes that the verdict on an accepted record was written out (no-op without accepted-records memory).
     *
     * @param record the accepted record
     * @throws IOException if the record's ring cannot be written
     */
    public void reported(SignedRecord record) throws IOException {
        TrustedKey k = keys.get(record.keyId());
        if (accepted != null && k != null) {
            accepted.markReported(record, k.verifier().parameterSet().signatureBytes());
        }
    }

    /**
     * Records and logs a reading that could not even be decoded (wrong node types, missing values).
     *
     * @param index the reading's index, or -1 if unknown
     * @param detail what is wrong, one line
     * @return a {@link Reason#MALFORMED} verdict
     */
    public Verdict malformed(long index, String detail) {
        Verdict v = Verdict.of(Reason.MALFORMED, index, detail);
        LOG.log(Level.WARNING, "rejected reading index {0}: {1} ({2})", index, v.reason(), detail);
        return v;
    }

    private Verdict decide(
            KeyId claimedKey, String claimedSetName, SignedReading r, SignedRecord record, boolean flush) {
        long index = r.index();
        TrustedKey key;
        if (claimedKey == null) {
            if (keys.size() != 1) {
                return Verdict.of(Reason.UNKNOWN_KEY, index, "no key id published and several keys pinned");
            }
            synchronized (keys) {
                key = keys.values().iterator().next();
            }
        } else {
            key = keys.get(claimedKey);
            if (key == null) {
                return Verdict.of(Reason.UNKNOWN_KEY, index, "key " + claimedKey.hex() + " is not pinned");
            }
        }
        String setName = key.parameterSetName();
        if (claimedSetName != null && !claimedSetName.equals(setName)) {
            return Verdict.of(
                    Reason.UNKNOWN_KEY,
                    index,
                    "sensor publishes parameter set '" + abbreviate(claimedSetName) + "' but the pinned key is "
                            + setName);
        }
        byte[] readingBytes = r.reading().getBytes(StandardCharsets.UTF_8);
        if (readingBytes.length == 0) {
            return Verdict.of(Reason.MALFORMED, index, "empty reading");
        }
        int expectedSig = key.verifier().parameterSet().signatureBytes();
        if (r.signature().length != expectedSig) {
            return Verdict.of(
                    Reason.MALFORMED,
                    index,
                    "signature has " + r.signature().length + " bytes, " + setName + " signatures have " + expectedSig);
        }
        if (!key.embeddedIndex().isNone()) {
            OptionalLong embedded = key.embeddedIndex().extract(r.signature());
            if (embedded.isEmpty()) {
                return Verdict.of(Reason.MALFORMED, index, "signature too short to carry an index");
            }
            if (embedded.getAsLong() != index) {
                return Verdict.of(
                        Reason.INDEX_MISMATCH,
                        index,
                        "signature carries index " + embedded.getAsLong() + ", published index is " + index);
            }
        }
        byte[] message = ReadingMessage.encode(setName, index, readingBytes);
        if (!signatureCost.verify(key.verifier(), message, r.signature())) {
            return Verdict.of(Reason.BAD_SIGNATURE, index, "signature does not verify");
        }
        try {
            if (record != null && accepted != null && guard.isFresh(key.id(), index)) {
                // Remembered before the mark moves: a crash in between leaves the record known,
                // so its re-delivery is a duplicate rather than a false replay alarm.
                accepted.put(record, expectedSig);
            }
            if (!guard.tryAccept(key.id(), index, flush)) {
                return Verdict.of(
                        Reason.REPLAYED,
                        index,
                        "index " + index + " not above last accepted " + guard.lastAccepted(key.id()));
            }
        } catch (IOException | RuntimeException e) {
            return Verdict.of(Reason.STATE_ERROR, index, "replay state: " + e.getMessage());
        }
        return Verdict.of(Reason.ACCEPTED, index, "ok");
    }

    /** Shortens sensor-supplied text for the log and neutralizes control characters (log injection). */
    private static String abbreviate(String s) {
        String cut = s.length() <= 64 ? s : s.substring(0, 64) + "…";
        StringBuilder sb = new StringBuilder(cut.length());
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            sb.append(Character.isISOControl(c) ? '?' : c);
        }
        return sb.toString();
    }

    /**
     * The pinned keys.
     *
     * @return a snapshot of every trusted key (pinned, or reached by a handover)
     */
    public Collection<TrustedKey> trustedKeys() {
        synchronized (keys) {
            return List.copyOf(keys.values());
        }
    }
}
