package dev.pqsign.opcua.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
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
}
