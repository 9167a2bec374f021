package dev.pqsign.console.internal;

import dev.pqsign.console.KeyStatus;
import dev.pqsign.telemetry.LatencyRecord;
import dev.pqsign.telemetry.SignedRecord;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.VerdictEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the page shows, and what changed since the last push. Every feeding method and both views
 * take the model's lock, so a snapshot and the deltas after it never overlap or miss an update.
 *
 * <p>Only accepted readings go into the charts: a rejected reading's value is not trusted and
 * would draw an attacker's curve.
 */
public final class ConsoleModel {

    /** Most points kept per sensor chart, whatever the history window. */
    static final int MAX_POINTS = 5000;

    private final Duration history;
    private final int feedSize;
    private final Clock clock;
    private final Map<String, SensorView> sensors = new TreeMap<>();
    private final Map<String, ArrayDeque<List<Object>>> points = new HashMap<>();
    private final ArrayDeque<Map<String, Object>> feed = new ArrayDeque<>();
    private final LatencyBuckets latency = new LatencyBuckets();

    private final Set<String> changedSensors = new LinkedHashSet<>();
    private final List<Map<String, Object>> newFeed = new ArrayList<>();
    private final Map<String, List<List<Object>>> newPoints = new LinkedHashMap<>();
    private boolean latencyChanged;
    private long feedSeq;

    public ConsoleModel(Duration history, int feedSize, Clock clock) {
        this.history = history;
        this.feedSize = feedSize;
        this.clock = clock;
    }

    /** A verdict on a record, or a gap; {@code latency} may be null. */
    public synchronized void verdict(VerdictEvent e, LatencyRecord latency) {
        verdict(e, latency, true);
    }

    /** As above; a value read from the sensor's history ({@code live} false) adds nothing to the latency chart. */
    public synchronized void verdict(VerdictEvent e, LatencyRecord latency, boolean live) {
        SensorView s = sensor(e.sensor());
        Verdict v = e.verdict();
        String received = e.receivedAt().toString();
        switch (v.reason()) {
            case GAP -> {
                s.countGap(e.gap().size());
                feed("GAP", e.sensor(), v.reason().name(), v.index(), v.detail(), e.receivedAt());
            }
            case SKIPPED -> {
                feed("SKIPPED", e.sensor(), v.reason().name(), v.index(), v.detail(), e.receivedAt());
                return;
            }
            case ACCEPTED -> s.countAccepted();
            case DUPLICATE -> s.countDuplicate();
            case INDEX_REUSE -> {
                s.countIndexReuse();
                feed("INDEX_REUSE", e.sensor(), v.reason().name(), v.index(), v.detail(), e.receivedAt());
            }
            default -> {
                s.countRejected(v.reason().name());
                feed("REJECTED", e.sensor(), v.reason().name(), v.index(), v.detail(), e.receivedAt());
            }
        }
        if (v.reason() != Verdict.Reason.GAP) {
            SignedRecord r = e.record();
            s.reading(
                    r == null ? null : DisplayText.of(r.reading().reading()),
                    r == null ? null : r.sourceTime().toString(),
                    received,
                    v.index(),
                    e.verdictWord(),
                    v.reason().name(),
                    DisplayText.of(v.detail()));
            if (r != null && v.accepted()) {
                s.key(r.keyId().hex(), r.parameterSetName());
                Double value = ReadingValue.parse(r.reading().reading());
                if (value != null) {
                    point(e.sensor(), e.receivedAt(), value);
                }
            }
            if (live) {
                latency(e, latency);
            }
        }
        changedSensors.add(e.sensor());
    }

    private void latency(VerdictEvent e, LatencyRecord l) {
        if (l != null) {
            latency.add(LatencyBuckets.Stage.SIGN, l.signNanos());
            latency.add(LatencyBuckets.Stage.TRANSFER, l.transferNanos());
            latency.add(LatencyBuckets.Stage.VERIFY, l.verifyNanos());
            latency.add(LatencyBuckets.Stage.END_TO_END, l.endToEndNanos());
            latencyChanged = true;
        } else if (e.record() != null) {
            latency.add(LatencyBuckets.Stage.SIGN, e.record().signNanos());
            Long wall = e.wallLatencyNanos();
            if (wall != null && wall >= 0) {
                latency.add(LatencyBuckets.Stage.END_TO_END, wall);
            }
            latencyChanged = true;
        }
    }

    public synchronized void connectionState(String sensor, String state) {
        sensor(sensor).connection(state, null);
        changedSensors.add(sensor);
    }

