package dev.pqsign.telemetry.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class UpstreamTextTest {

    private static final String NODE = "ns=3;s=Motor.Speed";
    private static final UpstreamTime T = UpstreamTime.of(Instant.parse("2026-12-03T10:15:30.123456789Z"));

    @Test
    void value_double_matchesDocumentedExample() {
        UpstreamValue v = UpstreamValue.of(NODE, ScalarType.DOUBLE, "1503.27", T, UpstreamStatus.GOOD);
        assertEquals(
                "pqsign:upstream value node=\"ns=3;s=Motor.Speed\" type=Double value=1503.27"
                        + " source=2026-12-03T10:15:30.1234567Z status=Good",
                v.text());
        assertEquals(v, UpstreamText.parse(v.text()));
    }

    @Test
    void everyKind_roundTrips() {
        UpstreamStatus uncertain = new UpstreamStatus("Uncertain_LastUsableValue", 0x0400);
        List<UpstreamEvent> all = List.of(
                UpstreamValue.of("i=2258", ScalarType.DATE_TIME, T.text(), null, uncertain),
                UpstreamValue.of(NODE, ScalarType.BOOLEAN, "true", T, UpstreamStatus.GOOD),
                UpstreamValue.of(NODE, ScalarType.UINT64, "18446744073709551615", T, UpstreamStatus.GOOD),
                UpstreamValue.of(NODE, ScalarType.INT64, "-9223372036854775808", T, UpstreamStatus.GOOD),
                UpstreamValue.of(NODE, ScalarType.FLOAT, "-Infinity", T, UpstreamStatus.GOOD),
                UpstreamValue.ofString(NODE, "Motor \"A\" \\ \u00fcberhitzt\n\ud83d\ude00", T, UpstreamStatus.GOOD),
                new UpstreamNoValue(NODE, T, new UpstreamStatus("Bad_NotConnected", 0)),
                new UpstreamUnsupported(NODE, "Int32[]", T, UpstreamStatus.GOOD),
                new UpstreamRefused("ns=3;i=9999", new UpstreamStatus("Bad_NodeIdUnknown", 0)),
                new LostUpstream(NODE),
                new LostInSensor(NODE, 12, T, new UpstreamTime(T.ticks() + 5)),
                new LostInSensor(NODE, 1, null, null),
                new LostNotifications(),
                new LostFacts(3),
                UpstreamDown.of(T, "connection refused: /127.0.0.1:4840"),
                new UpstreamUp("opc.tcp://plc:4840/path", ChannelSecurity.SIGN_AND_ENCRYPT, T),
                new UpstreamUp("opc.tcp://plc:4840/path", ChannelSecurity.NONE, null),
                UpstreamValue.of(NODE, ScalarType.INT32, "0", T, UpstreamStatus.unnamed(0x80ab0480L)));
        for (UpstreamEvent e : all) {
            String text = e.text();
            assertTrue(text.startsWith(UpstreamText.PREFIX), text);
            assertTrue(text.chars().allMatch(ch -> ch >= 0x20 && ch <= 0x7e), text);
            assertEquals(e, UpstreamText.parse(text), text);
        }
    }

    @Test
    void string_escapes_areAsciiAndExact() {
        UpstreamValue v = UpstreamValue.ofString(NODE, "a\"b\\c\td\u0007\u00e9\u202e", T, UpstreamStatus.GOOD);
        assertTrue(v.text().contains("value=\"a\\\"b\\\\c\\td\\u0007\\u00e9\\u202e\""), v.text());
        assertEquals("a\"b\\c\td\u0007\u00e9\u202e", ((UpstreamValue) UpstreamText.parse(v.text())).value());
    }

    @Test
    void longString_cutToFit_withWholeLength() {
        String s = "\u00e4".repeat(3000); // 6,000 UTF-8 bytes, 18,000 escaped
        UpstreamValue v = UpstreamValue.ofString(NODE, s, T, UpstreamStatus.GOOD);
        assertTrue(v.truncated());
        assertEquals(6000, v.fullLength());
        assertTrue(v.text().length() <= UpstreamText.MAX_BYTES, "" + v.text().length());
        assertTrue(
                v.text().length() > UpstreamText.MAX_BYTES - 6,
                "uses the room: " + v.text().length());
        assertTrue(s.startsWith(v.value()));
        assertEquals(v, UpstreamText.parse(v.text()));
    }

    @Test
    void longString_neverSplitsASurrogatePair() {
        for (int pad = 0; pad < 12; pad++) {
            String s = "x".repeat(pad) + "\ud83d\ude00".repeat(2000);
            UpstreamValue v = UpstreamValue.ofString(NODE, s, T, UpstreamStatus.GOOD);
            String kept = v.value();
            assertFalse(Character.isHighSurrogate(kept.charAt(kept.length() - 1)), "pad " + pad);
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, v.fullLength());
            assertTrue(v.text().length() <= UpstreamText.MAX_BYTES);
        }
    }

    @Test
    void stringThatFits_isNotCut() {
        String s = "y".repeat(2000);
        UpstreamValue v = UpstreamValue.ofString(NODE, s, T, UpstreamStatus.GOOD);
        assertFalse(v.truncated());
        assertEquals(s, v.value());
    }

    @Test
    void times_minMaxAndRange() {
        assertEquals("min", new UpstreamTime(-5).text());
        assertEquals("max", new UpstreamTime(UpstreamTime.MAX_ISO_TICKS).text());
        assertEquals("1601-01-01T00:00:00.0000001Z", new UpstreamTime(1).text());
        assertEquals("9999-12-31T23:59:58.9999999Z", new UpstreamTime(UpstreamTime.MAX_ISO_TICKS - 1).text());
        assertEquals(new UpstreamTime(1), UpstreamTime.parse("1601-01-01T00:00:00.0000001Z"));
        assertEquals(Instant.parse("2026-12-03T10:15:30.1234567Z"), T.toInstant());
        for (String bad : List.of(
                "1601-01-01T00:00:00.0000000Z",
                "9999-12-31T23:59:59.0000000Z",
                "2026-02-30T00:00:00.0000000Z",
                "2026-12-03T10:15:30.123456Z",
                "2026-12-03T24:00:00.0000000Z",
                "2026-12-03 10:15:30.1234567Z",
                "-")) {
            assertThrows(IllegalArgumentException.class, () -> UpstreamTime.parse(bad), bad);
        }
    }

    @Test
    void status_severityFromNameOrNumber() {
        assertTrue(UpstreamStatus.GOOD.isGood());
        assertTrue(new UpstreamStatus("Uncertain_SubNormal", 0).isUncertain());
        assertTrue(new UpstreamStatus("Bad_NodeIdUnknown", 0).isBad());
        assertTrue(UpstreamStatus.unnamed(0xC0010000L).isBad());
        assertTrue(UpstreamStatus.unnamed(0x40ff0000L).isUncertain());
        assertEquals("0x80ab0000+0x0480", UpstreamStatus.unnamed(0x80ab0480L).text());
    }

    @Test
    void malformed_refusedWithOneLine() {
        String ok = UpstreamValue.of(NODE, ScalarType.INT32, "5", T, UpstreamStatus.GOOD)
                .text();
        List<String> bad = List.of(
                "pqsign:upstream",
                "pqsign:upstream ",
                "pqsign:upstream value",
                "pqsign:upstream bogus node=\"a\"",
                ok + " ",
                ok.replace("value=5", "value=05"),
                ok.replace("value=5", "value=-0"),
                ok.replace("value=5", "value=2147483648"),
                ok.replace("type=Int32", "type=Int128"),
                ok.replace("type=Int32", "type=Byte").replace("value=5", "value=256"),
                ok.replace("type=Int32", "type=Boolean").replace("value=5", "value=TRUE"),
                ok.replace("type=Int32", "type=Double").replace("value=5", "value=5"),
                ok.replace("type=Int32", "type=Double").replace("value=5", "value=1.0E309"),
                ok.replace("type=Int32", "type=Float").replace("value=5", "value=1.0E39"),
                ok.replace("type=Int32", "type=String"),
                ok.replace("status=Good", "status=Good+0x0000"),
                ok.replace("status=Good", "status=Good+0x1"),
                ok.replace("status=Good", "status="),
                ok.replace("source=2026", "source=2O26"),
                ok.replace("node=\"", "node=\"\\x"),
                ok.replace("node=\"ns=3", "node=\"\\u0041ns=3"),
                ok.replace("node=\"ns=3", "node=\"\\u00E9ns=3"),
                ok.replace("node=\"ns=3;s=Motor.Speed\"", "node=\"\""),
                ok.replace("node=\"ns=3;s=Motor.Speed\"", "node=\"" + "n".repeat(257) + "\""),
                ok.replace(" type=", "  type="),
                ok + "\u00e9",
                "pqsign:upstream value node=\"a\" type=String value=\"abc\" truncated=3 source=- status=Good",
                "pqsign:upstream value node=\"a\" type=String value=\"abc source=- status=Good",
                "pqsign:upstream value node=\"a\" type=Int32 value=1 truncated=9 source=- status=Good",
                "pqsign:upstream lost where=sensor node=\"a\" count=0 from=- to=-",
                "pqsign:upstream lost where=sensor facts=01",
                "pqsign:upstream lost where=elsewhere",
                "pqsign:upstream down since=- reason=\"x\"",
                "pqsign:upstream down since=min reason=\"" + "r".repeat(201) + "\"",
                "pqsign:upstream up url=\"\" security=None down-since=-",
                "pqsign:upstream up url=\"u\" security=Basic256 down-since=-",
                "pqsign:upstream unsupported node=\"a\" type=Int32[][] source=- status=Good",
                "pqsign:upstream value node=\"a\" type=String value=\"" + "z".repeat(4060) + "\" source=- status=Good");
        for (String b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UpstreamText.parse(b), b);
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void isUpstream_onlyForThePrefix() {
        assertTrue(UpstreamText.isUpstream("pqsign:upstream x"));
        assertFalse(UpstreamText.isUpstream("pqsign:skipped from=1 to=2"));
        assertFalse(UpstreamText.isUpstream("1503.27,2026-11-30T01:26:16.123456789Z"));
    }
}
