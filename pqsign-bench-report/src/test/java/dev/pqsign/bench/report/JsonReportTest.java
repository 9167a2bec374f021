package dev.pqsign.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class JsonReportTest {

    @Test
    void num_keepsLargeCountsExactAndSmallTimesSignificant() {
        assertEquals("4665341", JsonReport.num(4665341.0));
        assertEquals("9330679.5", JsonReport.num(9330679.5));
        assertEquals("1.234", JsonReport.num(1.23449));
        assertEquals("0.0396012", JsonReport.num(0.03960123));
        assertEquals("0", JsonReport.num(0));
        assertEquals("null", JsonReport.num(Double.NaN));
        assertEquals("null", JsonReport.num(Double.POSITIVE_INFINITY));
        assertEquals("-2.5", JsonReport.num(-2.5));
    }

    @Test
    void str_escapesQuotesBackslashesAndControlCharacters() {
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001\"", JsonReport.str("a\"b\\c\nd\u0001"));
        assertEquals("null", JsonReport.str(null));
        assertEquals("a\"b\\c\nd\u0001", MiniJson.parse(JsonReport.str("a\"b\\c\nd\u0001")));
    }
}
