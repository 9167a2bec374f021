package dev.pqsign.telemetry.upstream;

/** A position in an upstream reading text being parsed; errors name the position. */
final class TextCursor {
    private final String text;
    private int pos;

    TextCursor(String text, int pos) {
        this.text = text;
        this.pos = pos;
    }

    boolean atEnd() {
        return pos == text.length();
    }

    /** The next character, consumed. */
    char next(String what) {
        if (pos >= text.length()) {
            throw error("the text ends where " + what + " was expected");
        }
        return text.charAt(pos++);
    }

    void expect(char ch) {
        if (pos >= text.length() || text.charAt(pos) != ch) {
            throw error("'" + ch + "' expected");
        }
        pos++;
    }

    /** Consumes {@code literal} if the text continues with it. */
    boolean accept(String literal) {
        if (text.startsWith(literal, pos)) {
            pos += literal.length();
            return true;
        }
        return false;
    }

    void expect(String literal) {
        if (!accept(literal)) {
            throw error("'" + literal + "' expected");
        }
    }

    /** The characters up to the next space or the end, consumed (may be empty). */
    String token() {
        int start = pos;
        while (pos < text.length() && text.charAt(pos) != ' ') {
            pos++;
        }
        return text.substring(start, pos);
    }

    IllegalArgumentException error(String what) {
        return new IllegalArgumentException("upstream reading text, at byte " + pos + ": " + what);
    }
}
