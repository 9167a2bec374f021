package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class VerdictJsonlTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void write_acceptedAndGap_oneObjectPerLineWithRequiredKeys() throws IOException {
        SignedRecord r = SignedRecordTest.example();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Instant received = Instant.parse("2026-11-30T01:26:16.200Z");
        try (VerdictJsonl w = new VerdictJsonl(out, true)) {
            w.write(VerdictEvent.of("s1", new Verdict(Verdict.Reason.ACCEPTED, 5, "ok"), r, received));
            w.write(VerdictEvent.gap("s1", r.keyId(), new Verdict.Gap(6, 9), received));
        }
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length);
        JsonNode a = JSON.readTree(lines[0]);
        assertEquals("s1", a.get("sensor").asText());
        assertEquals(r.keyId().hex(), a.get("key_id").asText());
        assertEquals(5, a.get("index").asLong());
        assertEquals("ACCEPTED", a.get("verdict").asText());
        assertTrue(a.get("reason").isNull());
        assertEquals("1503.27,x", a.get("reading").asText());
        assertEquals("2026-11-30T01:26:16.200Z", a.get("received_at").asText());
        assertEquals("2026-11-30T01:26:16.123456789Z", a.get("source_time").asText());
        assertEquals("HAETAE-2", a.get("parameter_set").asText());
        assertArrayEquals(
                r.reading().signature(),
                Base64.getDecoder().decode(a.get("signature").asText()));
        JsonNode g = JSON.readTree(lines[1]);
        assertEquals("GAP", g.get("verdict").asText());
        assertEquals(6, g.get("from_index").asLong());
        assertEquals(9, g.get("to_index").asLong());
        assertEquals(9, g.get("index").asLong());
        assertTrue(g.get("reading").isNull());
    }

    /** The streamed line is exactly the text of {@link VerdictJsonl#toJson}, on both kinds of target. */
    @Test
    void write_everyVerdictShape_sameTextAsTheTree() throws IOException {
        SignedRecord r = SignedRecordTest.example();
        Instant received = Instant.parse("2026-11-30T01:26:16.2Z");
        VerdictEvent[] events = {
            VerdictEvent.of("s1", new Verdict(Verdict.Reason.ACCEPTED, 5, "ok"), r, received),
            VerdictEvent.of("s\u00e9\"2", new Verdict(Verdict.Reason.BAD_SIGNATURE, 7, "bad \"sig\"\n"), r, received),
            VerdictEvent.of("s1", new Verdict(Verdict.Reason.MALFORMED, -1, "no record"), null, received),
            VerdictEvent.gap("s1", r.keyId(), new Verdict.Gap(6, 9), received),
            VerdictEvent.gap("s1", r.keyId(), new Verdict.Gap(0, 0), received),
        };
        StringBuilder expected = new StringBuilder();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter chars = new StringWriter();
        try (VerdictJsonl toBytes = new VerdictJsonl(bytes, true);
                VerdictJsonl toChars = new VerdictJsonl(chars, true)) {
            for (VerdictEvent e : events) {
                expected.append(JSON.writeValueAsString(VerdictJsonl.toJson(e))).append('\n');
                toBytes.write(e);
                toChars.write(e);
            }
        }
        assertEquals(expected.toString(), bytes.toString(StandardCharsets.UTF_8));
        assertEquals(expected.toString(), chars.toString());
    }

    @Test
    void write_rejected_verdictRejectedWithReason() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new VerdictJsonl(out, false)
                .write(VerdictEvent.of(
                        "s",
                        new Verdict(Verdict.Reason.BAD_SIGNATURE, 3, "bad"),
                        SignedRecordTest.example(),
                        Instant.now()));
        JsonNode n = JSON.readTree(out.toString(StandardCharsets.UTF_8));
        assertEquals("REJECTED", n.get("verdict").asText());
        assertEquals("BAD_SIGNATURE", n.get("reason").asText());
    }

    @Test
    void write_failingStream_throws() {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("disk full");
            }
        };
        VerdictJsonl w = new VerdictJsonl(broken, false);
        assertThrows(
                IOException.class,
                () -> w.write(VerdictEvent.of(
                        "s",
                        new Verdict(Verdict.Reason.ACCEPTED, 1, "ok"),
                        SignedRecordTest.example(),
                        Instant.now())));
    }

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    @Test
    void appendingTo_fileWithATornLastLine_cutsItKeepsItAndAppendsWholeLines() throws IOException {
        SignedRecord r = SignedRecordTest.example();
        Instant received = Instant.parse("2026-11-30T01:26:16.200Z");
        java.nio.file.Path file = dir.resolve("v.jsonl");
        try (VerdictJsonl w = VerdictJsonl.appendingTo(file, n -> {})) {
            w.write(VerdictEvent.of("s1", new Verdict(Verdict.Reason.ACCEPTED, 5, "ok"), r, received));
        }
        String whole = java.nio.file.Files.readString(file);
        String torn = "{\"sensor\":\"s1\",\"key_id\":\"ab"; // a disk full in the middle of a line
        java.nio.file.Files.writeString(file, whole + torn);
        java.util.List<String> notices = new java.util.ArrayList<>();
        try (VerdictJsonl w = VerdictJsonl.appendingTo(file, notices::add)) {
            w.write(VerdictEvent.gap("s1", r.keyId(), new Verdict.Gap(6, 6), received));
        }
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains(torn.length() + " bytes"), notices.get(0));
        java.util.List<String> lines = java.nio.file.Files.readAllLines(file);
        assertEquals(2, lines.size(), lines.toString());
        for (String line : lines) {
            assertTrue(JSON.readTree(line).isObject(), line);
        }
        assertEquals(torn + "\n", java.nio.file.Files.readString(dir.resolve("v.jsonl.torn")));
    }

    @Test
    void appendingTo_wholeLines_leftAsTheyAre() throws IOException {
        java.nio.file.Path file = dir.resolve("w.jsonl");
        java.nio.file.Files.writeString(file, "{\"a\":1}\n");
        java.util.List<String> notices = new java.util.ArrayList<>();
        VerdictJsonl.appendingTo(file, notices::add).close();
        assertEquals(java.util.List.of(), notices);
        assertEquals("{\"a\":1}\n", java.nio.file.Files.readString(file));
        assertTrue(java.nio.file.Files.notExists(dir.resolve("w.jsonl.torn")));
    }

    @Test
    void write_skippedRange_lineWithItsRangeAndVerdictSkipped() throws IOException {
        SignedRecord r = SignedRecordTest.example();
        StringWriter out = new StringWriter();
        try (VerdictJsonl w = new VerdictJsonl(out, false)) {
            w.write(VerdictEvent.skipped("s1", r.keyId(), new Verdict.Gap(3, 4), Instant.EPOCH));
        }
        JsonNode g = JSON.readTree(out.toString());
        assertEquals("SKIPPED", g.get("verdict").asText());
        assertEquals(3, g.get("from_index").asLong());
        assertEquals(4, g.get("to_index").asLong());
    }
}