    public synchronized void connectionState(String sensor, String state, java.time.Instant since) {
        sensor(sensor).connection(state, since.toString());
        changedSensors.add(sensor);
    }

    /** A sensor gone silent (a feed entry; its card is marked) or sending again. */
    public synchronized void silence(String sensor, boolean silent, String detail) {
        sensor(sensor).silent(silent);
        feed(silent ? "SILENT" : "RESUMED", sensor, null, -1, detail, clock.instant());
        changedSensors.add(sensor);
    }

    public synchronized void keyStatus(KeyStatus status) {
        sensor(status.sensor()).keyStatus(status);
        changedSensors.add(status.sensor());
    }

    public synchronized void alarm(String sensor, String text) {
        sensor(sensor);
        feed("ALARM", sensor, null, -1, text, clock.instant());
        changedSensors.add(sensor);
    }

    public synchronized void handover(String sensor, long generation, String newKeyIdHex) {
        sensor(sensor).handover(generation, newKeyIdHex);
        String id = SensorView.hexOnly(newKeyIdHex);
        feed(
                "HANDOVER",
                sensor,
                null,
                -1,
                "key generation " + generation + " now signs, key id " + (id == null ? "(not hex)" : id),
                clock.instant());
        changedSensors.add(sensor);
    }

    /**
     * Everything, for a page that has just connected. Taken under the same lock right after
     * {@link #takeDelta()}, it holds exactly what the deltas so far have carried.
     */
    public synchronized Map<String, Object> snapshot() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("historyMillis", history.toMillis());
        m.put("feedSize", feedSize);
        List<Object> cards = new ArrayList<>();
        for (SensorView s : sensors.values()) {
            cards.add(s.toJson());
        }
        m.put("sensors", cards);
        List<Object> items = new ArrayList<>(feed);
        m.put("feed", items);
        Map<String, Object> series = new LinkedHashMap<>();
        for (String name : sensors.keySet()) {
            ArrayDeque<List<Object>> p = points.get(name);
            series.put(name, p == null ? List.of() : new ArrayList<>(p));
        }
        m.put("points", series);
        m.put("latency", latency.toJson());
        return m;
    }

    /** What changed since the last snapshot or delta, or null if nothing did. */
    public synchronized Map<String, Object> takeDelta() {
        if (changedSensors.isEmpty() && newFeed.isEmpty() && newPoints.isEmpty() && !latencyChanged) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        List<Object> cards = new ArrayList<>();
        for (String name : changedSensors) {
            cards.add(sensors.get(name).toJson());
        }
        m.put("sensors", cards);
        m.put("feed", new ArrayList<>(newFeed));
        m.put("points", new LinkedHashMap<>(newPoints));
        if (latencyChanged) {
            m.put("latency", latency.toJson());
        }
        clearChanges();
        return m;
    }

    private void clearChanges() {
        changedSensors.clear();
        newFeed.clear();
        newPoints.clear();
        latencyChanged = false;
    }

    private SensorView sensor(String name) {
        SensorView s = sensors.get(name);
        if (s == null) {
            s = new SensorView(name);
            sensors.put(name, s);
            changedSensors.add(name);
        }
        return s;
    }

    private void point(String sensor, Instant at, double value) {
        List<Object> p = Json.point(at.toEpochMilli(), value);
        ArrayDeque<List<Object>> q = points.computeIfAbsent(sensor, k -> new ArrayDeque<>());
        q.addLast(p);
        long oldest = at.toEpochMilli() - history.toMillis();
        while (q.size() > MAX_POINTS || ((Long) q.peekFirst().get(0)) < oldest) {
            q.removeFirst();
        }
        List<List<Object>> fresh = newPoints.computeIfAbsent(sensor, k -> new ArrayList<>());
        fresh.add(p);
        if (fresh.size() > MAX_POINTS) {
            // A flood between two pushes: the page keeps no more than this anyway.
            fresh.remove(0);
        }
    }

    private void feed(String kind, String sensor, String reason, long index, String text, Instant at) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("seq", ++feedSeq);
        item.put("time", at.toString());
        item.put("kind", kind);
        item.put("sensor", Json.text(DisplayText.of(sensor)));
        item.put("reason", reason);
        item.put("index", index);
        item.put("text", Json.text(DisplayText.of(text)));
        feed.addFirst(item);
        while (feed.size() > feedSize) {
            feed.removeLast();
        }
        newFeed.add(item);
        if (newFeed.size() > feedSize) {
            newFeed.remove(0);
        }
    }
}
