package dev.pqsign.console.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pqsign.console.internal.DisplayText.Mark;
import java.util.List;
import org.junit.jupiter.api.Test;

class DisplayTextTest {

    @Test
    void of_plainReading_unchangedUnmarked() {
        DisplayText t = DisplayText.of("1503.27,2026-11-30T01:26:16.123456789Z");
        assertEquals("1503.27,2026-11-30T01:26:16.123456789Z", t.text());
        assertEquals(List.of(), t.marks());
    }

    @Test
    void of_scriptTag_keptAsTextMarkedMarkup() {
        DisplayText t = DisplayText.of("<script>alert(1)</script>");
        assertEquals("<script>alert(1)</script>", t.text());
        assertEquals(List.of(Mark.MARKUP), t.marks());
    }

    @Test
    void of_rightToLeftOverride_writtenOutMarkedBidi() {
        DisplayText t = DisplayText.of("12.5\u202Egnp.exe");
        assertEquals("12.5⟦U+202E⟧gnp.exe", t.text());
        assertEquals(List.of(Mark.BIDI), t.marks());
    }

    @Test
    void of_isolatesAndMarks_allBidi() {
        for (int cp :
                new int[] {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x2066, 0x2067, 0x2068, 0x2069}) {
            DisplayText t = DisplayText.of("a" + Character.toString(cp) + "b");
            assertEquals(List.of(Mark.BIDI), t.marks(), Integer.toHexString(cp));
            assertTrue(t.text().contains("U+"), t.text());
        }
    }

    @Test
    void of_controlsAndZeroWidth_writtenOutMarkedControl() {
        DisplayText t = DisplayText.of("a\u0000b\nc\u200Bd\u0085e\uFEFF\u2028");
        assertEquals("a⟦U+0000⟧b⟦U+000A⟧c⟦U+200B⟧d⟦U+0085⟧e⟦U+FEFF⟧⟦U+2028⟧", t.text());
        assertEquals(List.of(Mark.CONTROL), t.marks());
    }

    @Test
    void of_loneSurrogate_writtenOutMarkedControl() {
        DisplayText t = DisplayText.of("x\uD800y");
        assertEquals("x⟦U+D800⟧y", t.text());
        assertEquals(List.of(Mark.CONTROL), t.marks());
    }

    @Test
    void of_emojiAndAccents_unchanged() {
        DisplayText t = DisplayText.of("Drehzahl 1500 U/min \uD83D\uDE80 é");
        assertEquals("Drehzahl 1500 U/min \uD83D\uDE80 é", t.text());
        assertEquals(List.of(), t.marks());
    }

    @Test
    void of_longText_cutAndMarkedTruncated() {
        DisplayText t = DisplayText.of("9".repeat(DisplayText.MAX_CHARS + 1));
        assertEquals("9".repeat(DisplayText.MAX_CHARS) + "…", t.text());
        assertEquals(List.of(Mark.TRUNCATED), t.marks());
        assertEquals(
                List.of(), DisplayText.of("9".repeat(DisplayText.MAX_CHARS)).marks());
    }

    @Test
    void of_everything_allMarksInOrder() {
        DisplayText t = DisplayText.of("<b>\u202E\u0007" + "x".repeat(DisplayText.MAX_CHARS));
        assertEquals(List.of(Mark.MARKUP, Mark.BIDI, Mark.CONTROL, Mark.TRUNCATED), t.marks());
    }
}
