package dev.pqsign.console.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ReadingValueTest {

    @Test
    void parse_speedReading_rpm() {
        assertEquals(1503.27, ReadingValue.parse("1503.27,2026-11-30T01:26:16.123456789Z"));
    }

    @Test
    void parse_bareNumber_value() {
        assertEquals(-4.5e3, ReadingValue.parse("-4.5e3"));
    }

    @Test
    void parse_notANumber_nothingPlotted() {
        assertNull(ReadingValue.parse("<script>1</script>"));
        assertNull(ReadingValue.parse("NaN,2026"));
        assertNull(ReadingValue.parse("Infinity"));
        assertNull(ReadingValue.parse("0x1p3"));
        assertNull(ReadingValue.parse(""));
        assertNull(ReadingValue.parse("1e999"));
        assertNull(ReadingValue.parse("1.2.3"));
    }
}
