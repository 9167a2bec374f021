package dev.pqsign.console.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Text as the console shows it: every string that reaches the page (readings, sensor names,
 * details, alarm texts) passes through here. Control, format and bidirectional-override characters
 * are replaced by a visible {@code ⟦U+XXXX⟧} so that nothing reorders or hides what follows, and the
 * text is marked so the page can flag it. Markup characters are kept (the page writes text with
 * {@code textContent}, never as HTML) but marked, so a reading that carries {@code <script>} is
 * shown as those characters with a visible warning.
 */
public final class DisplayText {

    /** Characters kept before the rest is cut off (a reading is at most a few kilobytes). */
    public static final int MAX_CHARS = 240;

    /** Why a text is flagged on the page. */
    public enum Mark {
        /** Contains {@code < > &} or quotes: would be markup if it were ever interpreted as HTML. */
        MARKUP,
        /** Contains a bidirectional control (e.g. U+202E right-to-left override). */
        BIDI,
        /** Contains another control or invisible format character. */
        CONTROL,
        /** Longer than {@link #MAX_CHARS}; the rest is not shown. */
        TRUNCATED
    }

    private final String text;
    private final List<Mark> marks;

    private DisplayText(String text, List<Mark> marks) {
        this.text = text;
        this.marks = marks;
    }

    /** The display form of {@code raw} (null becomes the empty text). */
    public static DisplayText of(String raw) {
        if (raw == null) {
            return new DisplayText("", List.of());
        }
        boolean markup = false;
        boolean bidi = false;
        boolean control = false;
        boolean truncated = false;
        StringBuilder sb = new StringBuilder(Math.min(raw.length(), MAX_CHARS) + 16);
        int shown = 0;
        for (int i = 0; i < raw.length(); ) {
            if (shown >= MAX_CHARS) {
                truncated = true;
                break;
            }
            int cp = raw.codePointAt(i);
            i += Character.charCount(cp);
            shown++;
            if (isBidiControl(cp)) {
                bidi = true;
                appendEscape(sb, cp);
            } else if (isHidden(cp)) {
                control = true;
                appendEscape(sb, cp);
            } else {
                if (cp == '<' || cp == '>' || cp == '&' || cp == '"' || cp == '\'') {
                    markup = true;
                }
                sb.appendCodePoint(cp);
            }
        }
        if (truncated) {
            sb.append('…');
        }
        List<Mark> marks = new ArrayList<>(4);
        if (markup) {
            marks.add(Mark.MARKUP);
        }
        if (bidi) {
            marks.add(Mark.BIDI);
        }
        if (control) {
            marks.add(Mark.CONTROL);
        }
        if (truncated) {
            marks.add(Mark.TRUNCATED);
        }
        return new DisplayText(sb.toString(), Collections.unmodifiableList(marks));
    }

    /** The text to show, with hidden characters written out. */
    public String text() {
        return text;
    }

    /** Why the text is flagged; empty for plain text. */
    public List<Mark> marks() {
        return marks;
    }

    /** Embedding, override and isolate controls and the implicit direction marks. */
    static boolean isBidiControl(int cp) {
        return cp == 0x061C
                || cp == 0x200E
                || cp == 0x200F
                || (cp >= 0x202A && cp <= 0x202E)
                || (cp >= 0x2066 && cp <= 0x2069);
    }

    /** C0/C1 controls, format characters (zero-width and the like), unpaired surrogates, noncharacters. */
    static boolean isHidden(int cp) {
        int type = Character.getType(cp);
        return type == Character.CONTROL
                || type == Character.FORMAT
                || type == Character.SURROGATE
                || type == Character.UNASSIGNED
                || type == Character.PRIVATE_USE
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }

    private static void appendEscape(StringBuilder sb, int cp) {
        String hex = Integer.toHexString(cp).toUpperCase(Locale.ROOT);
        sb.append("⟦U+")
                .append("0".repeat(Math.max(0, 4 - hex.length())))
                .append(hex)
                .append('⟧');
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DisplayText d && d.text.equals(text) && d.marks.equals(marks);
    }

    @Override
    public int hashCode() {
        return Objects.hash(text, marks);
    }

    @Override
    public String toString() {
        return text;
    }
}
