package dev.pqsign.kafka.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pqsign.kafka.SensorIdentity;
import dev.pqsign.kafka.SensorTrust;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.VerdictEvent;
import dev.pqsign.telemetry.VerdictJsonl;
import dev.pqsign.telemetry.operator.AcceptedStore;
import dev.pqsign.telemetry.operator.EvidenceSink;
import dev.pqsign.telemetry.operator.KeyChainFollower;
import dev.pqsign.telemetry.operator.KeyHistory;
import dev.pqsign.telemetry.operator.Observation;
import dev.pqsign.telemetry.operator.OperatorPipeline;
import dev.pqsign.telemetry.operator.ReadingVerifier;
import dev.pqsign.telemetry.operator.ReceivedValue;
import dev.pqsign.telemetry.operator.SensorVerification;
import dev.pqsign.x509.PqPublicKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Verifies one record of {@code pqsign.readings} the way {@code pqsign operator} does, with the
 * telemetry module's rules ({@link ReadingVerifier}, {@link KeyChainFollower}); only where they keep
 * their state differs: per sensor, in the task's key-value store (changelogged), keyed
 * {@code c/SENSOR/CHAIN} (followed key chain), {@code m/SENSOR/KEY} (replay mark),
 * {@code a/SENSOR/KEY/SLOT} (the record accepted under an index, slot = index mod
 * {@value #ACCEPTED_SLOTS}, to tell a duplicate from index reuse).
 *
 * <p>The verifier objects are built afresh from the store for every record: under
 * {@code exactly_once_v2} an aborted transaction rolls the store back, and nothing cached in memory
 * may then disagree with it. Only the parsed public keys are cached (they never change).
 */
public final class VerifyProcessor implements Processor<byte[], byte[], byte[], byte[]> {

    /** Accepted records remembered per key (as the operator's default). */
    public static final int ACCEPTED_SLOTS = 1024;

    public static final String VERIFIED = "verified";
    public static final String REJECTED = "rejected";
    public static final String DEAD_LETTER = "dead-letter";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final SensorTrust trust;
    private final String storeName;
    private final Map<KeyId, ReadingVerifier.TrustedKey> parsedKeys = new HashMap<>();
    private ProcessorContext<byte[], byte[]> context;
    private KeyValueStore<String, byte[]> store;

    public VerifyProcessor(SensorTrust trust, String storeName) {
        this.trust = trust;
        this.storeName = storeName;
    }

    @Override
    public void init(ProcessorContext<byte[], byte[]> context) {
        this.context = context;
        this.store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        Instant receivedAt = Instant.ofEpochMilli(record.timestamp());
        String sensor;
        try {
            sensor = SensorIdentity.decode(record.key());
        } catch (IllegalArgumentException e) {
            deadLetter(record, null, e.getMessage());
            return;
        }
        byte[] value = record.value();
        if (value == null || value.length < 4) {
            deadLetter(record, sensor, "value has " + (value == null ? "no" : value.length) + " bytes");
            return;
        }
        boolean handover = value[0] == 'P' && value[1] == 'Q' && value[2] == 'H' && value[3] == 'O';
        SignedRecord signed = null;
        if (!handover) {
            try {
                signed = SignedRecord.decode(value);
            } catch (IllegalArgumentException e) {
                deadLetter(record, sensor, "not a signed record or key handover: " + e.getMessage());
                return;
            }
        }
        PqPublicKey first = trust.pinned(sensor);
        if (first == null) {
            String why = "sensor " + sensor + " is not configured in this verifier";
            if (signed == null) {
                deadLetter(record, sensor, "key handover of an unknown sensor: " + why);
            } else {
                emit(
                        record,
                        VerdictEvent.of(
                                sensor, new Verdict(Reason.UNKNOWN_KEY, signed.index(), why), signed, receivedAt));
            }
            return;
        }
        AcceptedEntries accepted = new AcceptedEntries(sensor);
        SensorVerification verification;
        try {
            verification = OperatorPipeline.over(new OperatorPipeline.Stores(
                            key -> new StoreEntry(store, "m/" + sensor + "/" + key.hex()),
                            accepted,
                            accepted,
                            new ChainEntries(sensor)))
                    .sensor(sensor, first);
            // the follower trusts freshly parsed keys; the cached ones keep their verification caches
            ReadingVerifier verifier = verification.verifier();
            for (ReadingVerifier.TrustedKey k : verifier.trustedKeys()) {
                verifier.trust(parsedKeys.computeIfAbsent(k.id(), id -> k));
            }
        } catch (IOException | RuntimeException e) {
            Verdict v = new Verdict(
                    Reason.STATE_ERROR, signed == null ? -1 : signed.index(), "verifier state: " + e.getMessage());
            emit(record, VerdictEvent.of(sensor, v, signed, receivedAt));
            return;
        }
        SensorVerification.Judgement judged = verification.judge(
                new ReceivedValue(value, null, true, receivedAt, System.nanoTime()), KeyHistory.NONE);
        for (Observation o : judged.observations()) {
            if (o.handover() != null && o.handover().handover() == null) {
                deadLetter(
                        record,
                        sensor,
                        "undecodable key handover: " + o.handover().detail());
                continue;
            }
            if (!o.isReading()) {
                emit(record, o.event());
                continue;
            }
            ObjectNode json = VerdictJsonl.toJson(o.event());
            if (o.verdict().reason() == Reason.INDEX_REUSE && accepted.evidence != null) {
                json.set("evidence", accepted.evidence);
            }
            forward(record, json, o.verdict().alarm() ? REJECTED : VERIFIED);
        }
    }

    /**
     * The accepted records of one sensor in the store, keyed {@code a/SENSOR/KEY/SLOT} (slot = index
     * mod {@value #ACCEPTED_SLOTS}); index-reuse evidence goes into the verdict record itself.
     */
    private final class AcceptedEntries implements AcceptedStore, EvidenceSink {
        private final String sensor;
        /** The evidence of the record being judged, for its verdict. */
        ObjectNode evidence;

        AcceptedEntries(String sensor) {
            this.sensor = sensor;
        }

        private String key(KeyId keyId, long index) {
            return "a/" + sensor + "/" + keyId.hex() + "/" + Long.remainderUnsigned(index, ACCEPTED_SLOTS);
        }

        @Override
        public void put(SignedRecord r, int signatureBytes) {
            store.put(key(r.keyId(), r.index()), r.encode());
        }

        @Override
        public Optional<SignedRecord> get(KeyId keyId, long index, int signatureBytes) {
            byte[] b = store.get(key(keyId, index));
            if (b == null) {
                return Optional.empty();
            }
            try {
                SignedRecord earlier = SignedRecord.decode(b);
                return earlier.index() == index && earlier.keyId().equals(keyId)
                        ? Optional.of(earlier)
                        : Optional.empty();
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }

        @Override
        public String save(SignedRecord firstRecord, SignedRecord second) {
            evidence = MAPPER.createObjectNode();
            evidence.put("first", Base64.getEncoder().encodeToString(firstRecord.encode()));
            evidence.put("second", Base64.getEncoder().encodeToString(second.encode()));
            return "evidence in this record";
        }
    }

    private void emit(Record<byte[], byte[]> in, VerdictEvent e) {
        boolean alarm = e.handover() != null
                ? e.handover().outcome().isAlarm()
                : e.verdict().alarm();
        forward(in, VerdictJsonl.toJson(e), alarm ? REJECTED : VERIFIED);
    }

    private void forward(Record<byte[], byte[]> in, ObjectNode json, String child) {
        byte[] out = json.toString().getBytes(StandardCharsets.UTF_8);
        context.forward(in.withValue(out), child);
    }

    private void deadLetter(Record<byte[], byte[]> in, String sensor, String reason) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("reason", reason);
        if (sensor == null) {
            o.putNull("sensor");
        } else {
            o.put("sensor", sensor);
        }
        Optional<RecordMetadata> m = context.recordMetadata();
        o.put("topic", m.map(RecordMetadata::topic).orElse(null));
        if (m.isPresent()) {
            o.put("partition", m.get().partition());
            o.put("offset", m.get().offset());
        }
        o.put("received_at", Instant.ofEpochMilli(in.timestamp()).toString());
        Base64.Encoder b64 = Base64.getEncoder();
        if (in.key() == null) {
            o.putNull("key");
        } else {
            o.put("key", b64.encodeToString(in.key()));
        }
        if (in.value() == null) {
            o.putNull("value");
        } else {
            o.put("value", b64.encodeToString(in.value()));
        }
        context.forward(in.withValue(o.toString().getBytes(StandardCharsets.UTF_8)), DEAD_LETTER);
    }

    /** The followed key chains of one sensor, in the store. */
    private final class ChainEntries implements KeyChainFollower.ChainStore {
        private final String sensor;

        ChainEntries(String sensor) {
            this.sensor = sensor;
        }

        @Override
        public Optional<byte[]> load(String chainIdHex) {
            return Optional.ofNullable(store.get(describe(chainIdHex))).map(byte[]::clone);
        }

        @Override
        public void store(String chainIdHex, byte[] state) {
            store.put(describe(chainIdHex), state.clone());
        }

        @Override
        public String describe(String chainIdHex) {
            return "c/" + sensor + "/" + chainIdHex;
        }
    }
}
