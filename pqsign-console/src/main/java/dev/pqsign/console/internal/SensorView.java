package dev.pqsign.console.internal;

import dev.pqsign.console.KeyStatus;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** One sensor's card: the latest reading and verdict, connection, key and counts. Guarded by the model. */
final class SensorView {

    private final String id;
    private final DisplayText name;
    private DisplayText reading;
    private String sourceTime;
    private String receivedAt;
    private long index = -1;
    private String verdict;
    private String reason;
    private DisplayText detail;
    private DisplayText connection = DisplayText.of("unknown");
    private String connectionSince;
    private boolean silent;
    private String keyIdHex;
    private DisplayText parameterSet;
    private Long remaining;
    private Double secondsLeft;
    private Boolean nextKeyReady;
    private Long generation;
    private long accepted;
    private long duplicates;
    private long gaps;
    private long missing;
    private long indexReuse;
    private final Map<String, Long> rejectedByReason = new TreeMap<>();

    SensorView(String name) {
        this.id = name;
        this.name = DisplayText.of(name);
    }

    void reading(
            DisplayText reading,
            String sourceTime,
            String receivedAt,
            long index,
            String verdict,
            String reason,
            DisplayText detail) {
        this.reading = reading;
        this.sourceTime = sourceTime;
        this.receivedAt = receivedAt;
        this.index = index;
        this.verdict = verdict;
        this.reason = reason;
        this.detail = detail;
    }

    void key(String keyIdHex, String parameterSet) {
        this.keyIdHex = keyIdHex;
        this.parameterSet = DisplayText.of(parameterSet);
    }

    void keyStatus(KeyStatus s) {
        key(hexOnly(s.keyIdHex()), s.parameterSet());
        remaining = s.remaining() < 0 ? null : s.remaining();
        secondsLeft = s.secondsLeft();
        nextKeyReady = s.nextKeyReady();
    }

    void handover(long generation, String newKeyIdHex) {
        this.generation = generation;
        this.keyIdHex = hexOnly(newKeyIdHex);
    }

    void connection(String state, String since) {
        connection = DisplayText.of(state);
        connectionSince = since;
    }

    void silent(boolean silent) {
        this.silent = silent;
    }

    void countAccepted() {
        accepted++;
    }

    void countDuplicate() {
        duplicates++;
    }

    void countIndexReuse() {
        indexReuse++;
    }

    void countGap(long size) {
        gaps++;
        missing += size;
    }

    void countRejected(String reason) {
        rejectedByReason.merge(reason, 1L, Long::sum);
    }

    /** Key ids are shown only if they are hex (they come from callers, not only from records). */
    static String hexOnly(String s) {
        if (s == null || s.isEmpty() || s.length() > 128) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return null;
            }
        }
        return s.toLowerCase(Locale.ROOT);
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        // The raw name keys the card and its chart on the page; it is never written into the page.
        m.put("id", id);
        m.put("name", Json.text(name));
        m.put("reading", reading == null ? null : Json.text(reading));
        m.put("sourceTime", sourceTime);
        m.put("receivedAt", receivedAt);
        m.put("index", index);
        m.put("verdict", verdict);
        m.put("reason", reason);
        m.put("detail", detail == null ? null : Json.text(detail));
        m.put("connection", Json.text(connection));
        m.put("connectionSince", connectionSince);
        m.put("silent", silent);
        m.put("keyId", keyIdHex);
        m.put("parameterSet", parameterSet == null ? null : Json.text(parameterSet));
        m.put("remaining", remaining);
        m.put("secondsLeft", secondsLeft);
        m.put("nextKeyReady", nextKeyReady);
        m.put("generation", generation);
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("accepted", accepted);
        counts.put(
                "rejected",
                rejectedByReason.values().stream().mapToLong(Long::longValue).sum());
        counts.put("rejectedByReason", new LinkedHashMap<>(rejectedByReason));
        counts.put("gaps", gaps);
        counts.put("missing", missing);
        counts.put("duplicates", duplicates);
        counts.put("indexReuse", indexReuse);
        m.put("counts", counts);
        return m;
    }
}
