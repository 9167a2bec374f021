package dev.pqsign.telemetry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Reads one JSON document as strictly as pqsign's JSON formats promise (the operator's JSON Lines,
 * docs/telemetry.md; the operator's sensors file, docs/formats/operator-sensors.md): UTF-8 only,
 * every key at most once per object, nothing but white space after the document, and standard JSON
 * only (no comments, {@code NaN}, single quotes or leading zeros). What a lenient reader would take
 * silently, the last of two {@code "signature"} keys or a second document after the first, is a
 * {@link Malformed} here: one line saying what is wrong and where, without library class names and
 * with long excerpts of the input cut.
 */
public final class StrictJson {
    /** Longest excerpt of the input a message quotes. */
    static final int MAX_EXCERPT = 32;

    /** Longest description of a problem. */
    static final int MAX_PROBLEM = 200;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .build();
    private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    /** Quoted excerpts, cut in messages. */
    private static final Pattern EXCERPT = Pattern.compile("'([^']{" + MAX_EXCERPT + "})[^']+'");

    private StrictJson() {}

    /**
     * A document that is not strict JSON, and where.
     */
    public static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        private final long line;
        private final long column;
        private final String problem;

        Malformed(long line, long column, String problem) {
            super("line " + line + ", column " + column + ": " + problem);
            this.line = line;
            this.column = column;
            this.problem = problem;
        }

        /**
         * The line of the document the problem is on.
         *
         * @return from 1
         */
        public long line() {
            return line;
        }

        /**
         * The column of that line: in characters, as the parser counts them; for bytes that are not
         * UTF-8, in bytes.
         *
         * @return from 1
         */
        public long column() {
            return column;
        }

        /**
         * What is wrong, one line, without its place.
         *
         * @return e.g. {@code duplicate key 'signature'}
         */
        public String problem() {
            return problem;
        }
    }

    /**
     * Parses {@code utf8} as one JSON document.
     *
     * @param utf8 the whole document
     * @return its tree
     * @throws Malformed if it is not valid UTF-8, not JSON, holds a key twice in one object, is
     *     empty, or has anything but white space after the document
     */
    public static JsonNode parse(byte[] utf8) throws Malformed {
        requireUtf8(utf8);
        // Parsed as text: given bytes, the parser would guess their encoding (UTF-16 or UTF-32 from
        // the pattern of zero bytes) and fail on its own guess; they are UTF-8, checked above.
        String text = new String(utf8, StandardCharsets.UTF_8);
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonNode tree = MAPPER.readTree(p);
            if (tree == null || tree.isMissingNode()) {
                throw new Malformed(1, 1, "no JSON document (only white space)");
            }
            // Where anything after the document starts: the parser would name the end of the token
            // it could not read ("garbage"), a person looks for its first character.
            Malformed trailing = trailing(text, p.currentLocation());
            JsonToken after;
            try {
                after = p.nextToken();
            } catch (JsonProcessingException e) {
                throw trailing;
            }
            if (after != null) {
                throw trailing;
            }
            return tree;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new Malformed(
                    at == null ? 1 : Math.max(1, at.getLineNr()),
                    at == null ? 1 : Math.max(1, at.getColumnNr()),
                    describe(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not from a byte array
        }
    }

    /** The first character after {@code end} (the document's end) that is not JSON white space. */
    private static Malformed trailing(String text, JsonLocation end) {
        long line = Math.max(1, end.getLineNr());
        long column = Math.max(1, end.getColumnNr());
        for (int i = (int) Math.max(0, end.getCharOffset()); i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
                column = 1;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                column++;
            } else {
                break;
            }
        }
        return new Malformed(line, column, "more after the JSON document (only white space may follow it)");
    }

    /** Refuses bytes that are not UTF-8, naming the line and column of the first bad byte. */
    private static void requireUtf8(byte[] utf8) throws Malformed {
        CharsetDecoder d = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(utf8);
        CharBuffer out = CharBuffer.allocate(4096);
        while (true) {
            // All input at once (endOfInput): UNDERFLOW then means every byte was decoded, and a
            // sequence cut off at the end is an error. No flush: UTF-8 keeps no state to flush,
            // and flushing a decoder that never decoded (empty input) throws.
            CoderResult r = d.decode(in, out, true);
            if (r.isError()) {
                int bad = in.position();
                long line = 1;
                int lineStart = 0;
                for (int i = 0; i < bad; i++) {
                    if (utf8[i] == '\n') {
                        line++;
                        lineStart = i + 1;
                    }
                }
                throw new Malformed(
                        line,
                        bad - lineStart + 1,
                        "not valid UTF-8 (byte 0x" + Integer.toHexString(utf8[bad] & 0xff) + ")");
            }
            if (!r.isOverflow()) {
                return;
            }
            out.clear();
        }
    }

    /**
     * The parser's description in words for people: without the parser's internal names and
     * settings, excerpts of the input cut, one line.
     */
    static String describe(String original) {
        String m = original == null ? "not JSON" : original;
        m = m.replaceAll("\\s*\\(start marker at \\[Source:[^\\]]*\\][^)]*\\)", "")
                .replaceAll("\\s*\\[Source:[^\\]]*\\][^\\s]*", "")
                .replaceAll(":?\\s*enable `[^`]*` to allow", "")
                .replaceAll("\\s*for `[^`]*`", "")
                .replaceAll("`[^`]*`", "the parser's settings")
                .replace("Duplicate field '", "duplicate key '");
        m = EXCERPT.matcher(m).replaceAll("'$1…'");
        StringBuilder sb = new StringBuilder(Math.min(m.length(), MAX_PROBLEM + 1));
        m.codePoints().limit(MAX_PROBLEM).forEach(c -> sb.appendCodePoint(Character.isISOControl(c) ? '?' : c));
        if (m.codePointCount(0, m.length()) > MAX_PROBLEM) {
            sb.append('…');
        }
        if (!sb.isEmpty()) {
            sb.setCharAt(0, Character.toLowerCase(sb.charAt(0)));
        }
        return sb.toString().strip();
    }
}
