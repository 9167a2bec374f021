package dev.pqsign.telemetry.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Properties of the upstream reading texts: exact numbers, exact strings, one text per fact. */
class UpstreamTextProperties {

    private static final String NODE = "ns=2;s=Line 1/\u00c4nderung";

    @Property(tries = 3000)
    void double_text_convertsBackToTheSameBits(@ForAll long bits) {
        double d = Double.longBitsToDouble(bits);
        String token = Double.isNaN(d) ? "NaN" : Double.toString(d);
        UpstreamValue v = UpstreamValue.of(NODE, ScalarType.DOUBLE, token, null, UpstreamStatus.GOOD);
        UpstreamValue back = (UpstreamValue) UpstreamText.parse(v.text());
        double parsed = Double.parseDouble(back.value());
        if (Double.isNaN(d)) {
            assertTrue(Double.isNaN(parsed));
        } else {
            assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(parsed), token);
        }
    }

    @Property(tries = 2000)
    void float_text_convertsBackToTheSameBits(@ForAll int bits) {
        float f = Float.intBitsToFloat(bits);
        if (Float.isNaN(f)) {
            return;
        }
        String token = Float.toString(f);
        UpstreamValue v = UpstreamValue.of(NODE, ScalarType.FLOAT, token, null, UpstreamStatus.GOOD);
        float parsed = Float.parseFloat(((UpstreamValue) UpstreamText.parse(v.text())).value());
        assertEquals(Float.floatToRawIntBits(f), Float.floatToRawIntBits(parsed), token);
    }

    @Property(tries = 2000)
    void string_roundTripsExactly_orIsAPrefixWithItsLength(@ForAll String s) {
        UpstreamValue v = UpstreamValue.ofString(NODE, s, null, UpstreamStatus.GOOD);
        assertTrue(v.text().length() <= UpstreamText.MAX_BYTES);
        UpstreamValue back = (UpstreamValue) UpstreamText.parse(v.text());
        assertEquals(v, back);
        if (!v.truncated()) {
            assertEquals(s, back.value());
        } else {
            assertTrue(s.startsWith(back.value()));
        }
    }

    @Property(tries = 1000)
    void time_textRoundTrips(@ForAll @LongRange(min = -10, max = Long.MAX_VALUE) long ticks) {
        UpstreamTime t = new UpstreamTime(ticks);
        assertEquals(t, UpstreamTime.parse(t.text()));
    }

    @Property(tries = 1000)
    void anyText_parsesOrIsRefused_neverThrowsOtherwise(@ForAll String tail) {
        String text = UpstreamText.PREFIX + tail;
        try {
            UpstreamEvent e = UpstreamText.parse(text);
            assertEquals(text, e.text());
        } catch (IllegalArgumentException refused) {
            // the documented refusal
        }
    }
}
