package dev.pqsign.opcua.gateway;

import dev.pqsign.core.Hex;
import dev.pqsign.keys.HandoverOutcome;
import dev.pqsign.opcua.Operator;
import dev.pqsign.telemetry.KeyId;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.operator.ConnectionState;
import dev.pqsign.telemetry.operator.Observation;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;

/**
 * What one sensor's folder shows, and how each observation, connection change and key state
 * changes it (docs/gateway.md, "Status rules"). Pure logic: it returns the values that changed,
 * and the namespace puts them on the nodes. Thread-safe.
 *
 * <p>The value leaves ({@code reading}, {@code reading.index}, {@code value}, {@code value.NAME})
 * change only with an ACCEPTED measurement; their status says whether that last good value is still
 * what the sensor stands for: Good, Uncertain_LastUsableValue after a rejected reading,
 * Bad_SecurityChecksFailed after an index reuse, Uncertain_NoCommunicationLastUsableValue while the
 * sensor is not connected, Bad_WaitingForInitialData before the first good value; otherwise the
 * status the sensor's upstream server gave the value, if the sensor signs one
 * ({@link UpstreamReading}).
 */
final class SensorState {

    /** Most {@code value.NAME} variables of one sensor; names beyond them are not served. */
    static final int MAX_NAMED_VALUES = 32;

    /** Longest detail or message text served, in characters. */
    static final int MAX_TEXT = 512;

    /**
     * An accepted measurement to keep in the history.
     *
     * @param sourceTime the served source time
     * @param verdictTime when the verdict reached the gateway
     * @param keyId the signing key
     * @param index its index
     * @param reading the reading text
     */
    record Accepted(Instant sourceTime, Instant verdictTime, KeyId keyId, long index, String reading) {}

    /**
     * An event to raise.
     *
     * @param reason the verdict's reason
     * @param index the verdict's index
     * @param severity 1 … 1000
     * @param message one line
     * @param time when it happened
     */
    record Alarm(Verdict.Reason reason, long index, int severity, String message, Instant time) {}

    /**
     * What one input changed.
     *
     * @param values new values by leaf, in order
     * @param accepted the measurement to keep in the history, if any
     * @param alarm the event to raise, if any
     */
    record Update(Map<String, DataValue> values, Optional<Accepted> accepted, Optional<Alarm> alarm) {}

    private final String sensor;
    /** The last good value of each value leaf (its variant and source time). */
    private final Map<String, Variant> good = new LinkedHashMap<>();

    private final Map<String, Instant> goodSource = new HashMap<>();
    /** When each value leaf last changed, in value or status (its server timestamp). */
    private final Map<String, Instant> goodServer = new HashMap<>();

    private final Map<String, Long> counts = new LinkedHashMap<>();
    /** Why the last good value is no longer current (a rejection since), or null. */
    private Verdict.Reason rejectedSince;

    private boolean connected;
    /**
     * The status the sensor's upstream server gave the last value, or its {@code down}'s: Good for a
     * sensor with another source.
     */
    private StatusCode upstream = StatusCode.GOOD;

    private StatusCode status = new StatusCode(StatusCodes.Bad_WaitingForInitialData);
    /** When the status last changed (the server timestamp of leaves without a value). */
    private Instant statusTime = Instant.now();

    private final Map<String, Object> plain = new HashMap<>();

    SensorState(String sensor) {
        this.sensor = Objects.requireNonNull(sensor, "sensor");
        for (String leaf : GatewayNodes.FIXED_LEAVES) {
            if (leaf.startsWith("count.")) {
                counts.put(leaf, 0L);
            }
        }
    }

    String sensor() {
        return sensor;
    }

    /** The values every node starts with. */
    synchronized Map<String, DataValue> initial(Instant now) {
        Map<String, DataValue> v = new LinkedHashMap<>();
        for (String leaf : GatewayNodes.FIXED_LEAVES) {
            v.put(
                    leaf,
                    new DataValue(
                            Variant.NULL_VALUE, new StatusCode(StatusCodes.Bad_WaitingForInitialData), null, dt(now)));
        }
        counts.forEach((leaf, n) -> v.put(leaf, plain(n, now)));
        v.putAll(valueLeaves());
        return v;
    }

    /** After a restart: the newest reading of the history becomes the last good value again. */
    synchronized Update restore(HistoryFormat.Entry newest, Instant now) {
        Map<String, DataValue> v = new LinkedHashMap<>();
        ReadingValues values = ReadingValues.parse(newest.reading());
        upstream = values.sourceStatus();
        takeGood(newest.reading(), values, newest.index(), newest.sourceTime(), newest.verdictTime());
        statusTime = now;
        status = computeStatus();
        v.putAll(valueLeaves());
        return new Update(v, Optional.empty(), Optional.empty());
    }

