package dev.pqsign.console.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON for the page: compact single-line output (one Server-Sent Events data line per message). */
final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /** A display text as {@code {"text": ..., "marks": [...]}}. */
    static Map<String, Object> text(DisplayText t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", t.text());
        m.put("marks", t.marks().stream().map(Enum::name).toList());
        return m;
    }

    static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Object> point(long epochMillis, double value) {
        return List.of(epochMillis, value);
    }
}
