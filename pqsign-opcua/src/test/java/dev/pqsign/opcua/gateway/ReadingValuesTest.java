package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.junit.jupiter.api.Test;

class ReadingValuesTest {

    @Test
    void simulatedSensorReading_givesValueAndSignedTime() {
        ReadingValues v = ReadingValues.parse("1503.27,2026-11-30T01:26:16.123456789Z");
        assertEquals(1503.27, v.value());
        assertEquals(Optional.of(Instant.parse("2026-11-30T01:26:16.123456789Z")), v.signedTime());
        assertEquals(Map.of(), v.named());
    }

    @Test
    void namedFields_inOrder_firstOccurrenceWins_spacesIgnored() {
        ReadingValues v = ReadingValues.parse("temp=21.5, rh=40 ,temp=99,2026-11-30T01:26:16Z, note=hot");
        assertFalse(v.hasValue(), "the first field is not a bare number");
        assertEquals(Map.of("temp", 21.5, "rh", 40.0), v.named());
        assertEquals(Optional.of(Instant.parse("2026-11-30T01:26:16Z")), v.signedTime());
    }

    @Test
    void notNumbers_ignored() {
        for (String s :
                new String[] {"NaN", "Infinity", "1e999", "0x10", "1,5", " ", "", "1.", ".5", "--1", "1e1234"}) {
            ReadingValues v = ReadingValues.parse(s);
            assertTrue(!v.hasValue() || s.equals("1,5"), s);
        }
        assertEquals(1.0, ReadingValues.parse("1,5").value(), "the first field only");
        assertFalse(ReadingValues.parse("9name=1").named().containsKey("9name"));
        assertFalse(ReadingValues.parse("2026-13-30T01:26:16Z").signedTime().isPresent(), "no month 13");
    }

    @Test
    void skipNotice_isNotAMeasurement() {
        assertFalse(ReadingValues.isMeasurement("pqsign:skipped from=0 to=3"));
        ReadingValues v = ReadingValues.parse("pqsign:skipped from=0 to=3");
        assertFalse(v.hasValue());
        assertTrue(v.named().isEmpty());
    }

    @Test
    void atMost32Names_perReading() {
        StringBuilder sb = new StringBuilder("1");
        for (int i = 0; i < 40; i++) {
            sb.append(",n").append(i).append('=').append(i);
        }
        assertEquals(
                ReadingValues.MAX_NAMED,
                ReadingValues.parse(sb.toString()).named().size());
    }

    @Test
    void upstreamValue_isAMeasurement_withItsNumberUpstreamTimeAndStatus() {
        String text = "pqsign:upstream value node=\"ns=3;s=Motor.Speed\" type=Double value=1503.27"
                + " source=2026-12-03T10:15:30.1234567Z status=Uncertain_SensorNotAccurate";
        assertTrue(ReadingValues.isMeasurement(text));
        ReadingValues v = ReadingValues.parse(text);
        assertEquals(1503.27, v.value());
        assertEquals(Optional.of(Instant.parse("2026-12-03T10:15:30.1234567Z")), v.signedTime());
        assertEquals(StatusCodes.Uncertain_SensorNotAccurate, v.sourceStatus().value());
        assertTrue(v.named().isEmpty(), "node names are not value.NAME fields");
        assertEquals(StatusCode.GOOD, ReadingValues.parse("1.5").sourceStatus());
    }

    @Test
    void upstreamValues_byType() {
        assertEquals(-128.0, upstream("SByte", "-128").value());
        assertEquals(0x1p64, upstream("UInt64", "18446744073709551615").value(), "2^64 - 1: the nearest double, 2^64");
        assertEquals((double) 0.1f, upstream("Float", "0.1").value(), "a Float widened exactly");
        for (String[] none : new String[][] {
            {"Double", "NaN"}, {"Double", "-Infinity"}, {"Float", "Infinity"}, {"Boolean", "true"}, {"String", "\"7\""}
        }) {
            ReadingValues v = upstream(none[0], none[1]);
            assertFalse(v.hasValue(), none[0] + " " + none[1]);
            assertTrue(v.signedTime().isPresent(), "still a measurement with a time");
        }
        String noTime = "pqsign:upstream value node=\"i=1\" type=Int32 value=3 source=min status=Good";
        assertFalse(ReadingValues.parse(noTime).signedTime().isPresent(), "min is no time");
    }

    @Test
    void otherUpstreamFacts_andMalformedUpstreamTexts_areNotMeasurements() {
        for (String s : new String[] {
            "pqsign:upstream novalue node=\"i=1\" source=- status=Bad_NotConnected",
            "pqsign:upstream down since=2026-12-03T10:15:30.0000000Z reason=\"refused\"",
            "pqsign:upstream up url=\"opc.tcp://plc:4840\" security=None down-since=-",
            "pqsign:upstream value node=\"i=1\" type=Int32 value=03 source=- status=Good",
            "pqsign:upstream value 5"
        }) {
            assertFalse(ReadingValues.isMeasurement(s), s);
            assertFalse(ReadingValues.parse(s).hasValue(), s);
        }
    }

    private static ReadingValues upstream(String type, String value) {
        return ReadingValues.parse("pqsign:upstream value node=\"i=1\" type=" + type + " value=" + value
                + " source=2026-12-03T10:15:30.0000000Z status=Good");
    }
}
