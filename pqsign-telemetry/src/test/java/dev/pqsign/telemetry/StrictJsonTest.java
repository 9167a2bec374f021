package dev.pqsign.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link StrictJson}: what a lenient JSON reader takes silently is refused, with one line that says
 * what and where in words, never the parser's class or setting names, never a long excerpt.
 */
class StrictJsonTest {
    /** A Java class or setting name, as Jackson puts them in its messages. */
    private static final Pattern INTERNALS =
            Pattern.compile("`|Source:|REDACTED|Feature|ObjectNode|Exception|[a-z]+\\.[a-z]+\\.[A-Z]");

    private static StrictJson.Malformed refused(String json) {
        return refused(json.getBytes(StandardCharsets.UTF_8));
    }

    private static StrictJson.Malformed refused(byte[] json) {
        StrictJson.Malformed e = assertThrows(StrictJson.Malformed.class, () -> StrictJson.parse(json));
        assertFalse(INTERNALS.matcher(e.getMessage()).find(), "no parser internals: " + e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().length() < 300, e.getMessage());
        return e;
    }

    @Test
    void strictJson_accepted() throws Exception {
        assertEquals(
                2,
                StrictJson.parse("{\"a\":1,\"b\":[1,{\"a\":2}]} \n\t".getBytes(StandardCharsets.UTF_8))
                        .size());
    }

    @Test
    void duplicateKey_anyDepth_refusedWithItsPlace() {
        StrictJson.Malformed e = refused("{\"a\":1,\n \"b\":{\"c\":1,\"c\":2}}");
        assertEquals("duplicate key 'c'", e.problem());
        assertEquals(2, e.line());
        assertTrue(e.getMessage().startsWith("line 2, column "), e.getMessage());
        assertEquals(
                "duplicate key 'signature'",
                refused("{\"signature\":\"A\",\"signature\":\"B\"}").problem());
    }

    @Test
    void anythingAfterTheDocument_refused() {
        for (String tail : new String[] {"\0", "{}", "garbage", " {\"a\":1}", ",", "]"}) {
            StrictJson.Malformed e = refused("{\"a\":1}" + tail);
            assertTrue(e.problem().startsWith("more after the JSON document"), tail + ": " + e.getMessage());
        }
        assertEquals("no JSON document (only white space)", refused(" \n ").problem());
        assertEquals("no JSON document (only white space)", refused("").problem()); // nothing at all: no decoder error
        // zero bytes that a parser given bytes would take for UTF-32 or UTF-16: still UTF-8, and refused as JSON
        assertTrue(refused(new byte[] {0, 0, 0, 0x7b, 0x7d}).getMessage().startsWith("line 1"));
        assertTrue(refused(new byte[] {0x22, 0, 0x37, 0x26, 0x22, 0x62})
                .getMessage()
                .startsWith("line 1"));
    }

    @Test
    void syntaxErrors_inWordsWithoutInternalsAndLongExcerptsCut() {
        assertTrue(refused("{\"a\":[1,2").problem().startsWith("unexpected end-of-input"));
        assertTrue(refused("{\"a\":NaN}").problem().startsWith("non-standard token 'NaN'"));
        assertTrue(refused("{'a':1}").problem().contains("double-quote"));
        String huge = "x".repeat(100_000);
        StrictJson.Malformed e = refused("{\"url\":" + huge + "}");
        assertTrue(e.problem().contains("'" + "x".repeat(StrictJson.MAX_EXCERPT) + "…'"), e.problem());
        assertEquals(1, e.line());
    }

    @Test
    void invalidUtf8_refusedAtItsByte() {
        byte[] b = "{\"a\":\n \"x\"}".getBytes(StandardCharsets.UTF_8);
        b[8] = (byte) 0xc3; // a lead byte followed by '"'
        StrictJson.Malformed e = refused(b);
        assertEquals("not valid UTF-8 (byte 0xc3)", e.problem());
        assertEquals(2, e.line());
        assertEquals(3, e.column());
    }
}