    /** What an observation of the operator changes. */
    synchronized Update observe(Observation o, Instant now) {
        Map<String, DataValue> v = new LinkedHashMap<>();
        Verdict verdict = o.verdict();
        Verdict.Reason reason = verdict.reason();
        String word = o.handover() != null && o.gap() == null
                ? reason.name()
                : o.event().verdictWord();
        v.put(GatewayNodes.VERDICT, plain(word, now));
        v.put(GatewayNodes.VERDICT_REASON, plain(reason.name(), now));
        v.put(GatewayNodes.VERDICT_INDEX, plain(verdict.index(), now));
        v.put(GatewayNodes.VERDICT_DETAIL, plain(cut(verdict.detail()), now));
        Accepted accepted = null;
        if (o.gap() != null) {
            if (reason == Verdict.Reason.SKIPPED) {
                count(v, GatewayNodes.COUNT_SKIPPED, o.gap().size(), now);
            } else {
                count(v, GatewayNodes.COUNT_GAPS, 1, now);
                count(v, GatewayNodes.COUNT_MISSING, o.gap().size(), now);
            }
        } else if (o.handover() != null) {
            handover(o, v, now);
        } else {
            accepted = reading(o, v, now);
        }
        int severity = Severity.of(reason);
        Optional<Alarm> alarm = severity == 0
                ? Optional.empty()
                : Optional.of(new Alarm(reason, verdict.index(), severity, message(o), now));
        return new Update(v, Optional.ofNullable(accepted), alarm);
    }

    private void handover(Observation o, Map<String, DataValue> v, Instant now) {
        if (o.handover().outcome().isAlarm()) {
            count(v, GatewayNodes.COUNT_HANDOVERS_REJECTED, 1, now);
        } else if (o.handover().outcome() == HandoverOutcome.FOLLOWED) {
            count(v, GatewayNodes.COUNT_HANDOVERS, 1, now);
            v.put(GatewayNodes.KEY_GENERATION, plain(o.handover().generation(), now));
        }
    }

    private Accepted reading(Observation o, Map<String, DataValue> v, Instant now) {
        Verdict.Reason reason = o.verdict().reason();
        switch (reason) {
            case ACCEPTED -> count(v, GatewayNodes.COUNT_ACCEPTED, 1, now);
            case DUPLICATE -> count(v, GatewayNodes.COUNT_DUPLICATES, 1, now);
            case INDEX_REUSE -> count(v, GatewayNodes.COUNT_INDEX_REUSE, 1, now);
            default -> count(v, GatewayNodes.COUNT_REJECTED, 1, now);
        }
        SignedRecord r = o.record();
        if (reason == Verdict.Reason.DUPLICATE) {
            return null; // the same reading again: nothing changes
        }
        if (reason != Verdict.Reason.ACCEPTED) {
            rejectedSince = rejectedSince == Verdict.Reason.INDEX_REUSE ? rejectedSince : reason;
            statusChanged(v, now);
            return null;
        }
        putPlain(v, GatewayNodes.KEY_ID, Hex.encode(r.keyId().bytes()), now);
        putPlain(v, GatewayNodes.KEY_PARAMETER_SET, r.parameterSetName(), now);
        String text = r.reading().reading();
        if (!ReadingValues.isMeasurement(text)) {
            // a skip notice or an upstream fact: signed and accepted, but not a value; an upstream
            // outage or a value-less notification still says what the last value is worth
            UpstreamReading.fact(text).flatMap(UpstreamReading::statusAfter).ifPresent(s -> {
                upstream = s;
                statusChanged(v, now);
            });
            return null;
        }
        ReadingValues values = ReadingValues.parse(text);
        Instant source = values.signedTime().orElse(r.sourceTime());
        rejectedSince = null;
        upstream = values.sourceStatus();
        java.util.Set<String> set = takeGood(text, values, r.index(), source, now);
        StatusCode before = status;
        status = computeStatus();
        if (!status.equals(before)) {
            statusTime = now;
            goodServer.replaceAll((leaf, t) -> now);
            v.putAll(valueLeaves());
        } else {
            valueLeaves().forEach((leaf, d) -> {
                if (set.contains(leaf)) {
                    v.put(leaf, d);
                }
            });
        }
        return new Accepted(source, now, r.keyId(), r.index(), text);
    }

    /** What a change of the operator's connection to the sensor changes. */
    synchronized Update connection(ConnectionState s, Instant now) {
        Map<String, DataValue> v = new LinkedHashMap<>();
        v.put(GatewayNodes.CONNECTION, plain(s.status().label(), now));
        v.put(GatewayNodes.CONNECTION_SINCE, plain(dt(s.since()), now));
        v.put(GatewayNodes.CONNECTION_DETAIL, plain(cut(s.detail()), now));
        if (connected != s.connected()) {
            connected = s.connected();
            statusChanged(v, now);
        }
        return new Update(v, Optional.empty(), Optional.empty());
    }

