package dev.pqsign.lms;

import dev.pqsign.core.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a test-vector file of src/test/resources/vectors: {@code #} comment lines (the source), then
 * {@code name: hex} lines.
 */
final class Vectors {
    private final Map<String, byte[]> fields;

    private Vectors(Map<String, byte[]> fields) {
        this.fields = fields;
    }

    static Vectors load(String name) {
        try (InputStream in = Vectors.class.getResourceAsStream("/vectors/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no vector file " + name);
            }
            Map<String, byte[]> fields = new LinkedHashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int colon = line.indexOf(':');
                fields.put(
                        line.substring(0, colon).strip(),
                        Hex.decode(line.substring(colon + 1).strip()));
            }
            return new Vectors(fields);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] get(String field) {
        byte[] v = fields.get(field);
        if (v == null) {
            throw new IllegalArgumentException("no field " + field);
        }
        return v.clone();
    }
}
