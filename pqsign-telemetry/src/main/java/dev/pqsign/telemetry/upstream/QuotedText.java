package dev.pqsign.telemetry.upstream;

/**
 * The quoted strings of upstream reading texts: {@code "…"}, printable ASCII only. {@code "} and
 * {@code \} are written {@code \"} and {@code \\}; line feed, carriage return and tab {@code \n},
 * {@code \r}, {@code \t}; every other UTF-16 code unit outside 0x20…0x7e (controls, DEL, all
 * non-ASCII characters, a supplementary character as its two surrogates) {@code \}{@code u} and
 * four lowercase hex digits. Exactly one text per string: a parser refuses any other escape.
 *
 * <p>Why ASCII only: a reading text is shown in operators' terminals and logs; escaping every
 * non-ASCII character leaves nothing there that could be mistaken for the text's own structure
 * (bidirectional overrides, line separators, look-alike quotes), whatever the Unicode version of
 * the reader.
 */
final class QuotedText {

    private QuotedText() {}

    /**
     * Bytes (= characters, all ASCII) of the escaped form of {@code c}, without the quotes.
     *
     * @param c a UTF-16 code unit
     * @return 1, 2 or 6
     */
    static int escapedLength(char c) {
        if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t') {
            return 2;
        }
        return c >= 0x20 && c <= 0x7e ? 1 : 6;
    }

    /**
     * Appends {@code c} escaped.
     *
     * @param sb where to append
     * @param c a UTF-16 code unit
     */
    static void appendEscaped(StringBuilder sb, char c) {
        switch (c) {
            case '"' -> sb.append("\\\"");
            case '\\' -> sb.append("\\\\");
            case '\n' -> sb.append("\\n");
            case '\r' -> sb.append("\\r");
            case '\t' -> sb.append("\\t");
            default -> {
                if (c >= 0x20 && c <= 0x7e) {
                    sb.append(c);
                } else {
                    sb.append("\\u");
                    String hex = Integer.toHexString(c);
                    sb.append("0000", hex.length(), 4).append(hex);
                }
            }
        }
    }

    /**
     * The quoted form of {@code s}.
     *
     * @param s any string
     * @return {@code "…"} with every character escaped as this class says
     */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            appendEscaped(sb, s.charAt(i));
        }
        return sb.append('"').toString();
    }

    /**
     * Reads a quoted string at the cursor.
     *
     * @param c the cursor, at the opening quote; left after the closing quote
     * @return the string it stands for
     * @throws IllegalArgumentException if there is no well-formed quoted string there
     */
    static String read(TextCursor c) {
        c.expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            char ch = c.next("a closing quote");
            if (ch == '"') {
                return sb.toString();
            }
            if (ch < 0x20 || ch > 0x7e) {
                throw c.error("a character outside printable ASCII in a quoted string");
            }
            if (ch != '\\') {
                sb.append(ch);
                continue;
            }
            char e = c.next("an escape");
            switch (e) {
                case '"', '\\' -> sb.append(e);
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> sb.append(unicodeEscape(c));
                default -> throw c.error("an unknown escape \\" + e);
            }
        }
    }

    private static char unicodeEscape(TextCursor c) {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            char h = c.next("four hex digits");
            int d = Character.digit(h, 16);
            if (d < 0 || Character.isUpperCase(h)) {
                throw c.error("four lowercase hex digits after \\u");
            }
            v = v * 16 + d;
        }
        char ch = (char) v;
        if (escapedLength(ch) != 6) {
            throw c.error("\\u escape of a character that has a shorter form");
        }
        return ch;
    }
}