    /** What a key state read from the sensor changes. */
    synchronized Update key(Operator.KeyState k, Instant now) {
        Map<String, DataValue> v = new LinkedHashMap<>();
        putPlain(v, GatewayNodes.KEY_ID, k.keyIdHex(), now);
        putPlain(v, GatewayNodes.KEY_PARAMETER_SET, k.parameterSet(), now);
        putPlain(v, GatewayNodes.KEY_GENERATION, k.generation(), now);
        putPlain(v, GatewayNodes.KEY_REMAINING, k.remaining(), now);
        putPlain(v, GatewayNodes.KEY_SECONDS_LEFT, k.secondsLeft(), now);
        putPlain(v, GatewayNodes.KEY_NEXT_READY, k.nextKeyReady(), now);
        putPlain(v, GatewayNodes.KEY_ALARM, cut(k.alarm()), now);
        return new Update(v, Optional.empty(), Optional.empty());
    }

    private void statusChanged(Map<String, DataValue> v, Instant now) {
        StatusCode s = computeStatus();
        if (!s.equals(status)) {
            status = s;
            statusTime = now;
            goodServer.replaceAll((leaf, t) -> now);
            v.putAll(valueLeaves());
        }
    }

    private StatusCode computeStatus() {
        if (good.isEmpty()) {
            return new StatusCode(StatusCodes.Bad_WaitingForInitialData);
        }
        if (rejectedSince == Verdict.Reason.INDEX_REUSE) {
            return new StatusCode(StatusCodes.Bad_SecurityChecksFailed);
        }
        if (rejectedSince != null) {
            return new StatusCode(StatusCodes.Uncertain_LastUsableValue);
        }
        if (!connected) {
            return new StatusCode(StatusCodes.Uncertain_NoCommunicationLastUsableValue);
        }
        return upstream;
    }

    /** The current status of the value leaves. */
    synchronized StatusCode status() {
        return status;
    }

    /** Takes a good reading's values; returns the leaves it set. */
    private java.util.Set<String> takeGood(
            String text, ReadingValues values, long index, Instant source, Instant verdictTime) {
        java.util.Set<String> set = new java.util.HashSet<>();
        put(set, GatewayNodes.READING, new Variant(text), source, verdictTime);
        put(set, GatewayNodes.READING_INDEX, new Variant(index), source, verdictTime);
        if (values.hasValue()) {
            put(set, GatewayNodes.VALUE, new Variant(values.value()), source, verdictTime);
        }
        for (Map.Entry<String, Double> e : values.named().entrySet()) {
            String leaf = GatewayNodes.VALUE_PREFIX + e.getKey();
            if (good.containsKey(leaf) || namedCount() < MAX_NAMED_VALUES) {
                put(set, leaf, new Variant(e.getValue()), source, verdictTime);
            }
        }
        return set;
    }

    private int namedCount() {
        int n = 0;
        for (String leaf : good.keySet()) {
            if (leaf.startsWith(GatewayNodes.VALUE_PREFIX)) {
                n++;
            }
        }
        return n;
    }

    private void put(java.util.Set<String> set, String leaf, Variant value, Instant source, Instant server) {
        good.put(leaf, value);
        goodSource.put(leaf, source);
        goodServer.put(leaf, server);
        set.add(leaf);
    }

    /** Every value leaf with its last good value and the current status. */
    private Map<String, DataValue> valueLeaves() {
        Map<String, DataValue> v = new LinkedHashMap<>();
        if (good.isEmpty()) {
            for (String leaf : new String[] {GatewayNodes.READING, GatewayNodes.READING_INDEX, GatewayNodes.VALUE}) {
                v.put(leaf, new DataValue(Variant.NULL_VALUE, status, null, dt(statusTime)));
            }
            return v;
        }
        for (Map.Entry<String, Variant> e : good.entrySet()) {
            String leaf = e.getKey();
            v.put(leaf, new DataValue(e.getValue(), status, dt(goodSource.get(leaf)), dt(goodServer.get(leaf))));
        }
        return v;
    }

    private void count(Map<String, DataValue> v, String leaf, long n, Instant now) {
        long c = counts.merge(leaf, n, Long::sum);
        v.put(leaf, plain(c, now));
    }

    /** Puts a plain variable's value if it changed. */
    private void putPlain(Map<String, DataValue> v, String leaf, Object value, Instant now) {
        if (!value.equals(plain.put(leaf, value))) {
            v.put(leaf, plain(value, now));
        }
    }

    private static DataValue plain(Object value, Instant now) {
        return new DataValue(new Variant(value), StatusCode.GOOD, dt(now), dt(now));
    }

    private static DateTime dt(Instant t) {
        return t == null ? null : new DateTime(t);
    }

    private String message(Observation o) {
        Verdict v = o.verdict();
        StringBuilder sb = new StringBuilder(v.reason().name());
        if (o.gap() != null) {
            sb.append(" indices ")
                    .append(o.gap().from())
                    .append("..")
                    .append(o.gap().to());
        } else if (v.index() >= 0) {
            sb.append(" index ").append(v.index());
        }
        if (!v.detail().isEmpty()) {
            sb.append(": ").append(v.detail());
        }
        return cut(sb.toString());
    }

    /** Control characters written as {@code ?}, at most {@link #MAX_TEXT} characters. */
    static String cut(String s) {
        String t = s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) + "…" : s;
        StringBuilder sb = new StringBuilder(t.length());
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            sb.append(Character.isISOControl(c) ? '?' : c);
        }
        return sb.toString();
    }
}
