package dev.pqsign.console.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.console.Records;
import dev.pqsign.telemetry.Verdict;
import dev.pqsign.telemetry.Verdict.Reason;
import dev.pqsign.telemetry.VerdictEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsoleModelTest {

    private final Records records = new Records();
    private final ConsoleModel model = new ConsoleModel(Duration.ofMinutes(1), 3, Clock.systemUTC());

    private VerdictEvent at(Reason reason, String reading, long index, Instant receivedAt) throws Exception {
        return VerdictEvent.of("s1", new Verdict(reason, index, "d"), records.record(reading, index), receivedAt);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> m, String key) {
        return (List<Map<String, Object>>) m.get(key);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, List<List<Object>>> points(Map<String, Object> m) {
        return (Map<String, List<List<Object>>>) m.get("points");
    }

    @Test
    void takeDelta_nothingChanged_null() throws Exception {
        assertNull(model.takeDelta());
        model.verdict(records.event("s1", Reason.ACCEPTED, "1,t", 0), null);
        assertTrue(model.takeDelta() != null);
        assertNull(model.takeDelta());
    }

    @Test
    void takeDelta_afterDelta_onlyLaterChanges() throws Exception {
        model.verdict(records.event("s1", Reason.ACCEPTED, "1,t", 0), null);
        model.verdict(records.event("s2", Reason.ACCEPTED, "2,t", 0), null);
        model.takeDelta();
        model.verdict(records.event("s2", Reason.ACCEPTED, "3,t", 1), null);
        Map<String, Object> d = model.takeDelta();
        assertEquals(1, list(d, "sensors").size());
        assertEquals("s2", list(d, "sensors").get(0).get("id"));
        assertEquals(
                List.of(List.of(3.0)),
                points(d).get("s2").stream().map(p -> p.subList(1, 2)).toList());
        Map<String, Object> snap = model.snapshot();
        assertEquals(2, list(snap, "sensors").size());
        assertEquals(2, points(snap).get("s2").size());
    }

    @Test
    void verdict_rejected_notChartedKeyNotAdopted() throws Exception {
        model.verdict(records.event("s1", Reason.BAD_SIGNATURE, "999,t", 4), null);
        Map<String, Object> card = list(model.snapshot(), "sensors").get(0);
        assertEquals("REJECTED", card.get("verdict"));
        assertEquals("BAD_SIGNATURE", card.get("reason"));
        assertNull(card.get("keyId"), "an unverified record's key id is not the sensor's key");
        assertEquals(List.of(), points(model.snapshot()).get("s1"));
    }

    @Test
    void feed_newestFirstTrimmedToSize() throws Exception {
        for (int i = 0; i < 5; i++) {
            model.verdict(records.event("s1", Reason.MALFORMED, "x", i), null);
        }
        List<Map<String, Object>> feed = list(model.snapshot(), "feed");
        assertEquals(List.of(4L, 3L, 2L), feed.stream().map(f -> f.get("index")).toList());
    }

    @Test
    void takeDelta_floodOfRejections_feedBoundedToSize() throws Exception {
        model.takeDelta();
        for (int i = 0; i < 10; i++) {
            model.verdict(records.event("s1", Reason.BAD_SIGNATURE, "x", i), null);
        }
        assertEquals(
                List.of(7L, 8L, 9L),
                list(model.takeDelta(), "feed").stream()
                        .map(f -> f.get("index"))
                        .toList());
    }

    @Test
    void verdict_undecodableValue_rejectedWithoutReading() {
        model.verdict(
                VerdictEvent.of("s1", new Verdict(Reason.MALFORMED, -1, "not a signed record"), null, Instant.now()),
                null);
        Map<String, Object> card = list(model.snapshot(), "sensors").get(0);
        assertEquals("REJECTED", card.get("verdict"));
        assertEquals("MALFORMED", card.get("reason"));
        assertNull(card.get("reading"));
        assertEquals(-1L, card.get("index"));
    }

    @Test
    void points_olderThanHistory_dropped() throws Exception {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        model.verdict(at(Reason.ACCEPTED, "1,t", 0, t), null);
        model.verdict(at(Reason.ACCEPTED, "2,t", 1, t.plusSeconds(30)), null);
        model.verdict(at(Reason.ACCEPTED, "3,t", 2, t.plusSeconds(61)), null);
        List<List<Object>> p = points(model.snapshot()).get("s1");
        assertEquals(List.of(2.0, 3.0), p.stream().map(x -> x.get(1)).toList());
    }

    @Test
    void gap_countsAndFeedNoReadingChange() throws Exception {
        model.verdict(records.event("s1", Reason.ACCEPTED, "1,t", 0), null);
        model.verdict(records.gap("s1", 1, 4), null);
        Map<String, Object> snap = model.snapshot();
        Map<String, Object> card = list(snap, "sensors").get(0);
        assertEquals("ACCEPTED", card.get("verdict"));
        @SuppressWarnings("unchecked")
        Map<String, Object> counts = (Map<String, Object>) card.get("counts");
        assertEquals(1L, counts.get("gaps"));
        assertEquals(4L, counts.get("missing"));
        assertEquals("GAP", list(snap, "feed").get(0).get("kind"));
    }

    @Test
    void handover_nonHexKeyId_notShown() {
        model.handover("s1", 3, "<b>zz</b>");
        Map<String, Object> snap = model.snapshot();
        assertNull(list(snap, "sensors").get(0).get("keyId"));
        @SuppressWarnings("unchecked")
        Map<String, Object> text =
                (Map<String, Object>) list(snap, "feed").get(0).get("text");
        assertEquals("key generation 3 now signs, key id (not hex)", text.get("text"));
    }
}
